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
