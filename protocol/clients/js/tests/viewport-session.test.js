// A seeded random session with viewports against the real daemon: applies,
// edits, selects, searches, policies, scrolling (`viewport`), viewports set and
// removed through the `viewport` member, `echo` "full"/"ids". After every
// request the window replayed by the Frontend — and a fake DOM driven by
// dom.js applyWindowSteps — must equal the daemon's `rows {source, start,
// count}`, and `total` its total; without a viewport the model (reset from
// `snapshot` when it went stale) must equal `snapshot`. Reproduce one seed
// with DIFFABLE_JS_SEED=N (rounds: DIFFABLE_JS_ROUNDS).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyWindowSteps, clearWindow } from '../dom.js';
import { Frontend, RpcError } from '../index.js';
import { FakeDocument } from './support/fake-dom.js';
import { startDaemon } from './support/daemon.js';
import { randomEditOps, randomPolicies, randomSearch, randomSelect, randomSnapshot, seededRandom } from './support/random.js';

const seeds = process.env.DIFFABLE_JS_SEED ? [Number(process.env.DIFFABLE_JS_SEED)] : [11, 12, 13, 14];
const rounds = Number(process.env.DIFFABLE_JS_ROUNDS ?? 300);
const EXPECTED_REJECTIONS = new Set([1004, 1005, -32602]);
const normalized = (sections) => sections.map((s) => ({ id: s.id, header: s.header ?? null, items: s.items }));
const rowText = (row) => `${row.header ? '#' : ''}${row.id}@${row.section}:${JSON.stringify(row.content ?? null)}${row.selected ? '*' : ''}${JSON.stringify(row.highlights ?? [])}`;

/** Selecting the placeholder by path: 1003 naming its id (as in random-session.test.js). */
function isPlaceholderSelection(kind, call, error, visible, full) {
  if (kind !== 'select' || error.code !== 1003 || !call[1].paths) return false;
  const [s, r] = call[1].paths[0];
  const id = visible[s]?.items[r]?.id;
  const isItem = full.some((section) => section.items.some((item) => item.id === id));
  return id !== undefined && !isItem && JSON.stringify(error.data) === JSON.stringify({ ids: [id] });
}

function windowView() {
  const doc = new FakeDocument();
  const counters = { render: 0, update: 0 };
  return {
    container: doc.createElement('div'),
    counters,
    options: {
      render(row) { counters.render++; const e = doc.createElement('li'); e.textContent = rowText(row); return e; },
      update(element, row) { counters.update++; element.textContent = rowText(row); },
    },
  };
}

/** A random viewport for a list of `total` flat rows (sometimes past its end). */
function randomViewport(r, total) {
  return { start: r.int(0, Math.max(0, total + 2)), count: r.int(1, 12) };
}

