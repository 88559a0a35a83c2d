// Outlines (protocol/methods/outline.md) against the real daemon: the spec's
// project-tree transcript replayed through the Frontend (rows and indented
// lines), the typed expand/collapse/outline functions, and seeded random
// sessions on a source that turns flat and nested again — applies of random
// trees (a quarter of them flat), expand/collapse
// (recursive or not), tree edits (appendItems into a parent, insertItems,
// deleteItems of subtrees, moveItem before/after/into a parent, cycles,
// replaceChildren, expand/collapse ops, setContent, reloadItems), searches
// and selects — checking after every step that the replayed model equals the
// daemon's `snapshot` (visible rows with level/parent/hasChildren/expanded),
// that those rows are the tree of `snapshot {full: true}` read as the spec
// says, and that `outline` agrees with both. Reproduce one seed with
// DIFFABLE_JS_OUTLINE_SEED=N (rounds: DIFFABLE_JS_OUTLINE_ROUNDS).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Frontend, RpcError } from '../index.js';
import { startDaemon } from './support/daemon.js';
import { seededRandom } from './support/random.js';

const seeds = process.env.DIFFABLE_JS_OUTLINE_SEED ? [Number(process.env.DIFFABLE_JS_OUTLINE_SEED)] : [21, 22, 23];
const rounds = Number(process.env.DIFFABLE_JS_OUTLINE_ROUNDS ?? 200);
const normalized = (sections) => sections.map((s) => ({ id: s.id, header: s.header ?? null, items: s.items }));

// ---- the spec's transcript -----------------------------------------------------

test('the project-tree transcript replays into indented rows with disclosure markers', () => {
  const lines = readFileSync(new URL('../../../transcripts/project-tree-outline.transcript', import.meta.url), 'utf8').split('\n');
  const frontend = new Frontend();
  const views = [];
  for (const line of lines) {
    if (!line.startsWith('< ')) continue;
    const message = JSON.parse(line.slice(2));
    const result = message.result;
    if (result && result.source === 'project' && ('steps' in result || 'batch' in result)) {
      frontend.update(result);
      views.push(frontend.lines('project'));
    }
    if (result && result.source === 'project' && 'sections' in result && result.sections[0].items[0].children) {
      // snapshot {full: true}: the tree; the model's visible rows are its expanded part
      assert.deepEqual(frontend.rows('project').filter((r) => r.kind === 'item').map((r) => [r.id, r.level, r.parent ?? null]),
        [['tests', 0, null], ['tests/view_tests.swift', 1, 'tests'], ['tests/store_tests.swift', 1, 'tests'],
          ['src/viewmodel.swift', 1, 'tests'], ['README', 0, null]]);
    }
  }
  assert.deepEqual(views[0], ['[files] null', '    ▸ src: {"text":"src/"}', '    ▸ tests: {"text":"tests/"}', '    README: {"text":"README.md"}']);
  assert.deepEqual(views[1].slice(1, 5), ['    ▾ src: {"text":"src/"}', '      view.swift'.replace('view.swift', 'src/view.swift: {"text":"view.swift"}'),
    '      src/viewmodel.swift: {"text":"viewmodel.swift"}', '      ▸ src/store: {"text":"store/"}']);
  assert.deepEqual(views[2], views[0], 'collapse restores the first view');
  assert.deepEqual(views.at(-1), ['[files] null', '    ▾ tests: {"text":"tests/"}', '      tests/view_tests.swift: {"text":"view_tests.swift"}',
    '      tests/store_tests.swift: {"text":"store_tests.swift"}', '      src/viewmodel.swift: {"text":"viewmodel.swift"}', '    README: {"text":"README.md"}']);
  const row = frontend.rows('project').find((r) => r.id === 'tests');
  assert.deepEqual([row.level, row.parent, row.hasChildren, row.expanded], [0, undefined, true, true]);
});

