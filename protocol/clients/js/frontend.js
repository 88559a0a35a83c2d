// What a UI shows, replayed from the daemon's diffs alone (protocol/README.md
// "Diff payloads"). Browser-safe: no Node imports.
import { ReplayError } from './errors.js';
import { applyPatch } from './jsonpatch.js';

function check(condition, message) {
  if (!condition) throw new ReplayError(message);
}

/** The row to keep: `item`, its `patch` (`updates: "patch"`) applied to the content `held` had. */
function withPatch(item, held) {
  if (!item || typeof item !== 'object' || !('patch' in item)) return item;
  const { patch, ...rest } = item;
  // A row of a patch run names no id: it keeps the held item.
  const row = 'id' in rest ? rest : { ...held, ...rest };
  check(held && typeof held === 'object' && 'content' in held, `a patch for ${JSON.stringify(row.id)}, whose content the model does not hold`);
  try {
    row.content = applyPatch(held.content, patch);
  } catch (error) {
    throw new ReplayError(`the patch of ${JSON.stringify(row.id)} does not apply: ${error.message}`);
  }
  return row;
}

const isIndex = (value) => Number.isInteger(value) && value >= 0;

/**
 * [row, item] of each row of a reload/reconfigure run: `{at, items}`, or a patch run `{rows, patches}`
 * (`updates: "patch"`), whose rows keep their item with its content patched (`{patch}`, no id).
 */
function runEntries(run) {
  if (run.rows === undefined) return run.items.map((item, k) => [run.at + k, item]);
  check(Array.isArray(run.rows) && Array.isArray(run.patches) && run.rows.length === run.patches.length,
    `a patch run needs as many rows as patches: ${JSON.stringify(run)}`);
  return run.rows.map((row, k) => [row, { patch: run.patches[k] }]);
}

function copySection(section) {
  const copy = { id: section.id, items: (section.items ?? []).map(normalizeItem) };
  if (section.header !== undefined && section.header !== null) copy.header = section.header;
  return copy;
}

/** An item as `{id, content?}`; the wire allows a bare id string in snapshots. */
function normalizeItem(item) {
  return typeof item === 'string' ? { id: item } : item;
}

function rowAt(sections, [section, row]) {
  check(isIndex(section) && section < sections.length && isIndex(row) && row < sections[section].items.length,
    `no row at [${section}, ${row}]`);
  return sections[section].items[row];
}

/** `size` slots: `placed` (Map index → value) at their indices, `rest` in order in the others. */
function fill(size, placed, rest, what) {
  check([...placed.keys()].every((i) => isIndex(i) && i < size) && placed.size + rest.length === size,
    `${what}: ${placed.size} placed at [${[...placed.keys()].sort((a, b) => a - b)}] + ${rest.length} remaining ≠ ${size} slots`);
  let next = 0;
  return Array.from({ length: size }, (_, i) => (placed.has(i) ? placed.get(i) : rest[next++]));
}

/**
 * UIKit `performBatchUpdates` on the old section list; returns the new list and
 * throws ReplayError when the batch breaks a rule UIKit would reject it for.
 */
