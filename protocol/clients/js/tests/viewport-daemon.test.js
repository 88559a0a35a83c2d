// viewport, rows and echo against the real daemon: the contract of
// protocol/methods/viewport.md, checked request by request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Frontend, RpcError } from '../index.js';
import { startDaemon } from './support/daemon.js';

const people = (n, offset = 0) => Array.from({ length: n }, (_, k) => ({ id: `p${k + offset}`, content: { text: `Person ${k + offset}` } }));
const rpc = (code) => (error) => error instanceof RpcError && error.code === code;

test('viewport and rows: window answers, scrolling, removal, and rows reading any part of the list', async (t) => {
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false } });
  t.after(() => client.close());
  assert.equal(client.capabilities.viewports, true);
  assert.deepEqual(client.capabilities.echo, ['full', 'ids']);
  const frontend = new Frontend();
  const sections = [{ id: 'list', header: 'People', items: people(50) }];
  frontend.update(await client.apply('big', sections, { viewport: { start: 0, count: 10 } }));
  let w = frontend.window('big');
  assert.deepEqual([w.total, w.start, w.count, w.rows.length], [51, 0, 10, 10]);
  assert.deepEqual(w.rows[0], { id: 'list', section: 'list', header: true, content: 'People' });
  frontend.update(await client.viewport('big', { start: 45, count: 10 }));
  w = frontend.window('big');
  assert.deepEqual([w.start, w.rows.length, w.rows[0].id, w.rows.at(-1).id], [45, 6, 'p44', 'p49'], 'near the end: total - start rows');
  const rows = await client.rows('big', { start: 45, count: 10 });
  assert.deepEqual(rows.rows, w.rows);
  assert.equal((await client.rows('big')).rows.length, 51, 'count defaults to 100');
  // an edit above the window slides start; the same rows stay
  frontend.update(await client.edit('big', [{ op: 'deleteItems', ids: ['p0', 'p1'] }]));
  w = frontend.window('big');
  assert.deepEqual([w.total, w.start, w.rows[0].id], [49, 43, 'p44']);
  const removed = await client.viewport('big', { count: 0 });
  assert.equal(removed.window, null);
  frontend.update(removed);
  assert.equal(frontend.window('big'), null);
  const after = await client.edit('big', [{ op: 'deleteItems', ids: ['p2'] }]);
  assert.ok(after.batch && !('window' in after), 'batch form again');
  await assert.rejects(client.viewport('nope', { count: 5 }), rpc(1001));
  await assert.rejects(client.rows('nope'), rpc(1001));
  await assert.rejects(client.viewport('big', { count: 10001 }), rpc(-32602));
  await assert.rejects(client.rows('big', { start: -1 }), rpc(-32602));
});

test('echo "ids": items the client sent come back by id; the Frontend restores their content', async (t) => {
  const client = await startDaemon({ initializationOptions: { echo: 'ids' } });
  t.after(() => client.close());
  const frontend = new Frontend();
  const sections = [{ id: 'list', items: people(5) }];
  const result = await client.apply('s', sections, { viewport: { start: 0, count: 3 } });
  assert.deepEqual(result.window.steps[0].rows[0], { id: 'p0', section: 'list' }, 'id only');
  frontend.update(result, { sent: { sections } });
  assert.deepEqual(frontend.window('s').rows, (await client.rows('s', { count: 3 })).rows);
  // a scroll reveals rows the client did not just send: they carry content
  const scrolled = await client.viewport('s', { start: 2, count: 3 });
  assert.ok(scrolled.window.steps.filter((s) => s.op === 'insert').flatMap((s) => s.rows).every((r) => 'content' in r));
  frontend.update(scrolled);
  assert.deepEqual(frontend.window('s').rows, (await client.rows('s', { start: 2, count: 3 })).rows);
});

// "Section headers are always sent" (viewport.md, echo): a header row must carry its header.
test('echo "ids": the header row of a section the request inserted carries its header', async (t) => {
  const client = await startDaemon({ initializationOptions: { echo: 'ids' } });
  t.after(() => client.close());
  const applied = await client.apply('s', [{ id: 'list', header: 'People', items: people(2) }], { viewport: { start: 0, count: 10 } });
  const edited = await client.edit('s', [{ op: 'appendSections', sections: [{ id: 'more', header: 'More', items: people(1, 9) }] }]);
  const headerRows = [applied, edited].flatMap((r) => r.window.steps.flatMap((s) => s.rows ?? [])).filter((r) => r.header);
  assert.deepEqual(headerRows, [
    { id: 'list', section: 'list', header: true, content: 'People' },
    { id: 'more', section: 'more', header: true, content: 'More' },
  ]);
});

// "Rows the client did not just send — the search placeholder, … — always carry their content."
test('echo "ids": a placeholder row an apply brings into the window carries its content', async (t) => {
  const client = await startDaemon({ initializationOptions: { echo: 'ids', supersedeSearches: false } });
  t.after(() => client.close());
  await client.apply('s', [{ id: 'list', items: people(3) }], { viewport: { start: 0, count: 10 } });
  await client.search('s', 'Person 1', { placeholder: { id: 'none', content: 'No results' } });
  const result = await client.apply('s', [{ id: 'list', items: people(1, 5) }]); // nothing matches now
  const inserted = result.window.steps.filter((s) => s.op === 'insert').flatMap((s) => s.rows);
  assert.deepEqual(inserted, [{ id: 'none', section: 'list', content: 'No results' }]);
});