test('expand, collapse and outline: typed functions, 1003 for unknown ids, cycles rejected', async (t) => {
  const client = await startDaemon({ initializationOptions: { form: 'steps' } });
  t.after(() => client.close());
  const frontend = new Frontend();
  frontend.update(await client.apply('t', [{ id: 'files', items: [
    { id: 'a', content: 'a/', children: [{ id: 'a/b', content: 'b/', children: ['a/b/c'] }] }, { id: 'r', content: 'r' }] }]));
  assert.deepEqual(frontend.lines('t'), ['[files] null', '    ▸ a: "a/"', '    r: "r"']);
  frontend.update(await client.expand('t', ['a'], { recursive: true }));
  assert.deepEqual(frontend.lines('t'), ['[files] null', '    ▾ a: "a/"', '      ▾ a/b: "b/"', '        a/b/c: null', '    r: "r"']);
  assert.deepEqual(await client.outline('t', 'a/b/c'), { source: 't', version: 2, id: 'a/b/c', parent: 'a/b', level: 2, children: 0,
    hasChildren: false, expanded: false, visible: true, path: [0, 2] });
  frontend.update(await client.collapse('t', ['a'], { form: 'batch' }));
  assert.deepEqual(frontend.lines('t'), ['[files] null', '    ▸ a: "a/"', '    r: "r"']);
  const hidden = await client.outline('t', 'a/b');
  assert.deepEqual([hidden.expanded, hidden.visible, hidden.path], [true, false, null], 'a/b keeps its expansion while hidden');
  await assert.rejects(client.expand('t', ['a', 'nope']), (e) => e instanceof RpcError && e.code === 1003 && JSON.stringify(e.data.ids) === '["nope"]');
  await assert.rejects(client.outline('t', 'nope'), (e) => e instanceof RpcError && e.code === 1003);
  await assert.rejects(client.edit('t', [{ op: 'moveItem', id: 'a', parent: 'a/b/c' }]),
    (e) => e instanceof RpcError && e.code === 1004 && e.data.reason === 'cycle');
  assert.throws(() => client.expand('t', ['a'], { deep: true }), TypeError);
  frontend.update(await client.edit('t', [{ op: 'replaceChildren', parent: 'a', items: [{ id: 'a/x', content: 'x' }] }, { op: 'expand', ids: ['a'] },
    { op: 'appendItems', parent: 'a/x', items: ['a/x/y'] }]));
  const truth = await client.snapshot('t');
  assert.deepEqual(normalized(frontend.sections('t')), normalized(truth.sections));
  assert.deepEqual(frontend.lines('t'), ['[files] null', '    ▾ a: "a/"', '      ▸ a/x: "x"', '    r: "r"']);
  const full = await client.snapshot('t', { full: true });
  assert.deepEqual(full.sections[0].items[0], { id: 'a', content: 'a/', expanded: true, children: [{ id: 'a/x', content: 'x', expanded: false, children: [{ id: 'a/x/y' }] }] });
});

// ---- random trees ----------------------------------------------------------------

const WORDS = 'src view model store cache tests readme docs main util grace ava éva zoë'.split(' ');

function content(r) {
  const roll = r.next();
  if (roll < 0.6) return { text: `${r.pick(WORDS)} ${r.pick(WORDS)}` };
  if (roll < 0.85) return r.pick(WORDS);
  return undefined;
}

/** A random subtree list; ids from `fresh()`. `nest: false`: leaves only (a flat source, or flat items added to one). */
function randomItems(r, fresh, depth, max, nest = true) {
  const items = [];
  for (let k = r.int(depth === 0 ? 1 : 0, max); k > 0; k--) {
    const id = fresh();
    const c = content(r);
    if (nest && depth < 3 && r.chance(0.45)) {
      const item = { id, ...(c === undefined ? {} : { content: c }), children: randomItems(r, fresh, depth + 1, 3) };
      const e = r.next();
      if (e < 0.35) item.expanded = true; else if (e < 0.5) item.expanded = false;
      items.push(item);
    } else if (c === undefined && r.chance(0.5)) items.push(id);
    else items.push({ id, ...(c === undefined ? {} : { content: c }), ...(r.chance(0.05) ? { expanded: r.chance(0.5) } : {}) });
  }
  return items;
}