async function session(seed) {
  const r = seededRandom(seed);
  let sessionEcho = r.pick(['full', 'ids', undefined]);
  const echo = () => r.pick(['full', 'ids', undefined]);
  if (process.env.DIFFABLE_JS_ECHO) sessionEcho = process.env.DIFFABLE_JS_ECHO; // to isolate echo problems
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false, ...(sessionEcho ? { echo: sessionEcho } : {}) } });
  const frontend = new Frontend();
  const source = 'people';
  const view = windowView();
  let full = [];
  let visible = [];
  let hasViewport = false;
  let total = 0;
  const counts = {};
  const bump = (key) => { counts[key] = (counts[key] ?? 0) + 1; };
  try {
    for (let round = 0; round < rounds; round++) {
      const kinds = full.length
        ? ['apply', 'apply', 'edit', 'edit', 'edit', 'search', 'search', 'select', 'select', 'setSelectionMode', 'scroll', 'scroll', 'scroll', 'viewport']
        : ['apply'];
      const kind = r.pick(kinds);
      // the viewport member: set (often), removed (sometimes), or left alone
      const member = () => {
        const roll = r.next();
        if (roll < 0.25) return randomViewport(r, total);
        if (roll < 0.3) return r.pick([null, { start: 0, count: 0 }]);
        return undefined;
      };
      let call;
      let sent;
      if (kind === 'apply') {
        const sections = randomSnapshot(r, full);
        sent = { sections };
        call = ['apply', [source, sections, { viewport: hasViewport || round === 0 ? member() ?? (round === 0 ? randomViewport(r, 10) : undefined) : member(), echo: process.env.DIFFABLE_JS_ECHO ?? echo() }]];
      } else if (kind === 'edit') {
        const ops = randomEditOps(r, full, round);
        sent = { ops };
        call = ['edit', [source, ops, { viewport: member(), echo: process.env.DIFFABLE_JS_ECHO ?? echo() }]];
      } else if (kind === 'search') {
        const { query, options } = randomSearch(r, full);
        call = ['search', [source, query, { ...options, viewport: member() }]];
        sent = { placeholder: options.placeholder };
      } else if (kind === 'select') {
        call = ['select', [source, randomSelect(r, full, visible)]];
      } else if (kind === 'setSelectionMode') {
        call = ['setSelectionMode', [source, randomPolicies(r, full)]];
      } else if (kind === 'scroll') {
        // scrolling by a row, by a page, or anywhere
        const w = frontend.window(source);
        const start = w && r.chance(0.6) ? Math.max(0, w.start + r.pick([-1, 1, -w.count, w.count])) : r.int(0, total + 1);
        call = ['viewport', [source, { start, count: w && r.chance(0.8) ? w.count : r.int(1, 12) }]];
      } else {
        call = ['viewport', [source, r.chance(0.5) ? { count: 0 } : {}]]; // remove it
      }
      const [method, args] = call;
      const options = args[args.length - 1];
      const what = () => `seed ${seed} round ${round}: ${method} ${JSON.stringify(args.slice(1))}`;
      // what the answer's form must be: a viewport set by this request, removed, or as before
      let expectWindow = hasViewport;
      if (method === 'viewport') expectWindow = (options.count ?? 0) > 0;
      else if (options && 'viewport' in options && options.viewport !== undefined) expectWindow = options.viewport !== null && options.viewport.count > 0;

      let result;
      try {
        result = await client[method](...args);
      } catch (error) {
        const expected = error instanceof RpcError &&
          (EXPECTED_REJECTIONS.has(error.code) || isPlaceholderSelection(method, args, error, visible, full));
        if (!expected) throw new Error(`${what()} failed: ${error.message}`);
        bump('rejected');
      }
      const windowBefore = frontend.window(source);
      try {
        if (result) {
          if (expectWindow) assert.ok(result.window, `a window answer was expected: ${JSON.stringify(result).slice(0, 300)}`);
          else if (method === 'viewport' || options?.viewport === null || options?.viewport?.count === 0) assert.equal(result.window ?? null, null, 'the viewport was removed');
          else assert.ok(!('window' in result), `no window without a viewport: ${JSON.stringify(result).slice(0, 300)}`);
          frontend.update(result, sent ? { sent } : {});
          hasViewport = Boolean(result.window);
          // the DOM follows the same window steps, with the content the Frontend remembered
          if (result.window) {
            const before = new Map(view.container.children.map((c) => [c.getAttribute('data-id') + (c.hasAttribute('data-header') ? '#' : ''), c]));
            const redrawn = new Set(result.window.steps.flatMap((s) => (s.op === 'insert' ? s.rows.map((row) => row.id + (row.header ? '#' : '')) : [])));
            const renders = view.counters.render;
            applyWindowSteps(view.container, result.window, { ...view.options, known: frontend.state(source).known, headers: frontend.state(source).headers });
            assert.equal(view.counters.render - renders, result.window.steps.reduce((n, s) => n + (s.op === 'insert' ? s.rows.length : 0), 0), 'renders = inserted rows');
            for (const c of view.container.children) {
              const key = c.getAttribute('data-id') + (c.hasAttribute('data-header') ? '#' : '');
              if (before.has(key) && !redrawn.has(key)) assert.equal(c, before.get(key), `row ${key} kept its node`);
            }
          } else {
            clearWindow(view.container); // removed: by `viewport`, or by a request's `viewport` member
          }
          bump(kind);
          if (kind !== 'scroll' && kind !== 'viewport' && result.window) bump(`${kind}+window`);
          if (result.window && result.window.steps.some((s) => s.op === 'move')) bump('moves');
          if (result.window && result.window.steps.some((s) => s.op === 'update')) bump('updates');
        }
        const snapshot = await client.snapshot(source);
        assert.equal(frontend.version(source), snapshot.version, 'version');
        assert.deepEqual([...frontend.selected(source)].sort(), [...snapshot.selected].sort(), 'selected ids');
        if (hasViewport) {
          const w = frontend.window(source);
          const truth = await client.rows(source, { start: w.start, count: w.count });
          assert.equal(w.total, truth.total, 'total');
          assert.equal(truth.version, snapshot.version, 'rows version');
          assert.deepEqual(w.rows, truth.rows, `window rows ${w.start}..<${w.start + w.count} = the daemon's rows`);
          assert.deepEqual(view.container.children.map((c) => c.textContent), truth.rows.map(rowText), 'the DOM shows the window');
          total = w.total;
        } else {
          assert.equal(frontend.window(source), null, 'no window');
          if (frontend.stale(source)) {
            frontend.reset(snapshot);
            bump('resets');
          }
          assert.deepEqual(normalized(frontend.sections(source)), normalized(snapshot.sections), 'model = snapshot');
          total = snapshot.sections.reduce((n, s) => n + s.items.length + (s.header === undefined || s.header === null ? 0 : 1), 0);
        }
        visible = snapshot.sections;
      } catch (error) {
        error.message = `${what()}\n${error.message}\nwindow before: ${JSON.stringify(windowBefore)}\nresponse: ${JSON.stringify(result)}`;
        throw error;
      }
      full = (await client.snapshot(source, { full: true })).sections;
    }
  } finally {
    await client.close();
  }
  return counts;
}

for (const seed of seeds) {
  test(`viewport session, seed ${seed}: the window and its DOM follow the daemon's rows`, async (t) => {
    const counts = await session(seed);
    t.diagnostic(`seed ${seed}, ${rounds} rounds: ${JSON.stringify(counts)}`);
    for (const kind of ['apply+window', 'edit+window', 'search+window', 'select+window', 'scroll', 'viewport', 'moves', 'updates']) {
      assert.ok(counts[kind] > 0, `no ${kind} in ${JSON.stringify(counts)}`);
    }
  });
}
