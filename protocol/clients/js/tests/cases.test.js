// The shared replay cases (protocol/cases/, recorded from the daemon by
// protocol/tools/record-cases): the Frontend replays each case's batch and
// steps payloads onto its old snapshot and must reach its new one; replayWindow
// replays its window payload onto the old rows and must reach the new rows.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Frontend, replayWindow } from '../index.js';

const folder = new URL('../../../cases/', import.meta.url);
const cases = readdirSync(folder).filter((name) => name.endsWith('.json')).sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')));
const normalized = (sections) => sections.map((s) => ({ id: s.id, header: s.header ?? null, items: s.items ?? [] }));

test('there are shared replay cases', () => {
  assert.ok(cases.length >= 10, `only ${cases.length} cases in ${folder.pathname}`);
  assert.ok(cases.some((c) => c.window), 'no case has a window form');
});

for (const c of cases) {
  for (const form of ['batch', 'steps']) {
    test(`case ${c.name}: the ${form} form reaches the new snapshot`, () => {
      const frontend = new Frontend();
      frontend.reset({ source: 's', version: 1, sections: c.old.sections });
      frontend.update({ source: 's', version: 2, [form]: c[form] });
      assert.deepEqual(normalized(frontend.sections('s')), normalized(c.new.sections));
    });
  }
  if (c.window) {
    test(`case ${c.name}: the window form reaches the new rows`, () => {
      const { start, count, old, payload } = c.window;
      const next = replayWindow({ total: old.length, start, count, rows: old }, payload);
      assert.deepEqual(next.rows, c.window.new);
      assert.equal(next.total, payload.total);
    });
  }
}