export function replayBatch(old, batch) {
  const sectionOps = batch.sections ?? {};
  const itemOps = batch.items ?? {};
  const deleted = new Set();
  for (const [start, count] of sectionOps.delete ?? []) {
    for (let k = 0; k < count; k++) {
      check(!deleted.has(start + k), `section ${start + k} deleted twice`);
      deleted.add(start + k);
    }
  }
  const moved = new Map();
  for (const move of sectionOps.move ?? []) {
    check(!moved.has(move.from), `section ${move.from} moved twice`);
    moved.set(move.from, move);
  }
  for (const index of [...deleted, ...moved.keys()]) {
    check(isIndex(index) && index < old.length, `section delete/move of ${index} out of range (${old.length} sections)`);
  }
  check(![...deleted].some((i) => moved.has(i)), 'a section is both deleted and moved');
  const headerReloads = new Map();
  for (const reload of sectionOps.reload ?? []) {
    check(isIndex(reload.at) && reload.at < old.length, `section reload at ${reload.at} out of range`);
    check(!deleted.has(reload.at) && !moved.has(reload.at), `section ${reload.at} is deleted or moved and reloaded`);
    headerReloads.set(reload.at, reload.header);
  }

  // (1)+(2) the new section list; each entry remembers its old index (null: inserted)
  const placed = new Map();
  const inserted = new Set();
  for (const run of sectionOps.insert ?? []) {
    run.sections.forEach((section, k) => {
      check(!placed.has(run.at + k), `two sections inserted at ${run.at + k}`);
      placed.set(run.at + k, { from: null, section: copySection(section) });
      inserted.add(run.at + k);
    });
  }
  for (const move of moved.values()) {
    check(!placed.has(move.to), `section slot ${move.to} used twice`);
    const section = { ...old[move.from] };
    if ('header' in move) setHeader(section, move.header);
    placed.set(move.to, { from: move.from, section });
  }
  const remaining = [];
  old.forEach((section, i) => {
    if (deleted.has(i) || moved.has(i)) return;
    const copy = { ...section };
    if (headerReloads.has(i)) setHeader(copy, headerReloads.get(i));
    remaining.push({ from: i, section: copy });
  });
  const next = fill(remaining.length + placed.size, placed, remaining, 'sections');
  const oldToNew = new Map();
  next.forEach((entry, n) => { if (entry.from !== null) oldToNew.set(entry.from, n); });

  // (3) rows of every surviving section
  const key = (s, r) => `${s},${r}`;
  const leaving = new Map(); // old path key -> 'deleted' | 'moved'
  const oldRowInRange = (s, r, what) =>
    check(oldToNew.has(s) && isIndex(r) && r < old[s].items.length, `${what} [${s}, ${r}]: no such row in a surviving section`);
  for (const del of itemOps.delete ?? []) {
    for (const [start, count] of del.ranges) {
      for (let r = start; r < start + count; r++) {
        oldRowInRange(del.section, r, 'row delete');
        check(!leaving.has(key(del.section, r)), `row [${del.section}, ${r}] deleted twice`);
        leaving.set(key(del.section, r), 'deleted');
      }
    }
  }
  const arriving = new Map(); // new section -> Map(row -> item)
  const arrive = (section, row, item, what) => {
    check(isIndex(section) && section < next.length && !inserted.has(section),
      `${what} into section ${section}, which is inserted or does not exist`);
    if (!arriving.has(section)) arriving.set(section, new Map());
    check(!arriving.get(section).has(row), `two rows arrive at [${section}, ${row}]`);
    arriving.get(section).set(row, item);
  };
  for (const move of itemOps.move ?? []) {
    const [fs, fr] = move.from;
    oldRowInRange(fs, fr, 'row move from');
    check(!leaving.has(key(fs, fr)), `row [${fs}, ${fr}] is ${leaving.get(key(fs, fr))} and moved`);
    leaving.set(key(fs, fr), 'moved');
    arrive(move.to[0], move.to[1], move.item ? withPatch(move.item, old[fs].items[fr]) : old[fs].items[fr], 'row move');
  }
  const changed = new Map();
  for (const kind of ['reload', 'reconfigure']) {
    for (const run of itemOps[kind] ?? []) {
      runEntries(run).forEach(([r, item]) => {
        oldRowInRange(run.section, r, kind);
        check(!leaving.has(key(run.section, r)), `row [${run.section}, ${r}] is ${leaving.get(key(run.section, r))} and ${kind === 'reload' ? 'reloaded' : 'reconfigured'}`);
        check(!changed.has(key(run.section, r)), `row [${run.section}, ${r}] reloaded/reconfigured twice`);
        check(!('id' in item) || item.id === old[run.section].items[r].id, `${kind} of [${run.section}, ${r}] names ${item.id}, the row is ${old[run.section].items[r].id}`);
        changed.set(key(run.section, r), withPatch(item, old[run.section].items[r]));
      });
    }
  }
  for (const run of itemOps.insert ?? []) {
    run.items.forEach((item, k) => arrive(run.section, run.at + k, item, 'row insert'));
  }
  for (const [from, n] of oldToNew) {
    const stay = [];
    old[from].items.forEach((item, r) => {
      if (!leaving.has(key(from, r))) stay.push(changed.get(key(from, r)) ?? item);
    });
    const here = arriving.get(n) ?? new Map();
    next[n].section.items = fill(stay.length + here.size, here, stay, `rows of new section ${n}`);
  }
  return next.map((entry) => entry.section);
}

