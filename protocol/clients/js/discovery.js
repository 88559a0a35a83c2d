// Finding the daemon binary. Order: explicit `daemon` option, $DIFFABLE_BIN,
// the daemon bundled with this package (bin/diffable next to this file: the
// npm tarball protocol/tools/package builds carries one), `diffable` on PATH,
// then the checkout's .build/release and .build/debug (the checkout is found
// by walking up from this file to Package.swift).
// An explicit path or $DIFFABLE_BIN is authoritative: when it does not point
// at an executable we fail instead of silently running some other binary.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonNotFoundError } from './errors.js';

const moduleDir = dirname(fileURLToPath(import.meta.url));

function isExecutable(path) {
  try {
    return statSync(path).isFile() && (accessSync(path, constants.X_OK), true);
  } catch {
    return false;
  }
}

function executableNames(name) {
  return process.platform === 'win32' ? [name, `${name}.exe`] : [name];
}

/** Every directory from `start` up to the root that holds a Package.swift. */
function checkoutsAbove(start) {
  const found = [];
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'Package.swift'))) found.push(dir);
    if (dirname(dir) === dir) return found;
  }
}

/**
 * The argv that starts the daemon.
 * @param {{daemon?: string | string[], env?: Record<string, string|undefined>, searchFrom?: string, packageDir?: string}} [options]
 *   `daemon`: a path, or an argv whose first element is a path or a command on PATH;
 *   `env`: where $DIFFABLE_BIN and $PATH are read (default process.env);
 *   `searchFrom`: where the walk up to Package.swift starts (default: this module's folder);
 *   `packageDir`: where the bundled `bin/diffable` is looked for (default: this module's folder).
 * @returns {string[]}
 */
export function findDaemon(options = {}) {
  const env = options.env ?? process.env;
  const searched = [];
  const lookUp = (command) => {
    if (command.includes('/') || command.includes('\\') || isAbsolute(command)) {
      searched.push(command);
      return isExecutable(command) ? command : null;
    }
    for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
      for (const name of executableNames(command)) {
        const candidate = join(dir, name);
        if (isExecutable(candidate)) return candidate;
      }
    }
    searched.push(`${command} on PATH (${env.PATH ?? 'PATH is not set'})`);
    return null;
  };

  if (options.daemon !== undefined) {
    const argv = Array.isArray(options.daemon) ? [...options.daemon] : [options.daemon];
    if (argv.length === 0 || typeof argv[0] !== 'string') throw new TypeError('`daemon` must be a path or a non-empty argv');
    const found = lookUp(argv[0]);
    if (!found) {
      throw new DaemonNotFoundError(searched, 'the `daemon` option does not name an executable',
        'pass the path of an executable `diffable`, or leave `daemon` out to search for one.');
    }
    return [found, ...argv.slice(1)];
  }
  if (env.DIFFABLE_BIN) {
    const found = lookUp(env.DIFFABLE_BIN);
    if (!found) {
      throw new DaemonNotFoundError(searched.map((p) => `$DIFFABLE_BIN=${p}`), '$DIFFABLE_BIN does not name an executable',
        'point $DIFFABLE_BIN at an executable `diffable`, or unset it to search the usual places.');
    }
    return [found];
  }
  searched.push('$DIFFABLE_BIN (not set)');
  for (const name of executableNames('diffable')) {
    const bundled = join(options.packageDir ?? moduleDir, 'bin', name);
    if (isExecutable(bundled)) return [bundled];
    searched.push(`${bundled} (the daemon bundled with this package)`);
  }
  const onPath = lookUp('diffable');
  if (onPath) return [onPath];
  const checkouts = checkoutsAbove(options.searchFrom ?? moduleDir);
  if (checkouts.length === 0) searched.push(`a checkout (no Package.swift in ${resolve(options.searchFrom ?? moduleDir)} or above)`);
  for (const checkout of checkouts) {
    for (const config of ['release', 'debug']) {
      for (const name of executableNames('diffable')) {
        const candidate = join(checkout, '.build', config, name);
        searched.push(candidate);
        if (isExecutable(candidate)) return [candidate];
      }
    }
  }
  throw new DaemonNotFoundError(searched, '', checkouts.length > 0
    ? `build it with \`swift build -c release\` (in ${checkouts[0]}), or put \`diffable\` on PATH, ` +
      'set $DIFFABLE_BIN, or pass its path as `daemon`.'
    : 'install a package that bundles it (`npm install diffable-client-VERSION-linux-x64.tgz`, from a release ' +
      'or from `protocol/tools/package` in a checkout), or put `diffable` on PATH, set $DIFFABLE_BIN, ' +
      'or pass its path as `daemon`.');
}
