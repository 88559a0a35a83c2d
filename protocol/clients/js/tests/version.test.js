// One version for daemon and package, and the DaemonVersionWarning Client.start
// gives once when the daemon's initialize answer names another MAJOR.MINOR
// (the fake server's FAKE_SERVER_VERSION).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DaemonVersionWarning, version } from '../index.js';
import { majorMinor } from '../version.js';
import { startDaemon, startFake } from './support/daemon.js';

const [major, minor, patch] = version.split('.').map(Number);

/** The warnings a session with the fake server answering `serverVersion` hands to onWarning. */
async function warningsFor(serverVersion) {
  const seen = [];
  const client = await startFake({ env: { ...process.env, FAKE_SERVER_VERSION: serverVersion }, onWarning: (w) => seen.push(w) });
  await client.request('received');
  await client.close();
  return seen;
}

test('version is package.json\'s and ServerVersion.swift\'s', () => {
  const swift = readFileSync(new URL('../../../../Sources/DiffableServer/Server/ServerVersion.swift', import.meta.url), 'utf8');
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.equal(version, /static let version = "([^"]+)"/.exec(swift)[1]);
  assert.equal(version, manifest.version);
});

test('majorMinor reads MAJOR.MINOR or nothing', () => {
  for (const [text, expected] of [['0.1.0', [0, 1]], ['12.34.5', [12, 34]], ['1.2', [1, 2]], ['1.2.3-beta', [1, 2]],
    ['0', null], ['', null], ['v1.2.3', null], ['1.x', null], [undefined, null], [1.2, null]]) {
    assert.deepEqual(majorMinor(text), expected, String(text));
  }
});

test('another minor or major: onWarning gets one DaemonVersionWarning naming both versions', async () => {
  const other = `${major}.${minor + 1}.0`;
  const seen = await warningsFor(other);
  assert.equal(seen.length, 1);
  assert.ok(seen[0] instanceof DaemonVersionWarning);
  assert.deepEqual([seen[0].daemonVersion, seen[0].clientVersion, seen[0].daemon], [other, version, process.execPath]);
  assert.match(seen[0].message, new RegExp(`version ${other.replaceAll('.', '\\.')} .* ${version.replaceAll('.', '\\.')}`));
  assert.equal((await warningsFor(`${major + 1}.${minor}.${patch}`)).length, 1);
});

test('patch levels and unreadable versions say nothing', async () => {
  for (const other of [`${major}.${minor}.${patch + 7}`, `${major}.${minor}`, '0', 'unknown']) {
    assert.deepEqual(await warningsFor(other), [], other);
  }
});

test('the default hook is console.warn, once', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  const client = await startFake({ env: { ...process.env, FAKE_SERVER_VERSION: `${major}.${minor + 1}.0` } });
  await client.request('received');
  await client.close();
  assert.equal(warned.mock.callCount(), 1);
  assert.match(warned.mock.calls[0].arguments[0], /^diffable: the diffable daemon .* is version /);
});

test('a hook that throws makes start reject', async () => {
  const env = { ...process.env, FAKE_SERVER_VERSION: `${major}.${minor + 1}.0` };
  await assert.rejects(startFake({ env, onWarning: (w) => { throw w; } }), DaemonVersionWarning);
});

test('the real daemon matches: no warning', async () => {
  const seen = [];
  const client = await startDaemon({ onWarning: (w) => seen.push(w) });
  const said = client.serverInfo.version;
  await client.close();
  assert.deepEqual(seen, []);
  assert.equal(said, version);
});