function setHeader(section, header) {
  if (header === undefined || header === null) delete section.header;
  else section.header = header;
}

/** One step of the sequential form, applied in place to `sections`. */
export function replayStep(sections, step) {
  const itemsOf = (index) => {
    check(isIndex(index) && index < sections.length, `${step.op}: no section ${index}`);
    return sections[index].items;
  };
  switch (step.op) {
    case 'deleteItems': {
      const items = itemsOf(step.section);
      check(step.at + step.count <= items.length, `${JSON.stringify(step)} out of range`);
      items.splice(step.at, step.count);
      break;
    }
    case 'deleteSections':
      check(step.at + step.count <= sections.length, `${JSON.stringify(step)} out of range`);
      sections.splice(step.at, step.count);
      break;
    case 'moveSection': {
      itemsOf(step.from);
      const [section] = sections.splice(step.from, 1);
      check(isIndex(step.to) && step.to <= sections.length, `${JSON.stringify(step)} out of range`);
      sections.splice(step.to, 0, section);
      break;
    }
    case 'insertSections':
      check(isIndex(step.at) && step.at <= sections.length, `${JSON.stringify(step)} out of range`);
      sections.splice(step.at, 0, ...step.sections.map(copySection));
      break;
    case 'reloadSection':
      itemsOf(step.at);
      sections[step.at] = { ...sections[step.at] };
      setHeader(sections[step.at], step.header);
      break;
    case 'moveItem': {
      const item = rowAt(sections, step.from);
      sections[step.from[0]].items.splice(step.from[1], 1);
      const target = itemsOf(step.to[0]);
      check(isIndex(step.to[1]) && step.to[1] <= target.length, `${JSON.stringify(step)} out of range`);
      target.splice(step.to[1], 0, step.item ? withPatch(step.item, item) : item);
      break;
    }
    case 'insertItems': {
      const items = itemsOf(step.section);
      check(isIndex(step.at) && step.at <= items.length, `${JSON.stringify(step)} out of range`);
      items.splice(step.at, 0, ...step.items);
      break;
    }
    case 'reloadItems':
    case 'reconfigureItems': {
      const items = itemsOf(step.section);
      runEntries(step).forEach(([r, item]) => {
        check(isIndex(r) && r < items.length, `${JSON.stringify(step)} out of range`);
        check(!('id' in item) || items[r].id === item.id, `${step.op} at [${step.section}, ${r}] names ${item.id}, the row is ${items[r].id}`);
        items[r] = withPatch(item, items[r]);
      });
      break;
    }
    default:
      throw new ReplayError(`unknown step ${JSON.stringify(step.op)}`);
  }
}

/** Applies a whole steps array to a copy of `old`. */
export function replaySteps(old, steps) {
  const sections = old.map((section) => ({ ...section, items: [...section.items] }));
  for (const step of steps) replayStep(sections, step);
  return sections;
}

// ---- the window form (protocol/methods/viewport.md) --------------------------

/** A window row as the model keeps it: `{id, section, header?, content?, selected?, highlights? | fieldHighlights?}`. */
function windowRow(row, known, headers) {
  check(row !== null && typeof row === 'object' && typeof row.id === 'string' && typeof row.section === 'string',
    `window row ${JSON.stringify(row)} needs a string id and section`);
  const copy = { ...row };
  // echo "ids": rows the client just sent come back without content; what it sent is their content
  if (!('content' in copy) && !copy.header && known?.has(copy.id)) {
    const content = known.get(copy.id);
    if (content !== undefined) copy.content = content;
  }
  // "Section headers are always sent"; the daemon sends a new section's header row without it
  // under echo "ids" (see the README's JS section): the header the client sent fills it
  if (!('content' in copy) && copy.header && headers?.get(copy.id) !== undefined) copy.content = headers.get(copy.id);
  return copy;
}

