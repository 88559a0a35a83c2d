// A seeded random session against the real daemon: after every request the
// replayed Frontend model must equal the daemon's `snapshot`, and a fake DOM
// driven by dom.js must show the same rows, keeping the nodes of unchanged
// and moved rows. Reproduce one seed with DIFFABLE_JS_SEED=N (rounds:
// DIFFABLE_JS_ROUNDS).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applySteps, renderSnapshot } from '../dom.js';
import { Frontend, RpcError } from '../index.js';
import { describe, expectedView, FakeDocument, renderOptions } from './support/fake-dom.js';
import { startDaemon } from './support/daemon.js';
import { randomEditOps, randomPolicies, randomSearch, randomSelect, randomSnapshot, seededRandom } from './support/random.js';

const seeds = process.env.DIFFABLE_JS_SEED ? [Number(process.env.DIFFABLE_JS_SEED)] : [1, 2, 3, 4, 5, 6];
const rounds = Number(process.env.DIFFABLE_JS_ROUNDS ?? 600);
// Rejections the generators provoke on purpose; anything else is a failure.
const EXPECTED_REJECTIONS = new Set([1004, 1005, -32602]);

/**
 * Selecting the placeholder row by path is answered 1003 naming the placeholder's
 * id (not documented in select.md; see the report): expected exactly then.
 */
function isPlaceholderSelection(kind, call, error, frontend, full) {
  if (kind !== 'select' || error.code !== 1003 || !call[1].paths) return false;
  const [s, row] = call[1].paths[0];
  const id = frontend.sections(call[0])[s]?.items[row]?.id;
  const isItem = full.some((section) => section.items.some((item) => item.id === id));
  return id !== undefined && !isItem && JSON.stringify(error.data) === JSON.stringify({ ids: [id] });
}

const normalized = (sections) => sections.map((s) => ({ id: s.id, header: s.header ?? null, items: s.items }));

/** Ids whose row nodes a steps diff may replace: inserted, reloaded, or moved with new content. */
function redrawnIds(steps) {
  const ids = [];
  for (const step of steps) {
    if (step.op === 'insertItems' || step.op === 'reloadItems') ids.push(...step.items.map((item) => item.id));
    if (step.op === 'insertSections') ids.push(...step.sections.flatMap((s) => s.items.map((item) => item.id)));
    if (step.op === 'moveItem' && step.item) ids.push(step.item.id);
  }
  return ids;
}

function rowNodes(container) {
  const nodes = new Map();
  for (const section of container.children) {
    for (const row of section.children) if (!row.hasAttribute('data-header')) nodes.set(row.getAttribute('data-id'), row);
  }
  return nodes;
}

/** The DOM for one source: steps go through applySteps; a batch re-renders from the model. */
function updateDom(view, result, sections) {
  if (result.steps) {
    const before = rowNodes(view.container);
    const redrawn = redrawnIds(result.steps);
    const renders = view.options.counters.render;
    applySteps(view.container, result.steps, view.options);
    assert.equal(view.options.counters.render - renders, redrawn.length, 'rows rendered ≠ rows inserted/reloaded');
    const mayChange = new Set(redrawn);
    for (const [id, node] of rowNodes(view.container)) {
      if (before.has(id) && !mayChange.has(id)) assert.equal(node, before.get(id), `row ${id} kept its node`);
    }
  } else if (result.batch) {
    renderSnapshot(view.container, sections, view.options);
  }
  assert.deepEqual(describe(view.container), expectedView(sections), 'the DOM shows the model');
}

async function session(seed) {
  const r = seededRandom(seed);
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false, form: r.pick(['batch', 'steps']) } });
  const frontend = new Frontend();
  const views = new Map();
  const full = new Map(); // source -> the daemon's whole snapshot, what the generators work from
  const counts = {};
  try {
    for (let round = 0; round < rounds; round++) {
      const source = r.pick(['people', 'fruit']);
      const current = full.get(source) ?? [];
      const kind = current.length ? r.pick(['apply', 'apply', 'apply', 'search', 'search', 'search', 'select', 'select', 'edit', 'edit', 'edit', 'setSelectionMode']) : 'apply';
      const form = r.pick(['batch', 'steps', undefined]);
      let call;
      if (kind === 'apply') call = [source, randomSnapshot(r, current), { form }];
      else if (kind === 'edit') call = [source, randomEditOps(r, current, round), { form }];
      else if (kind === 'search') {
        const { query, options } = randomSearch(r, current);
        call = [source, query, { ...options, form }];
      } else if (kind === 'select') call = [source, randomSelect(r, current, frontend.sections(source))];
      else call = [source, randomPolicies(r, current)];

      // sometimes with a workDoneToken: the strict daemon must accept it with every option mix
      const progress = [];
      if (kind !== 'select' && kind !== 'setSelectionMode' && r.chance(0.3)) call[2].onProgress = (value) => progress.push(value.kind);

      if (!views.has(source)) views.set(source, { container: new FakeDocument().createElement('div'), options: renderOptions() });
      const before = structuredClone(normalized(frontend.sections(source)));
      const what = () => `seed ${seed} round ${round}: ${kind} ${JSON.stringify(call.slice(1))}`;
      let result;
      try {
        result = await client[kind](...call);
      } catch (error) {
        const expected = error instanceof RpcError &&
          (EXPECTED_REJECTIONS.has(error.code) || isPlaceholderSelection(kind, call, error, frontend, current));
        if (!expected) throw new Error(`${what()} failed: ${error.message}`);
        counts.rejected = (counts.rejected ?? 0) + 1;
      }
      const truth = await client.snapshot(source);
      try {
        if (result) {
          if (call[2]?.onProgress) assert.deepEqual([progress[0], progress.at(-1)], ['begin', 'end'], 'progress');
          frontend.update(result);
          updateDom(views.get(source), result, frontend.sections(source));
          counts[kind] = (counts[kind] ?? 0) + 1;
        }
        assert.deepEqual(normalized(frontend.sections(source)), normalized(truth.sections), 'model = snapshot');
        assert.deepEqual([...frontend.selected(source)].sort(), [...truth.selected].sort(), 'selected ids');
        assert.equal(frontend.version(source), truth.version, 'version');
      } catch (error) {
        error.message = `${what()}\n${error.message}\nmodel before: ${JSON.stringify(before)}\nresponse: ${JSON.stringify(result)}`;
        throw error;
      }
      full.set(source, (await client.snapshot(source, { full: true })).sections);
    }
  } finally {
    await client.close();
  }
  return counts;
}

for (const seed of seeds) {
  test(`random session, seed ${seed}: the model and the DOM follow the daemon`, async (t) => {
    const counts = await session(seed);
    t.diagnostic(`seed ${seed}, ${rounds} rounds: ${JSON.stringify(counts)}`);
    // every kind of request must have succeeded at least once, or the session proved little
    for (const kind of ['apply', 'edit', 'search', 'select', 'setSelectionMode']) {
      assert.ok(counts[kind] > 0, `no successful ${kind} in ${JSON.stringify(counts)}`);
    }
  });
}