/** Every item of a `snapshot {full: true}` with its tree facts, in tree order. */
function flatten(sections) {
  const nodes = [];
  const walk = (items, section, parent, level) => {
    for (const raw of items) {
      const item = typeof raw === 'string' ? { id: raw } : raw;
      const node = { id: item.id, section, parent, level, content: item.content, children: (item.children ?? []).map((c) => (typeof c === 'string' ? c : c.id)), expanded: Boolean(item.expanded) };
      nodes.push(node);
      walk(item.children ?? [], section, item.id, level + 1);
    }
  };
  sections.forEach((s) => walk(s.items, s.id, null, 0));
  return nodes;
}

/** Whether a tree (`snapshot {full: true}` sections) has nested items: without any, the source is flat. */
function isNested(sections) {
  return flatten(sections).some((n) => n.children.length > 0);
}

/** The visible rows the spec derives from the tree (no search): children only under expanded items;
 * rows of a flat source carry no outline members. */
function visibleFromTree(sections) {
  const nested = isNested(sections);
  const row = (item, level, parent) => {
    const out = { id: item.id };
    if (item.content !== undefined) out.content = item.content;
    if (!nested) return out;
    out.level = level;
    if (parent !== null) out.parent = parent;
    if (item.children?.length) out.hasChildren = true;
    if (item.children?.length && item.expanded) out.expanded = true;
    return out;
  };
  const walk = (items, level, parent, into) => {
    for (const raw of items) {
      const item = typeof raw === 'string' ? { id: raw } : raw;
      into.push(row(item, level, parent));
      if (item.expanded && item.children?.length) walk(item.children, level + 1, item.id, into);
    }
    return into;
  };
  return sections.map((s) => ({ id: s.id, header: s.header ?? null, items: walk(s.items, 0, null, []) }));
}

function randomApply(r, fresh, nodes) {
  // ids of the current tree come back (kept expansion, moves, reloads); new ones are fresh.
  // A quarter of the applies are flat: the source turns flat (and nested again on a later apply or edit).
  const old = nodes.map((n) => n.id);
  const reuse = () => (old.length && r.chance(0.6) ? old.splice(r.int(0, old.length - 1), 1)[0] : fresh());
  const nest = !r.chance(0.25);
  const sections = [];
  for (let s = 0, n = r.int(1, 3); s < n; s++) {
    const items = randomItems(r, reuse, 0, 4, nest);
    sections.push({ id: `s${s}`, ...(r.chance(0.3) ? { header: `S${s}` } : {}), selection: 'multiple', items });
  }
  return sections;
}

function randomEdit(r, fresh, nodes) {
  const ids = nodes.map((n) => n.id);
  const any = () => (!ids.length || r.chance(0.04) ? 'nope' : r.pick(ids)); // the tree may be empty (everything deleted)
  const some = () => (ids.length ? r.pick(ids) : 'nope');
  const nest = () => !r.chance(0.3); // flat new items keep a flat source flat (deletes and replaceChildren flatten a nested one)
  const position = () => (r.chance(0.5) ? { before: any() } : { after: any() });
  const ops = [];
  for (let k = r.int(1, 3); k > 0; k--) {
    const kind = r.pick(['appendParent', 'appendParent', 'appendSection', 'insert', 'delete', 'move', 'move', 'moveParent', 'moveParent',
      'replaceChildren', 'expand', 'collapse', 'setContent', 'reload']);
    switch (kind) {
      case 'appendParent': ops.push({ op: 'appendItems', parent: any(), items: randomItems(r, fresh, 1, 3, nest()).concat([fresh()]) }); break;
      case 'appendSection': ops.push({ op: 'appendItems', section: 's0', items: randomItems(r, fresh, 1, 2, nest()).concat([fresh()]) }); break;
      case 'insert': ops.push({ op: 'insertItems', items: randomItems(r, fresh, 1, 2, nest()).concat([fresh()]), ...position() }); break;
      case 'delete': {
        // often every item with children: the source turns flat
        const folders = nodes.filter((n) => n.children.length && n.parent === null).map((n) => n.id);
        ops.push({ op: 'deleteItems', ids: folders.length && r.chance(0.3) ? folders : r.sample(ids, r.int(1, 2)) });
        break;
      }
      case 'move': ops.push({ op: 'moveItem', id: some(), ...position() }); break;
      case 'moveParent': {
        // sometimes into its own subtree: a cycle (1004 `cycle`)
        const folders = nodes.filter((n) => n.children.length);
        if (folders.length && r.chance(0.25)) {
          const folder = r.pick(folders);
          const below = nodes.filter((n) => n.parent === folder.id);
          ops.push({ op: 'moveItem', id: folder.id, parent: r.pick(below).id });
        } else ops.push({ op: 'moveItem', id: some(), parent: any() });
        break;
      }
      case 'replaceChildren': ops.push({ op: 'replaceChildren', parent: some(), items: randomItems(r, fresh, 1, 3, nest()) }); break;
      case 'expand': case 'collapse': ops.push({ op: kind, ids: r.sample(ids, r.int(1, 3)), ...(r.chance(0.4) ? { recursive: r.chance(0.7) } : {}) }); break;
      case 'setContent': ops.push({ op: 'setContent', items: [{ id: some(), content: content(r) ?? null }] }); break;
      default: ops.push({ op: 'reloadItems', ids: r.sample(ids, 1) });
    }
  }
  return ops.filter((op) => !(op.op === 'deleteItems' && op.ids.length === 0));
}