/**
 * Sequential window steps on the rows of `old` (`{total, start, count, rows}` or
 * null: no rows held). Returns the new window; throws ReplayError on a step that
 * does not fit the rows, or when the result is not the `min(count, total - start)`
 * rows the header announces. `known` (id → content) and `headers` (section id →
 * header) fill rows sent without content.
 */
export function replayWindow(old, payload, known, headers) {
  if (payload === null) return null;
  check(payload && typeof payload === 'object' && Array.isArray(payload.steps), `window ${JSON.stringify(payload)} has no steps`);
  const { total, start, count } = payload;
  check(isIndex(total) && isIndex(start) && isIndex(count), `window total/start/count ${JSON.stringify([total, start, count])} are not indices`);
  const rows = [...(old?.rows ?? [])];
  for (const step of payload.steps) {
    const where = `window step ${JSON.stringify(step).slice(0, 200)} on ${rows.length} rows`;
    switch (step?.op) {
      case 'delete':
        check(isIndex(step.at) && Number.isInteger(step.count) && step.count > 0 && step.at + step.count <= rows.length, `${where}: out of range`);
        rows.splice(step.at, step.count);
        break;
      case 'insert':
        check(isIndex(step.at) && step.at <= rows.length && Array.isArray(step.rows) && step.rows.length > 0, `${where}: out of range`);
        rows.splice(step.at, 0, ...step.rows.map((row) => windowRow(row, known, headers)));
        break;
      case 'move':
        check(isIndex(step.from) && step.from < rows.length && isIndex(step.to) && step.to < rows.length, `${where}: out of range`);
        rows.splice(step.to, 0, rows.splice(step.from, 1)[0]);
        break;
      case 'update':
        check(isIndex(step.at) && Array.isArray(step.rows) && step.rows.length > 0 && step.at + step.rows.length <= rows.length, `${where}: out of range`);
        step.rows.forEach((row, k) => {
          check(row?.id === rows[step.at + k].id && Boolean(row.header) === Boolean(rows[step.at + k].header),
            `${where}: update at ${step.at + k} names ${row?.id}, the row is ${rows[step.at + k].id}`);
          rows[step.at + k] = withPatch(windowRow(row, known, headers), rows[step.at + k]);
        });
        break;
      default:
        throw new ReplayError(`unknown window step ${JSON.stringify(step?.op)}`);
    }
  }
  const expected = Math.min(count, Math.max(0, total - start));
  check(rows.length === expected, `the window holds ${rows.length} rows after its steps; total ${total}, start ${start}, count ${count} make ${expected}`);
  return { total, start, count, rows };
}

/**
 * The diff forms a result may carry, by result key: `into` is the part of the
 * model the form changes, `replay(old, payload, known, headers)` its new value.
 */
export const diffForms = {
  batch: { into: 'sections', replay: replayBatch },
  steps: { into: 'sections', replay: replaySteps },
  window: { into: 'window', replay: replayWindow },
};

/**
 * id → content of the items in an `apply`'s sections, an `edit`'s ops or a
 * `search`'s placeholder, into `known`; section id → header into `headers`.
 */
function rememberSent(known, headers, request) {
  const noteHeader = (section) => {
    if (section && typeof section.id === 'string') headers.set(section.id, section.header ?? undefined);
  };
  const note = (item) => {
    if (typeof item === 'string') known.set(item, undefined);
    else if (item && typeof item.id === 'string') {
      known.set(item.id, item.content ?? undefined); // setContent's null removes the content
      if (Array.isArray(item.children)) item.children.forEach(note); // outlines: nested items
    }
  };
  if (Array.isArray(request.sections)) {
    // not cleared: a search's placeholder (not in the apply) may still be shown
    for (const section of request.sections) {
      noteHeader(section);
      for (const item of section.items ?? []) note(item);
    }
  }
  // a search's placeholder: batch/steps answers of apply/edit under echo "ids" send it by id alone
  if (request.placeholder && typeof request.placeholder.id === 'string') note(request.placeholder);
  for (const op of request.ops ?? []) {
    if (op.op === 'appendItems' || op.op === 'insertItems' || op.op === 'replaceChildren') op.items.forEach(note);
    else if (op.op === 'appendSections' || op.op === 'insertSections' || op.op === 'setHeaders') {
      for (const section of op.sections) {
        noteHeader(section);
        if (op.op !== 'setHeaders') (section.items ?? []).forEach(note);
      }
    }
    else if (op.op === 'setContent') op.items.forEach(note);
    else if (op.op === 'deleteItems') for (const id of op.ids) known.delete(id);
  }
}

