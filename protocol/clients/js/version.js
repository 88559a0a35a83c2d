// This package's version, and the check of the daemon's. Daemon and packages
// share one version number (Sources/DiffableServer/Server/ServerVersion.swift);
// package.json carries it, and protocol/tools/package writes it into the npm
// tarball's. A daemon of another MAJOR.MINOR may answer with members this
// client does not know, or miss ones it expects, so Client.start says so once;
// a different PATCH changes no message and says nothing.
import { readFileSync } from 'node:fs';
import { DaemonVersionWarning } from './errors.js';

/** This package's version (its package.json's). */
export const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;

/** [MAJOR, MINOR] of a version such as '0.1.0' or '1.2.3-beta'; null when it does not start with two numbers. */
export function majorMinor(text) {
  const found = typeof text === 'string' ? /^(\d+)\.(\d+)(?:\D|$)/.exec(text) : null;
  return found ? [Number(found[1]), Number(found[2])] : null;
}

/**
 * The warning for this `initialize` result, or undefined. A daemon whose
 * version cannot be read as MAJOR.MINOR (or that sends no serverInfo) gets
 * none: there is nothing reliable to compare.
 */
export function daemonVersionWarning(initializeResult, daemon, clientVersion = version) {
  const said = initializeResult?.serverInfo?.version;
  const theirs = majorMinor(said), ours = majorMinor(clientVersion);
  if (!theirs || !ours || (theirs[0] === ours[0] && theirs[1] === ours[1])) return undefined;
  return new DaemonVersionWarning(
    `the diffable daemon ${daemon} is version ${said} and this JavaScript client is ${clientVersion}: ` +
      'a daemon and a client of another MAJOR.MINOR may not understand each other. Use the daemon that came ' +
      `with this client (the npm package carries it), or point \`daemon\` or $DIFFABLE_BIN at a ${ours[0]}.${ours[1]}.x daemon.`,
    said, clientVersion, daemon);
}
