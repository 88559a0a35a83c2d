// Types of the wire data (protocol/README.md) and of the Frontend model.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = [section: number, row: number];
export type Range = [start: number, count: number];
import type { DiffForm, SelectionModeName } from './contract.js';
/** The value sets of protocol/schemas (contract.d.ts is generated from them). */
export type { DiffForm };
export type SelectionMode = SelectionModeName;

/**
 * A row as diffs and `snapshot` carry it. In a source with nested items (protocol/methods/outline.md)
 * every row also has `level` (0 at the top), `parent` (absent at the top), `hasChildren` and `expanded`
 * (each absent when false).
 */
export interface Item { id: string; content?: Json; level?: number; parent?: string; hasChildren?: true; expanded?: true }
/**
 * A row the frontend holds, as reloads, reconfigures, moves and window updates may carry it under
 * `updates: "patch"`: `patch` (RFC 6902, from the content held) in place of `content`. `Frontend`
 * applies it; models keep `Item`s.
 */
export interface PatchedItem extends Omit<Item, 'content'> { patch: JsonPatch }
/** An RFC 6902 patch. */
export type JsonPatch = { op: string; path: string; from?: string; value?: Json }[];
/**
 * Under `updates: "patch"`, in a flat source: the reloaded (or reconfigured) rows of a section that come
 * as patches, in one run: `patches[k]` patches the content of row `rows[k]`, which keeps its item.
 */
export interface PatchRun { section: number; rows: number[]; patches: JsonPatch[] }
/** An item as `apply`/`edit` take it: its id alone, or with content and (outlines) nested `children`. */
export type ItemInput = string | { id: string; content?: Json; children?: ItemInput[]; expanded?: boolean };
/** An item of `snapshot {full: true}` of an outline: the tree, nested as `apply` takes it. */
export interface TreeItem { id: string; content?: Json; children?: (TreeItem | string)[]; expanded?: boolean }
export interface Section { id: string; header?: Json; items: Item[] }
export interface SectionInput {
  id: string;
  header?: Json;
  items?: ItemInput[];
  selection?: SelectionMode;
  allowsEmptySelection?: boolean;
}

export interface Batch {
  sections?: {
    delete?: Range[];
    insert?: { at: number; sections: Section[] }[];
    move?: { from: number; to: number; header?: Json }[];
    reload?: { at: number; header: Json }[];
  };
  items?: {
    delete?: { section: number; ranges: Range[] }[];
    insert?: { section: number; at: number; items: Item[] }[];
    move?: { from: Path; to: Path; item?: Item | PatchedItem }[];
    reload?: ({ section: number; at: number; items: (Item | PatchedItem)[] } | PatchRun)[];
    reconfigure?: ({ section: number; at: number; items: (Item | PatchedItem)[] } | PatchRun)[];
  };
}

export type Step =
  | { op: 'deleteItems'; section: number; at: number; count: number }
  | { op: 'deleteSections'; at: number; count: number }
  | { op: 'moveSection'; from: number; to: number }
  | { op: 'insertSections'; at: number; sections: Section[] }
  | { op: 'reloadSection'; at: number; header?: Json }
  | { op: 'moveItem'; from: Path; to: Path; item?: Item | PatchedItem }
  | { op: 'insertItems'; section: number; at: number; items: Item[] }
  | { op: 'reloadItems'; section: number; at: number; items: (Item | PatchedItem)[] }
  | { op: 'reconfigureItems'; section: number; at: number; items: (Item | PatchedItem)[] }
  | ({ op: 'reloadItems' | 'reconfigureItems' } & PatchRun);

export interface SelectionChange { id: string; path: Path | null }
export interface SelectionDelta {
  selected?: SelectionChange[];
  deselected?: SelectionChange[];
  kept?: SelectionChange[];
  rows?: { id: string; path: Path }[];
}
/** The ranges of one field of a search with `fields` (protocol/methods/search.md, Fields), in scalars of that field's text. */
export interface FieldHighlight { field: string; ranges: Range[] }
/** A row's matched ranges: `ranges` in its text, or for a search with `fields`, `fields` instead. */
export interface Highlight { id: string; path: Path; ranges?: Range[]; fields?: FieldHighlight[] }

/** A row of the flat list (protocol/methods/viewport.md): an item, or a section's header row (`header: true`, `id` = the section's id). */
export interface WindowRow {
  id: string;
  section: string;
  header?: true;
  /** Absent when the item has none, or under `echo: "ids"` for rows the client just sent (the Frontend fills those in). */
  content?: Json;
  /** Under `updates: "patch"`, in `update` steps: an RFC 6902 patch of the content held, in place of `content` (the Frontend applies it). */
  patch?: { op: string; path: string; from?: string; value?: Json }[];
  selected?: true;
  highlights?: Range[];
  /** For a search with `fields`, in place of `highlights`. */
  fieldHighlights?: FieldHighlight[];
}