async function session(seed) {
  const r = seededRandom(seed);
  let counter = 0;
  const fresh = () => `n${seed}_${counter++}`;
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false, ...(r.chance(0.5) ? { echo: 'ids' } : {}) } });
  const frontend = new Frontend();
  const source = 'tree';
  let tree = [];
  let nested = false;
  let searching = false;
  const counts = {};
  const bump = (key) => { counts[key] = (counts[key] ?? 0) + 1; };
  try {
    for (let round = 0; round < rounds; round++) {
      const nodes = flatten(tree);
      const kind = round === 0 ? 'apply' : r.pick(['apply', 'expand', 'expand', 'collapse', 'collapse', 'edit', 'edit', 'edit', 'edit', 'search', 'search', 'select']);
      const form = r.pick(['batch', 'steps', undefined]);
      const withForm = form ? { form } : {};
      let call;
      let sent;
      if (kind === 'apply') {
        const sections = randomApply(r, fresh, nodes);
        sent = { sections };
        call = ['apply', [source, sections, { ...withForm, ...(r.chance(0.3) ? { echo: r.pick(['ids', 'full']) } : {}) }]];
      } else if (kind === 'expand' || kind === 'collapse') {
        const folders = nodes.filter((n) => n.children.length).map((n) => n.id);
        const ids = r.sample(r.chance(0.8) && folders.length ? folders : nodes.map((n) => n.id), r.int(1, 3));
        if (r.chance(0.05)) ids.push('nope');
        call = [kind, [source, ids, { ...withForm, ...(r.chance(0.4) ? { recursive: r.chance(0.7) } : {}) }]];
      } else if (kind === 'edit') {
        const ops = randomEdit(r, fresh, nodes);
        sent = { ops };
        call = ['edit', [source, ops, { ...withForm, ...(r.chance(0.3) ? { echo: r.pick(['ids', 'full']) } : {}) }]];
      } else if (kind === 'search') {
        const word = r.pick(WORDS);
        const from = r.int(0, Math.max(0, word.length - 2));
        const query = r.chance(0.3) ? '' : word.slice(from, from + r.int(1, 3));
        const scoped = r.chance(0.25) ? { sections: r.sample(tree.map((s) => s.id), 1) } : {};
        call = ['search', [source, query, { ...withForm, mode: r.pick(['substring', 'fuzzy']), ...(r.chance(0.3) ? { order: 'score' } : {}), ...scoped }]];
      } else {
        call = ['select', [source, { action: r.pick(['select', 'toggle', 'deselect']), ids: r.sample(nodes.map((n) => n.id), r.int(1, 2)) }]];
      }
      const [method, args] = call;
      const what = () => `seed ${seed} round ${round}: ${method} ${JSON.stringify(args.slice(1))}`;
      let result;
      try {
        result = await client[method](...args);
      } catch (error) {
        // unknown ids (1003), edits that cannot apply (1004: unknown/duplicate ids, cycles, ops after a delete)
        if (!(error instanceof RpcError) || ![1003, 1004].includes(error.code)) throw new Error(`${what()} failed: ${error.message}`);
        bump(`rejected ${error.code}${error.data?.reason ? ` ${error.data.reason}` : ''}`);
      }
      try {
        if (result) {
          frontend.update(result, sent ? { sent } : {});
          bump(kind);
          if (method === 'search') searching = result.search.query !== '';
        }
        const snapshot = await client.snapshot(source);
        const full = await client.snapshot(source, { full: true });
        assert.equal(frontend.version(source), snapshot.version, 'version');
        assert.deepEqual(normalized(frontend.sections(source)), normalized(snapshot.sections), 'model = snapshot (visible rows with level/parent)');
        assert.deepEqual([...frontend.selected(source)].sort(), [...snapshot.selected].sort(), 'selected ids');
        // the visible rows are the tree of `snapshot {full: true}`
        const facts = new Map(flatten(full.sections).map((n) => [n.id, n]));
        const nowNested = isNested(full.sections);
        if (!searching) {
          assert.deepEqual(normalized(snapshot.sections), visibleFromTree(full.sections), 'visible rows = the expanded part of the tree');
        } else {
          for (const section of snapshot.sections) {
            const shown = new Set();
            for (const row of section.items) {
              const node = facts.get(row.id);
              if (!node) continue; // a placeholder
              if (!nowNested) {
                assert.deepEqual([row.level, row.parent, row.hasChildren, row.expanded], [undefined, undefined, undefined, undefined], `${row.id} in a flat source`);
                continue;
              }
              assert.equal(row.level, node.level, `level of ${row.id}`);
              assert.equal(row.parent ?? null, node.parent, `parent of ${row.id}`);
              assert.equal(Boolean(row.hasChildren), node.children.length > 0, `hasChildren of ${row.id}`);
              assert.equal(Boolean(row.expanded), node.children.length > 0 && node.expanded, `expanded of ${row.id} (the user's state)`);
              if (node.parent !== null) assert.ok(shown.has(node.parent), `${row.id} is shown after its parent ${node.parent}`);
              shown.add(row.id);
            }
          }
        }
        // outline of a few ids agrees with the tree and with where the model shows them
        const paths = new Map();
        frontend.sections(source).forEach((s, si) => s.items.forEach((item, ri) => paths.set(item.id, [si, ri])));
        for (const id of r.sample([...facts.keys()], 2)) {
          const node = facts.get(id);
          const o = await client.outline(source, id);
          assert.deepEqual(o, { source, version: snapshot.version, id, parent: node.parent, level: node.level, children: node.children.length,
            hasChildren: node.children.length > 0, expanded: node.children.length > 0 && node.expanded, visible: paths.has(id), path: paths.get(id) ?? null },
          `outline ${id}`);
        }
        // rows() carries the outline members the lines are indented from (none in a flat source)
        for (const row of frontend.rows(source)) {
          if (row.kind === 'item' && facts.has(row.id)) assert.equal(row.level, nowNested ? facts.get(row.id).level : undefined, `rows() level of ${row.id}`);
        }
        if (nested !== nowNested && round > 0) bump(nowNested ? 'nested again' : 'turned flat');
        nested = nowNested;
        tree = full.sections;
        if (result?.steps?.some((s) => s.op === 'moveItem') || result?.batch?.items?.move?.length) bump('moves');
      } catch (error) {
        error.message = `${what()}\n${error.message}\nresponse: ${JSON.stringify(result)?.slice(0, 2000)}`;
        throw error;
      }
    }
  } finally {
    await client.close();
  }
  return counts;
}

for (const seed of seeds) {
  test(`outline session, seed ${seed}: the model follows the daemon's visible tree`, async (t) => {
    const counts = await session(seed);
    t.diagnostic(`seed ${seed}, ${rounds} rounds: ${JSON.stringify(counts)}`);
    for (const kind of ['apply', 'expand', 'collapse', 'edit', 'search', 'select', 'moves', 'rejected 1004 cycle', 'turned flat', 'nested again']) {
      assert.ok(counts[kind] > 0, `no ${kind} in ${JSON.stringify(counts)}`);
    }
  });
}
