// Field-level updates (protocol/README.md): applyPatch, the Frontend applying `updates: "patch"` rows in
// every form, and patchContent, replayed against `snapshot` / `rows` of the real daemon.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Frontend, PatchError, applyPatch, patchContent } from '../index.js';
import { startDaemon } from './support/daemon.js';

const transcript = new URL('../../../transcripts/ticker-patch-updates.transcript', import.meta.url);

test('applyPatch: every op and the pointer rules', () => {
  const doc = { 'a/b': 1, 'm~n': [1, 2], x: { y: null } };
  const out = applyPatch(doc, [
    { op: 'replace', path: '/a~1b', value: 2 }, { op: 'add', path: '/m~0n/-', value: 3 },
    { op: 'add', path: '/m~0n/0', value: 0 }, { op: 'remove', path: '/x/y' },
    { op: 'copy', from: '/m~0n', path: '/c' }, { op: 'move', from: '/a~1b', path: '/z' }, { op: 'test', path: '/z', value: 2.0 },
  ]);
  assert.deepEqual(out, { 'm~n': [0, 1, 2, 3], x: {}, c: [0, 1, 2, 3], z: 2 });
  assert.deepEqual(Object.keys(out), ['m~n', 'x', 'c', 'z']);
  assert.equal(doc['a/b'], 1, 'the document given is not modified');
  for (const [patch, index] of [
    [[{ op: 'add', path: '/01', value: 1 }], 0], [[{ op: 'replace', path: '/-', value: 1 }], 0],
    [[{ op: 'remove', path: '/2' }], 0], [[{ op: 'test', path: '/0', value: 1 }, { op: 'test', path: '/0', value: '1' }], 1],
    [[{ op: 'add', path: '/0/~2', value: 1 }], 0], [[{ op: 'move', from: '', path: '/0' }], 0],
  ]) {
    assert.throws(() => applyPatch([1, 2], patch), (error) => error instanceof PatchError && error.index === index);
  }
  assert.deepEqual(patchContent('a', [{ op: 'remove', path: '/x' }]), { op: 'patchContent', id: 'a', patch: [{ op: 'remove', path: '/x' }] });
});

test('the ticker transcript replays: window rows patched to what rows answers', () => {
  const answers = new Map(readFileSync(transcript, 'utf8').split('\n').filter((l) => l.startsWith('< '))
    .map((l) => JSON.parse(l.slice(2))).map((a) => [a.id, a]));
  const frontend = new Frontend();
  for (const id of [2, 3, 4, 5, 8, 9, 10]) frontend.update(answers.get(id).result);
  assert.deepEqual(frontend.window('ticker').rows.map((r) => r.content), answers.get(11).result.rows.slice(0, 2).map((r) => r.content));
});

function rowsOf(random, n) {
  return Array.from({ length: n }, (_, i) => ({ id: `t${i}`, content: {
    symbol: `T${i}`, price: Math.round(random() * 50000) / 100, volume: Math.floor(random() * 1e6), tags: ['a', 'b'],
    name: `Ticker ${i} Incorporated, listed`,
  } }));
}

/** Rows that came as a patch: items with `patch`, and the rows of patch runs (`rows` + `patches`). */
function patchedRows(result) {
  const runs = [...(result.batch?.items?.reload ?? []), ...(result.batch?.items?.reconfigure ?? []),
    ...(result.steps ?? []).filter((s) => s.op === 'reloadItems' || s.op === 'reconfigureItems')];
  return JSON.stringify(result).split('"patch"').length - 1 + runs.reduce((n, run) => n + (run.patches?.length ?? 0), 0);
}

function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

for (const form of ['batch', 'steps', 'window']) {
  test(`patch sessions replay to the daemon (${form})`, async (t) => {
    const client = await startDaemon();
    t.after(() => client.close());
    const random = seeded(32);
    const source = `ticker-${form}`;
    const rows = rowsOf(random, 12);
    const frontend = new Frontend();
    const wire = form === 'steps' ? 'steps' : 'batch';
    frontend.update(await client.apply(source, [{ id: 'q', items: rows }], { updates: 'patch', form: wire }));
    if (form === 'window') frontend.update(await client.viewport(source, { start: 2, count: 6 }));
    let patched = 0;
    for (let tick = 0; tick < 30; tick++) {
      const k = Math.floor(random() * rows.length);
      let result;
      if (tick % 2) {
        const field = ['price', 'volume', 'tags'][Math.floor(random() * 3)];
        const value = field === 'tags' ? Array(Math.floor(random() * 3)).fill('x') : Math.floor(random() * 1000);
        rows[k].content[field] = value;
        const ops = [patchContent(rows[k].id, [{ op: 'replace', path: `/${field}`, value }])];
        const echo = random() < 0.5 ? 'ids' : 'full';
        result = await client.edit(source, ops, { updates: 'patch', echo, form: wire });
        patched += patchedRows(result);
        frontend.update(result, { sent: { ops } });
      } else {
        rows[k].content.price = Math.round(random() * 50000) / 100;
        if (tick % 6 === 0) rows.unshift(rows.pop());
        result = await client.apply(source, [{ id: 'q', items: rows }], { updates: 'patch', form: wire });
        patched += patchedRows(result);
        frontend.update(result);
      }
      if (form === 'window') {
        const window = frontend.window(source);
        const listed = await client.rows(source, { start: window.start, count: window.count });
        assert.deepEqual(window.rows.map((r) => [r.id, r.content]), listed.rows.map((r) => [r.id, r.content]));
      } else {
        const truth = await client.snapshot(source);
        assert.deepEqual(frontend.sections(source)[0].items, truth.sections[0].items);
      }
    }
    assert.ok(patched > (form === 'window' ? 4 : 10), `${patched} rows came as patches`);
  });
}