/** `{content}` of an item as the model holds it (in the window, listed, else as last sent), or null. */
function heldContent(state, known, id) {
  for (const row of state.window?.rows ?? []) if (!row.header && row.id === id && 'content' in row) return { content: row.content };
  // a window's sections are stale (not followed)
  for (const section of state.window || state.stale ? [] : state.sections) {
    for (const item of section.items) if (item.id === id && 'content' in item) return { content: item.content };
  }
  return known.get(id) !== undefined ? { content: known.get(id) } : null;
}

/** Items of batch/steps payloads with no content get the content the client sent for them (a copy; `payload` is not changed). */
function fillItems(payload, known) {
  if (!known?.size) return payload;
  const fill = (item) => (item && typeof item === 'object' && !('content' in item) && known.get(item.id) !== undefined
    ? { ...item, content: known.get(item.id) } : item);
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'items' && Array.isArray(value)) out.items = value.map(fill);
      else if (key === 'item') out.item = fill(value);
      else out[key] = walk(value);
    }
    return out;
  };
  return walk(payload);
}

export class Frontend {
  constructor() {
    /** @type {Map<string, {version: number, sections: any[], selected: Set<string>, search?: any, window: any, stale: boolean, known: Map<string, any>, headers: Map<string, any>}>} */
    this.sources = new Map();
  }

  state(source) {
    if (!this.sources.has(source)) {
      this.sources.set(source, { version: 0, sections: [], selected: new Set(), window: null, stale: false, known: new Map(), headers: new Map() });
    }
    return this.sources.get(source);
  }

  /**
   * Records what the client sent in an `apply` (`{sections}`), `edit`
   * (`{ops}`) or `search` (`{placeholder}`), id → content, so that rows answered without content under
   * `echo: "ids"` get it back. Call it for every apply/edit of the source
   * (content only ever comes from the client, so this is the daemon's content).
   */
  remember(source, request) {
    const state = this.state(source);
    rememberSent(state.known, state.headers, request);
  }

  /**
   * Replays a change result (apply, edit, select, setSelectionMode, search,
   * viewport): its diff, whatever the form, then its selection delta.
   * `options.sent` (an apply's `{sections}`, an edit's `{ops}`, a search's `{placeholder}`) is passed to
   * `remember` first. All-or-nothing: on ReplayError the model is left as it was.
   */
  update(result, options = {}) {
    const state = this.state(result.source);
    // copied only when something is remembered: all-or-nothing without O(n) per update
    const known = options.sent ? new Map(state.known) : state.known;
    const headers = options.sent ? new Map(state.headers) : state.headers;
    if (options.sent) {
      rememberSent(known, headers, options.sent);
      // patchContent under echo "ids": the content is what the patch makes of what this model holds
      for (const op of options.sent.ops ?? []) {
        if (op.op !== 'patchContent') continue;
        const held = heldContent(state, known, op.id);
        if (held) known.set(op.id, applyPatch(held.content, op.patch));
      }
    }
    const next = { sections: state.sections, window: state.window };
    let stale = state.stale;
    for (const [form, { into, replay }] of Object.entries(diffForms)) {
      if (!(form in result)) continue;
      if (into === 'sections') {
        // a batch/steps answer means no viewport; after one the sections are stale (the diff is
        // from a list this model never followed, e.g. a request whose `viewport: null` removed the
        // window): the caller resets from `snapshot`
        next.window = null;
        if (!stale) next.sections = replay(next.sections, fillItems(result[form], known), known);
      } else {
        next[into] = replay(next[into], result[form], known, headers);
        // a window: the sections are no longer followed; `window: null` (the viewport removed, by the
        // `viewport` method or a request's `viewport: null`/`count: 0`) carries no diff at all, even
        // when the request changed the list: the caller reloads with `snapshot` (`reset`)
        if (into === 'window') stale = true;
      }
    }
    const selected = result.selection ? applySelection(stale ? null : next.sections, state.selected, result.selection) : state.selected;
    state.sections = next.sections;
    state.window = next.window;
    state.stale = stale;
    state.known = known;
    state.headers = headers;
    state.selected = selected;
    state.version = result.version;
    if (result.search) state.search = result.search;
    return state;
  }

