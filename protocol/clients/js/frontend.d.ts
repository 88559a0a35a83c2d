// Types of the wire data (protocol/README.md) and of the Frontend model.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = [section: number, row: number];
export type Range = [start: number, count: number];
export type DiffForm = 'batch' | 'steps';
export type SelectionMode = 'none' | 'single' | 'multiple';

export interface Item { id: string; content?: Json }
/** In `apply` an item may be its id alone. */
export type ItemInput = Item | string;
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
    move?: { from: Path; to: Path; item?: Item }[];
    reload?: { section: number; at: number; items: Item[] }[];
    reconfigure?: { section: number; at: number; items: Item[] }[];
  };
}

export type Step =
  | { op: 'deleteItems'; section: number; at: number; count: number }
  | { op: 'deleteSections'; at: number; count: number }
  | { op: 'moveSection'; from: number; to: number }
  | { op: 'insertSections'; at: number; sections: Section[] }
  | { op: 'reloadSection'; at: number; header?: Json }
  | { op: 'moveItem'; from: Path; to: Path; item?: Item }
  | { op: 'insertItems'; section: number; at: number; items: Item[] }
  | { op: 'reloadItems'; section: number; at: number; items: Item[] }
  | { op: 'reconfigureItems'; section: number; at: number; items: Item[] };

export interface SelectionChange { id: string; path: Path | null }
export interface SelectionDelta {
  selected?: SelectionChange[];
  deselected?: SelectionChange[];
  kept?: SelectionChange[];
  rows?: { id: string; path: Path }[];
}
export interface Highlight { id: string; path: Path; ranges: Range[] }

/** What `apply`, `edit`, `search`, `select` and `setSelectionMode` answer. */
export interface ChangeResult {
  source: string;
  version: number;
  batch?: Batch;
  steps?: Step[];
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

export type Row =
  | { kind: 'header'; section: string; index: number; header: Json }
  | { kind: 'item'; section: string; path: Path; id: string; content?: Json; selected: boolean };

export interface SourceState {
  version: number;
  sections: Section[];
  selected: Set<string>;
  search?: ChangeResult['search'];
}

/** UIKit batch replay; throws ReplayError on a batch UIKit would reject. Does not mutate `old`. */
export function replayBatch(old: Section[], batch: Batch): Section[];
/** Sequential replay on a copy of `old`. */
export function replaySteps(old: Section[], steps: Step[]): Section[];
/** One step, in place. */
export function replayStep(sections: Section[], step: Step): void;
/** Result key → replay function; a new diff form is one more entry. */
export const diffForms: Record<string, (old: Section[], payload: any) => Section[]>;

export class Frontend {
  sources: Map<string, SourceState>;
  state(source: string): SourceState;
  /** Replays a change result's diff and selection delta; all-or-nothing (throws ReplayError). */
  update(result: ChangeResult): SourceState;
  /** Replaces the model with a `snapshot` result. */
  reset(snapshot: SnapshotResult): SourceState;
  forget(source: string): void;
  version(source: string): number;
  selected(source: string): Set<string>;
  sections(source: string): Section[];
  rows(source: string): Row[];
  lines(source: string): string[];
}
