// The typed methods and errors against the real daemon ($DIFFABLE_BIN or discovery).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, DaemonExitedError, ErrorCodes, Frontend, RpcError } from '../index.js';
import { startDaemon } from './support/daemon.js';
import { contractFunction } from '../client.js';

const rpcError = (code, check = () => true) => (error) => {
  assert.ok(error instanceof RpcError, `expected RpcError ${code}, got ${error}`);
  assert.equal(error.code, code, error.message);
  assert.equal(typeof error.rpcMessage, 'string');
  return check(error.data, error) !== false;
};

const people = [
  { id: 'search', items: [{ id: 'bar', content: { text: 'Search' } }] },
  { id: 'people', header: 'People', selection: 'multiple', items: [
    { id: 'ava', content: { text: 'Ava Grace' } }, { id: 'liam', content: { text: 'Liam' } }, 'noah',
  ] },
];

test('every method the daemon advertises has a typed function on Client', async (t) => {
  const client = await startDaemon();
  t.after(() => client.close());
  assert.equal(client.serverInfo.name, 'diffable');
  for (const method of client.capabilities.methods) {
    if (method === 'initialize' || method === 'shutdown') continue;
    assert.equal(typeof Client.prototype[method], 'function', `Client.${method}`);
  }
});

test('a function made from the contract (what a method the daemon gained gets) answers as the own ones do', async (t) => {
  const client = await startDaemon();
  t.after(() => client.close());
  await client.apply('made', people);
  const snapshot = contractFunction('snapshot');
  assert.deepEqual(await snapshot.call(client, 'made', { full: true }), await client.snapshot('made', { full: true }));
  const highlights = contractFunction('highlights');
  assert.deepEqual(await highlights.call(client, 'made', 1, { count: 3 }), await client.highlights('made', 1, { count: 3 }));
  assert.throws(() => highlights.call(client, 'made'), /highlights: takes 2 argument\(s\) \(source, section\)/);
  assert.throws(() => highlights.call(client, 'made', 1, { rows: 3 }), /unknown option "rows"/);
});

test('the typed methods drive a session whose replayed model matches snapshot', async (t) => {
  const client = await startDaemon({ initializationOptions: { form: 'steps', supersedeSearches: false } });
  t.after(() => client.close());
  const frontend = new Frontend();
  const check = async () => {
    const truth = await client.snapshot('people');
    assert.deepEqual(frontend.sections('people').map((s) => [s.id, s.header ?? null, s.items]),
      truth.sections.map((s) => [s.id, s.header ?? null, s.items]));
    assert.deepEqual([...frontend.selected('people')].sort(), [...truth.selected].sort());
    assert.equal(frontend.version('people'), truth.version);
  };
  const applied = await client.apply('people', people);
  assert.ok(Array.isArray(applied.steps), 'initializationOptions.form = steps is in force');
  frontend.update(applied);
  await check();
  frontend.update(await client.edit('people', [{ op: 'moveItem', id: 'noah', before: 'ava' }], { form: 'batch' }));
  await check();
  frontend.update(await client.select('people', { ids: ['ava', 'liam'] }));
  await check();
  frontend.update(await client.setSelectionMode('people', { people: { mode: 'single' } }));
  await check();
  const selection = await client.selection('people');
  assert.deepEqual(selection.policies, { people: { mode: 'single', allowsEmpty: true } });
  const found = await client.search('people', 'a', { sections: ['people'], mode: 'fuzzy', limit: 1, placeholder: { id: 'none' } });
  assert.equal(found.search.shown, 1);
  frontend.update(found);
  await check();
  const highlights = await client.highlights('people', 1, { start: 0, count: 5 });
  assert.deepEqual(highlights.highlights, found.highlights.filter((h) => h.path[0] === 1));
  const full = await client.snapshot('people', { full: true });
  assert.equal(full.sections[1].items.length, 3);
  assert.deepEqual((await client.sources()).sources.map((s) => [s.source, s.items]), [['people', 4]]);
  assert.deepEqual(await client.drop('people'), { source: 'people', dropped: true });
  assert.deepEqual((await client.sources()).sources, []);
});