/** Sequential steps over the window's rows, indices relative to the window. */
export type WindowStep =
  | { op: 'delete'; at: number; count: number }
  | { op: 'insert'; at: number; rows: WindowRow[] }
  | { op: 'move'; from: number; to: number }
  | { op: 'update'; at: number; rows: WindowRow[] };

/** The window form of a change answer, while the source has a viewport. */
export interface WindowUpdate { total: number; start: number; count: number; steps: WindowStep[] }

/** The window as the Frontend holds it: `min(count, total - start)` rows from flat row `start`. */
export interface Window { total: number; start: number; count: number; rows: WindowRow[] }

/** What `apply`, `edit`, `search`, `select`, `setSelectionMode` and `viewport` answer. */
export interface ChangeResult {
  source: string;
  version: number;
  batch?: Batch;
  steps?: Step[];
  /** In place of batch/steps while the source has a viewport; `null` when `viewport` removed it. */
  window?: WindowUpdate | null;
  selection?: SelectionDelta;
  search?: { query: string; matches: number; shown: number };
  highlights?: Highlight[];
}

export interface SnapshotResult {
  source: string;
  version: number;
  sections: (Section & { selection?: SelectionMode; allowsEmptySelection?: boolean })[];
  selected: string[];
}

/** `snapshot {full: true}`: every item, nested (outlines: `children`, `expanded`). */
export interface FullSnapshotResult {
  source: string;
  version: number;
  sections: { id: string; header?: Json; items: (TreeItem | string)[]; selection?: SelectionMode; allowsEmptySelection?: boolean }[];
  selected: string[];
}

/** `outline {source, id}`: where an item is in its tree; `path` is its visible `[section, row]` or null. */
export interface OutlineResult {
  source: string;
  version: number;
  id: string;
  parent: string | null;
  level: number;
  /** The number of children. */
  children: number;
  hasChildren: boolean;
  expanded: boolean;
  visible: boolean;
  path: Path | null;
}

export type Row =
  | { kind: 'header'; section: string; index: number; header: Json }
  | { kind: 'item'; section: string; path: Path; id: string; content?: Json; selected: boolean;
      /** Outline rows only (absent in flat sources). */
      level?: number; parent?: string; hasChildren?: boolean; expanded?: boolean };

export interface SourceState {
  version: number;
  /** Not followed while `stale` (a viewport was set): `reset` from `snapshot` after removing it. */
  sections: Section[];
  selected: Set<string>;
  search?: ChangeResult['search'];
  window: Window | null;
  stale: boolean;
  /** id → content of what the client sent (`remember`), for `echo: "ids"` answers. */
  known: Map<string, Json | undefined>;
  /** Section id → header the client sent, for header rows answered without it (see the README). */
  headers: Map<string, Json | undefined>;
}

/** What the client sent: an `apply`'s sections, an `edit`'s ops or a `search`'s placeholder. */
export type SentRequest = { sections: { items?: ItemInput[] }[] } | { ops: object[] } | { placeholder?: Item };

/** UIKit batch replay; throws ReplayError on a batch UIKit would reject. Does not mutate `old`. */
export function replayBatch(old: Section[], batch: Batch): Section[];
/** Sequential replay on a copy of `old`. */
export function replaySteps(old: Section[], steps: Step[]): Section[];
/** One step, in place. */
export function replayStep(sections: Section[], step: Step): void;
/**
 * Window steps on a copy of `old` (null: no rows held); throws ReplayError on an invalid step or a
 * row count other than `min(count, total - start)`. `known` (id → content) fills rows sent without content.
 */
export function replayWindow(old: Window | null, payload: WindowUpdate | null, known?: Map<string, Json | undefined>, headers?: Map<string, Json | undefined>): Window | null;
/** Result key → the part of the model it replays into and the replay function; a new diff form is one more entry. */
export const diffForms: Record<string, { into: 'sections' | 'window'; replay: (old: any, payload: any, known?: Map<string, Json | undefined>, headers?: Map<string, Json | undefined>) => any }>;

export class Frontend {
  sources: Map<string, SourceState>;
  state(source: string): SourceState;
  /** Replays a change result's diff (batch, steps or window) and selection delta; all-or-nothing (throws ReplayError). `sent`: see `remember`. */
  update(result: ChangeResult, options?: { sent?: SentRequest }): SourceState;
  /** Records id → content of what an apply/edit sent, so `echo: "ids"` rows get their content. */
  remember(source: string, request: SentRequest): void;
  /** The window (rows from flat row `start`, `total` rows in all), or null without a viewport. */
  window(source: string): Window | null;
  /** True once a window answer was replayed: the sections model is not followed until `reset`. */
  stale(source: string): boolean;
  /** Replaces the model with a `snapshot` result. */
  reset(snapshot: SnapshotResult): SourceState;
  forget(source: string): void;
  version(source: string): number;
  selected(source: string): Set<string>;
  sections(source: string): Section[];
  rows(source: string): Row[];
  lines(source: string): string[];
}
