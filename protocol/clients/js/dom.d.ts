import type { Item, Json, Section, Step } from './frontend.js';

/** Where a row is drawn: the section's id and index at the time of the call. */
export interface SectionInfo { id: string; index: number; header?: Json }

export interface DomOptions {
  /** Draws a row; the helper sets `data-id` on the result. */
  render(item: Item, section: SectionInfo): Element;
  /** Updates a row in place for `reconfigureItems` (without it the row is re-rendered). */
  update?(element: Element, item: Item, section: SectionInfo): void;
  /** The element of a section (default: a `<section>`); the helper sets `data-id`. */
  renderSection?(section: Section): Element;
  /** The header element, first child of the section element, marked `data-header`; null for none. */
  renderHeader?(section: SectionInfo | Section): Element | null;
}

/** Applies a `steps` diff to `container` (children: section elements keyed by `data-id`). */
export function applySteps(container: Element, steps: Step[], options: DomOptions): void;
/** Empties `container` and draws `sections` (e.g. a `snapshot` result's). */
export function renderSnapshot(container: Element, sections: Section[], options: DomOptions): void;

import type { WindowRow, WindowUpdate } from './frontend.js';

export interface WindowDomOptions {
  /** Draws a window row; the helper sets `data-id` (and `data-header` on header rows). */
  render(row: WindowRow): Element;
  /** Patches a row in place for `update` steps (without it the row is re-rendered). */
  update?(element: Element, row: WindowRow): void;
  /** id → content for rows answered without it under `echo: "ids"` (e.g. `frontend.state(source).known`). */
  known?: Map<string, unknown>;
  /** Section id → header, likewise for header rows (`frontend.state(source).headers`). */
  headers?: Map<string, unknown>;
}

/**
 * Applies a window answer's sequential steps to `container`, whose children are the window's rows keyed by
 * `data-id`: moved and unchanged rows keep their nodes. Throws when a step does not fit or the row count is
 * not `min(count, total - start)` afterwards.
 */
export function applyWindowSteps(container: Element, windowUpdate: WindowUpdate, options: WindowDomOptions): Element;
/** Removes every row of `container`. */
export function clearWindow(container: Element): void;