  /**
   * The window of `source`: `{total, start, count, rows}` (rows as on the wire,
   * content filled in under `echo: "ids"`), or null without a viewport.
   */
  window(source) { return this.state(source).window; }

  /** True while the sections model is not followed (a viewport was set): `reset` it from `snapshot`. */
  stale(source) { return this.state(source).stale; }

  /** Replaces the model of `source` with a `snapshot` result (a fresh start or a resync). */
  reset(snapshotResult) {
    const state = this.state(snapshotResult.source);
    state.sections = snapshotResult.sections.map(copySection);
    state.selected = new Set(snapshotResult.selected ?? []);
    state.version = snapshotResult.version;
    state.stale = false;
    return state;
  }

  forget(source) { this.sources.delete(source); }

  version(source) { return this.state(source).version; }

  selected(source) { return new Set(this.state(source).selected); }

  /** The visible sections `[{id, header?, items: [{id, content?}]}]`. */
  sections(source) { return this.state(source).sections; }

  /**
   * Flat rows: a header row per section, then its items, with paths and selection marks. In an
   * outline (protocol/methods/outline.md) item rows also carry `level` (0 at the top), `parent`
   * (absent at the top), `hasChildren` and `expanded`, as the daemon sent them.
   */
  rows(source) {
    const { sections, selected } = this.state(source);
    const rows = [];
    sections.forEach((section, s) => {
      rows.push({ kind: 'header', section: section.id, index: s, header: section.header ?? null });
      section.items.forEach((item, r) => {
        const row = { kind: 'item', section: section.id, path: [s, r], id: item.id, content: item.content, selected: selected.has(item.id) };
        if (item.level !== undefined) {
          row.level = item.level;
          if (item.parent !== undefined) row.parent = item.parent;
          row.hasChildren = Boolean(item.hasChildren);
          row.expanded = Boolean(item.expanded);
        }
        rows.push(row);
      });
    });
    return rows;
  }

  /**
   * A plain-text rendering: `[section] header` lines and `  * id: content` item lines; outline rows
   * are indented two spaces per level, with `▾ ` (expanded) or `▸ ` (collapsed) before items that have children.
   */
  lines(source) {
    return this.rows(source).map((row) => {
      if (row.kind === 'header') return `[${row.section}] ${JSON.stringify(row.header)}`;
      const outline = row.level === undefined ? '' : '  '.repeat(row.level) + (row.hasChildren ? (row.expanded ? '▾ ' : '▸ ') : '');
      return `  ${row.selected ? '*' : ' '} ${outline}${row.id}: ${row.content === undefined ? 'null' : JSON.stringify(row.content)}`;
    });
  }
}

/** The selected ids after a `selection` delta, checked against `rows` when present (and the sections are followed). */
function applySelection(sections, previous, delta) {
  const selected = new Set(previous);
  for (const change of delta.deselected ?? []) selected.delete(change.id);
  for (const change of [...(delta.selected ?? []), ...(delta.kept ?? [])]) selected.add(change.id);
  if (delta.rows && sections) {
    // every selected visible row, in visible order: it must match the model
    const expected = [];
    sections.forEach((section, s) => section.items.forEach((item, r) => {
      if (selected.has(item.id)) expected.push(`${item.id}@${s},${r}`);
    }));
    const got = delta.rows.map((row) => `${row.id}@${row.path}`);
    check(JSON.stringify(got) === JSON.stringify(expected),
      `selection.rows [${got}] ≠ the model's selected visible rows [${expected}]`);
  }
  return selected;
}
