// What a UI shows, replayed from the daemon's diffs alone (protocol/README.md
// "Diff payloads"). Browser-safe: no Node imports.
import { ReplayError } from './errors.js';

function check(condition, message) {
  if (!condition) throw new ReplayError(message);
}

const isIndex = (value) => Number.isInteger(value) && value >= 0;

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
    arrive(move.to[0], move.to[1], move.item ?? old[fs].items[fr], 'row move');
  }
  const changed = new Map();
  for (const kind of ['reload', 'reconfigure']) {
    for (const run of itemOps[kind] ?? []) {
      run.items.forEach((item, k) => {
        const r = run.at + k;
        oldRowInRange(run.section, r, kind);
        check(!leaving.has(key(run.section, r)), `row [${run.section}, ${r}] is ${leaving.get(key(run.section, r))} and ${kind === 'reload' ? 'reloaded' : 'reconfigured'}`);
        check(!changed.has(key(run.section, r)), `row [${run.section}, ${r}] reloaded/reconfigured twice`);
        check(item.id === old[run.section].items[r].id, `${kind} of [${run.section}, ${r}] names ${item.id}, the row is ${old[run.section].items[r].id}`);
        changed.set(key(run.section, r), item);
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
      target.splice(step.to[1], 0, step.item ?? item);
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
      check(isIndex(step.at) && step.at + step.items.length <= items.length, `${JSON.stringify(step)} out of range`);
      step.items.forEach((item, k) => {
        check(items[step.at + k].id === item.id, `${step.op} at [${step.section}, ${step.at + k}] names ${item.id}, the row is ${items[step.at + k].id}`);
        items[step.at + k] = item;
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

/**
 * The diff forms a result may carry, by result key: (old sections, payload) →
 * new sections. A new form (e.g. a viewport "window") is one more entry.
 */
export const diffForms = { batch: replayBatch, steps: replaySteps };

export class Frontend {
  constructor() {
    /** @type {Map<string, {version: number, sections: any[], selected: Set<string>, search?: any}>} */
    this.sources = new Map();
  }

  state(source) {
    if (!this.sources.has(source)) this.sources.set(source, { version: 0, sections: [], selected: new Set() });
    return this.sources.get(source);
  }

  /**
   * Replays a change result (apply, edit, select, setSelectionMode, search):
   * its diff, whatever the form, then its selection delta. All-or-nothing: on
   * ReplayError the model is left as it was.
   */
  update(result) {
    const state = this.state(result.source);
    let sections = state.sections;
    for (const [form, replay] of Object.entries(diffForms)) {
      if (form in result) sections = replay(sections, result[form]);
    }
    const selected = result.selection ? applySelection(sections, state.selected, result.selection) : state.selected;
    state.sections = sections;
    state.selected = selected;
    state.version = result.version;
    if (result.search) state.search = result.search;
    return state;
  }

  /** Replaces the model of `source` with a `snapshot` result (a fresh start or a resync). */
  reset(snapshotResult) {
    const state = this.state(snapshotResult.source);
    state.sections = snapshotResult.sections.map(copySection);
    state.selected = new Set(snapshotResult.selected ?? []);
    state.version = snapshotResult.version;
    return state;
  }

  forget(source) { this.sources.delete(source); }

  version(source) { return this.state(source).version; }

  selected(source) { return new Set(this.state(source).selected); }

  /** The visible sections `[{id, header?, items: [{id, content?}]}]`. */
  sections(source) { return this.state(source).sections; }

  /** Flat rows: a header row per section, then its items, with paths and selection marks. */
  rows(source) {
    const { sections, selected } = this.state(source);
    const rows = [];
    sections.forEach((section, s) => {
      rows.push({ kind: 'header', section: section.id, index: s, header: section.header ?? null });
      section.items.forEach((item, r) => {
        rows.push({ kind: 'item', section: section.id, path: [s, r], id: item.id, content: item.content, selected: selected.has(item.id) });
      });
    });
    return rows;
  }

  /** A plain-text rendering: `[section] header` lines and `  * id: content` item lines. */
  lines(source) {
    return this.rows(source).map((row) =>
      row.kind === 'header'
        ? `[${row.section}] ${JSON.stringify(row.header)}`
        : `  ${row.selected ? '*' : ' '} ${row.id}: ${row.content === undefined ? 'null' : JSON.stringify(row.content)}`);
  }
}

/** The selected ids after a `selection` delta, checked against `rows` when present. */
function applySelection(sections, previous, delta) {
  const selected = new Set(previous);
  for (const change of delta.deselected ?? []) selected.delete(change.id);
  for (const change of [...(delta.selected ?? []), ...(delta.kept ?? [])]) selected.add(change.id);
  if (delta.rows) {
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
