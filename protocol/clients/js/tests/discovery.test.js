import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client, DaemonNotFoundError, findDaemon } from '../index.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'diffable-js-'));

function fakeBinary(dir, name = 'diffable') {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

test('with nothing to find, DaemonNotFoundError lists every place looked and how to build', () => {
  const empty = scratch();
  const error = (() => {
    try {
      findDaemon({ env: { PATH: empty }, searchFrom: empty, packageDir: empty });
    } catch (caught) {
      return caught;
    }
    return assert.fail('findDaemon found something in an empty directory');
  })();
  assert.ok(error instanceof DaemonNotFoundError);
  assert.match(error.message, /\$DIFFABLE_BIN \(not set\)/);
  assert.ok(error.message.includes(`${join(empty, 'bin', 'diffable')} (the daemon bundled with this package)`), error.message);
  assert.ok(error.message.includes(`diffable on PATH (${empty})`), error.message);
  assert.ok(error.message.includes(`no Package.swift in ${empty}`), error.message);
  assert.match(error.message, /install a package that bundles it \(`npm install diffable-client-/, 'outside a checkout: install');
  assert.doesNotMatch(error.message, /swift build/);
  assert.equal(error.searched.length, 4);
});

test('in a checkout, the advice is to build it there', () => {
  const checkout = scratch();
  writeFileSync(join(checkout, 'Package.swift'), '// swift-tools-version:5.9\n');
  assert.throws(() => findDaemon({ env: { PATH: '' }, searchFrom: checkout, packageDir: checkout }),
    (error) => error.message.includes(`build it with \`swift build -c release\` (in ${checkout})`));
});

test('the daemon bundled next to the package comes after $DIFFABLE_BIN and before PATH', () => {
  const root = scratch();
  const onPath = fakeBinary(join(root, 'path'));
  const bundled = fakeBinary(join(root, 'package', 'bin'));
  const fromEnv = fakeBinary(join(root, 'env'));
  const packageDir = join(root, 'package');
  assert.deepEqual(findDaemon({ env: { PATH: join(root, 'path') }, searchFrom: root, packageDir }), [bundled]);
  assert.deepEqual(findDaemon({ env: { PATH: join(root, 'path'), DIFFABLE_BIN: fromEnv }, searchFrom: root, packageDir }), [fromEnv]);
  assert.deepEqual(findDaemon({ env: { PATH: join(root, 'path') }, searchFrom: root, packageDir: root }), [onPath]);
});

test('the checkout walk lists .build/release then .build/debug of every Package.swift above', () => {
  const checkout = scratch();
  writeFileSync(join(checkout, 'Package.swift'), '// swift-tools-version:5.9\n');
  const nested = join(checkout, 'protocol', 'clients', 'js');
  mkdirSync(nested, { recursive: true });
  assert.throws(() => findDaemon({ env: { PATH: '' }, searchFrom: nested, packageDir: nested }), (error) => {
    assert.ok(error instanceof DaemonNotFoundError);
    assert.deepEqual(error.searched.slice(-2), [join(checkout, '.build/release/diffable'), join(checkout, '.build/debug/diffable')]);
    return true;
  });
  const debug = fakeBinary(join(checkout, '.build', 'debug'));
  assert.deepEqual(findDaemon({ env: { PATH: '' }, searchFrom: nested, packageDir: nested }), [debug]);
  const release = fakeBinary(join(checkout, '.build', 'release'));
  assert.deepEqual(findDaemon({ env: { PATH: '' }, searchFrom: nested, packageDir: nested }), [release], 'release wins over debug');
});

test('order: explicit option, then $DIFFABLE_BIN, then PATH, then the checkout', () => {
  const root = scratch();
  const explicit = fakeBinary(join(root, 'explicit'), 'my-diffable');
  const fromEnv = fakeBinary(join(root, 'env'));
  const onPath = fakeBinary(join(root, 'bin'));
  const env = { PATH: join(root, 'bin'), DIFFABLE_BIN: fromEnv };
  assert.deepEqual(findDaemon({ daemon: [explicit, '--log-level', 'info'], env, searchFrom: root }), [explicit, '--log-level', 'info']);
  assert.deepEqual(findDaemon({ env, searchFrom: root }), [fromEnv]);
  assert.deepEqual(findDaemon({ env: { PATH: env.PATH }, searchFrom: root }), [onPath]);
});

test('an explicit path or $DIFFABLE_BIN that is not executable fails instead of falling back', () => {
  const root = scratch();
  fakeBinary(join(root, 'bin'));
  const missing = join(root, 'nope', 'diffable');
  assert.throws(() => findDaemon({ daemon: missing, env: { PATH: join(root, 'bin') } }),
    (error) => error instanceof DaemonNotFoundError && error.message.includes(missing) && /pass the path of an executable/.test(error.message));
  assert.throws(() => findDaemon({ env: { PATH: join(root, 'bin'), DIFFABLE_BIN: missing } }),
    (error) => error instanceof DaemonNotFoundError && error.message.includes(`$DIFFABLE_BIN=${missing}`));
});

test('Client.start rejects with DaemonNotFoundError before spawning anything', async () => {
  await assert.rejects(Client.start({ daemon: join(scratch(), 'diffable') }), DaemonNotFoundError);
});
