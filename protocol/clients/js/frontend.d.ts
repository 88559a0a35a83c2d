// Types of the wire data (protocol/README.md) and of the Frontend model. The wire shapes are
// generated from protocol/schemas into types.d.ts (protocol/tools/generate-contract); this file
// re-exports them and declares what only the model has.

import type { DiffForm, SelectionModeName } from './contract.js';
import type {
  Batch, DiffResult, Highlight, Item, ItemInput, Json, JsonPatch, Path, SearchInfo, Section, SnapshotResult,
  SnapshotSection, Step, TreeItem, WindowRow, WindowUpdate,
} from './types.js';

export type {
  Batch, DiffResult, FieldHighlight, Highlight, Item, ItemInput, ItemRun, Json, JsonPatch, OutlineResult, PatchOp,
  PatchRun, Path, Range, RedrawRun, SearchInfo, Section, SectionInput, SelectedRow, SelectionChange, SelectionDelta,
  SnapshotResult, SnapshotSection, Step, TreeItem, WindowRow, WindowStep, WindowUpdate,
} from './types.js';
/** The value sets of protocol/schemas (contract.d.ts is generated from them). */
export type { DiffForm };
export type SelectionMode = SelectionModeName;

/**
 * A row the frontend holds, as reloads, reconfigures, moves and window updates may carry it under
 * `updates: "patch"`: `patch` (RFC 6902, from the content held) in place of `content`. `Frontend`
 * applies it; models keep `Item`s.
 */
export interface PatchedItem extends Omit<Item, 'content' | 'patch'> { patch: JsonPatch }

/** A `snapshot` result whose sections hold items of type `I`. */
export type SnapshotOf<I> = Omit<SnapshotResult, 'sections'> & { sections: (Omit<SnapshotSection, 'items'> & { items: I[] })[] };
/** `snapshot` without `full`: every section's visible rows (in an outline, each with its place in the tree). */
export type VisibleSnapshotResult = SnapshotOf<Item>;
/** `snapshot {full: true}`: every item, nested (outlines: `children`, `expanded`). */
export type FullSnapshotResult = SnapshotOf<TreeItem>;

/** The window as the Frontend holds it: `min(count, total - start)` rows from flat row `start`. */
export interface Window { total: number; start: number; count: number; rows: WindowRow[] }

/**
 * What `Frontend.update` replays: the answer of `apply`, `edit`, `search`, `select`,
 * `setSelectionMode`, `viewport`, `expand` or `collapse` (each of their generated `…Result` types
 * is one); `search` and `highlights` come with a search's answer only.
 */
export interface ChangeResult extends DiffResult {
  search?: SearchInfo;
  highlights?: Highlight[];
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