test('search passes fields, scheme and tiebreak; highlights and window rows name their field', async (t) => {
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false } });
  t.after(() => client.close());
  const files = ['Sources/app/Main.swift', 'docs/main.md', 'app/web/view.ts'].map((path) => (
    { id: path, content: { name: path.split('/').pop(), path } }));
  await client.apply('files', [{ id: 'files', items: files }]);
  const found = await client.search('files', 'app main', { mode: 'fuzzy', fields: ['name', '/path'], scheme: 'path',
    tiebreak: ['length', 'index'] });
  assert.deepEqual(found.highlights, [{ id: 'Sources/app/Main.swift', path: [0, 0],
    fields: [{ field: 'name', ranges: [[0, 4]] }, { field: '/path', ranges: [[8, 3]] }] }]);
  const frontend = new Frontend();
  frontend.update(await client.search('files', 'view', { mode: 'fuzzy', fields: ['name'], viewport: { start: 0, count: 5 } }));
  assert.deepEqual(frontend.window('files').rows.map((r) => [r.id, r.fieldHighlights]),
    [['app/web/view.ts', [{ field: 'name', ranges: [[0, 4]] }]]]);
  await assert.rejects(client.search('files', 'x', { fields: [] }), rpcError(ErrorCodes.InvalidParams,
    (data) => assert.equal(data.path, 'params.fields')));
});

test('daemon errors arrive as RpcError with code, message and data', async (t) => {
  const client = await startDaemon();
  t.after(() => client.close());
  await assert.rejects(client.snapshot('ghost'), rpcError(ErrorCodes.UnknownSource, (data) => assert.deepEqual(data, { source: 'ghost' })));
  await assert.rejects(client.request('frobnicate', {}), rpcError(ErrorCodes.MethodNotFound, (data) => assert.equal(data.method, 'frobnicate')));
  await assert.rejects(client.apply('p', [{ id: 's', items: ['x', 'x'] }]),
    rpcError(ErrorCodes.InvalidParams, (data) => assert.ok(data.problems.some((p) => p.id === 'x'), JSON.stringify(data))));
  await client.apply('p', people);
  await assert.rejects(client.apply('p', people, { baseVersion: 0 }),
    rpcError(ErrorCodes.VersionConflict, (data) => assert.deepEqual(data, { source: 'p', baseVersion: 0, currentVersion: 1 })));
  await assert.rejects(client.search('p', 'a', { sections: ['nope'] }), rpcError(ErrorCodes.UnknownId, (data) => assert.deepEqual(data.sections, ['nope'])));
  await assert.rejects(client.edit('p', [{ op: 'deleteItems', ids: ['ava'] }, { op: 'moveItem', id: 'ghost', after: 'liam' }]),
    rpcError(ErrorCodes.InvalidEdit, (data) => assert.deepEqual(data, { op: 1, reason: 'unknownItem', ids: ['ghost'] })));
  await assert.rejects(client.select('p', { ids: ['bar'] }), rpcError(ErrorCodes.SelectionRejected, (data) => assert.equal(data.section, 'search')));
  assert.equal((await client.snapshot('p')).version, 1, 'errors changed nothing');
});

test('exit without shutdown ends the daemon with code 1; later requests get DaemonExitedError', async () => {
  const client = await startDaemon();
  client.notify('exit');
  assert.deepEqual(await client.exited, { code: 1, signal: null });
  await assert.rejects(client.sources(), (error) => error instanceof DaemonExitedError && error.exitCode === 1);
});

test('close() shuts down cleanly with exit code 0', async () => {
  const client = await startDaemon();
  assert.deepEqual(await client.close(), { code: 0, signal: null });
  assert.deepEqual(await client.close(), { code: 0, signal: null }, 'idempotent');
});

test('onProgress receives the daemon\'s $/progress for apply, edit and search, begin first and end last', async (t) => {
  const client = await startDaemon();
  t.after(() => client.close());
  const calls = [
    (onProgress) => client.apply('p', people, { onProgress }),
    (onProgress) => client.edit('p', [{ op: 'appendItems', items: ['zoe'] }], { onProgress }),
    (onProgress) => client.search('p', 'a', { onProgress }),
  ];
  for (const call of calls) {
    const values = [];
    const tokens = new Set();
    const result = await call((value, token) => { values.push(value); tokens.add(token); });
    assert.equal(result.source, 'p');
    assert.equal(tokens.size, 1, 'one token per request');
    assert.ok(values.length >= 2, JSON.stringify(values));
    assert.equal(values[0].kind, 'begin');
    assert.equal(typeof values[0].title, 'string');
    assert.equal(values.at(-1).kind, 'end');
    assert.ok(values.slice(1, -1).every((value) => value.kind === 'report'), JSON.stringify(values));
  }
});
