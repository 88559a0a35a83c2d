// Applies a `steps` diff to keyed DOM nodes. Browser-safe (uses only
// createElement, children, insertBefore, removeChild, replaceChild and
// data-* attributes), so it runs against a real document or a small fake.
//
// Layout it maintains:
//   container
//     <section data-id="SECTION ID">         renderSection(section) or a <section>
//       [<… data-header>]                     renderHeader(section), when given and non-null
//       <… data-id="ITEM ID">                 render(item, section), one per row
//
// Unchanged rows are never touched; moved rows are the same nodes moved;
// reloaded rows are re-rendered; reconfigured rows go to `update` when given.

function ownerDocument(container) {
  return container.ownerDocument ?? globalThis.document;
}

function hasHeader(sectionElement) {
  const first = sectionElement.children[0];
  return Boolean(first && first.hasAttribute('data-header'));
}

function rowElement(sectionElement, row) {
  const element = sectionElement.children[row + (hasHeader(sectionElement) ? 1 : 0)];
  if (!element) throw new RangeError(`no row ${row} in section ${sectionElement.getAttribute('data-id')}`);
  return element;
}

function sectionElementAt(container, index) {
  const element = container.children[index];
  if (!element) throw new RangeError(`no section ${index}`);
  return element;
}

function sectionInfo(sectionElement, index) {
  return { id: sectionElement.getAttribute('data-id'), index };
}

function renderRow(options, item, section) {
  const element = options.render(item, section);
  element.setAttribute('data-id', item.id);
  return element;
}

function renderHeaderInto(options, sectionElement, section) {
  if (hasHeader(sectionElement)) sectionElement.removeChild(sectionElement.children[0]);
  const header = options.renderHeader?.(section);
  if (header) {
    header.setAttribute('data-header', '');
    sectionElement.insertBefore(header, sectionElement.children[0] ?? null);
  }
}

function buildSection(container, options, section, index) {
  const element = options.renderSection?.(section) ?? ownerDocument(container).createElement('section');
  element.setAttribute('data-id', section.id);
  renderHeaderInto(options, element, section);
  const info = { id: section.id, index };
  for (const raw of section.items ?? []) {
    const item = typeof raw === 'string' ? { id: raw } : raw;
    element.insertBefore(renderRow(options, item, info), null);
  }
  return element;
}

/** Checks that the node at a row is the item the diff names (catches a model/DOM mismatch). */
function expectRow(element, item, where) {
  const id = element.getAttribute('data-id');
  if (id !== item.id) throw new Error(`${where}: the row is ${id}, the diff names ${item.id}`);
}

/** Replaces rows `at…` with re-rendered ones (a reload: the cell is replaced). */
function reloadRows(sectionElement, options, step, info) {
  step.items.forEach((item, k) => {
    const old = rowElement(sectionElement, step.at + k);
    expectRow(old, item, `reloadItems [${step.section}, ${step.at + k}]`);
    sectionElement.replaceChild(renderRow(options, item, info), old);
  });
}

/**
 * Applies `steps` (a `steps` diff of the daemon) to `container`.
 * @param {Element} container  the element whose children are the section elements
 * @param {Array<object>} steps
 * @param {{render: (item, section) => Element, update?: (element, item, section) => void,
 *          renderSection?: (section) => Element, renderHeader?: (section) => Element | null}} options
 */
export function applySteps(container, steps, options) {
  if (typeof options?.render !== 'function') throw new TypeError('applySteps needs options.render(item, section)');
  for (const step of steps) {
    switch (step.op) {
      case 'deleteItems': {
        const sectionElement = sectionElementAt(container, step.section);
        for (let k = step.count - 1; k >= 0; k--) sectionElement.removeChild(rowElement(sectionElement, step.at + k));
        break;
      }
      case 'deleteSections':
        for (let k = step.count - 1; k >= 0; k--) container.removeChild(sectionElementAt(container, step.at + k));
        break;
      case 'moveSection': {
        const element = container.removeChild(sectionElementAt(container, step.from));
        container.insertBefore(element, container.children[step.to] ?? null);
        break;
      }
      case 'insertSections': {
        const before = container.children[step.at] ?? null;
        step.sections.forEach((section, k) => container.insertBefore(buildSection(container, options, section, step.at + k), before));
        break;
      }
      case 'reloadSection': {
        const element = sectionElementAt(container, step.at);
        const section = { id: element.getAttribute('data-id'), index: step.at };
        if (step.header !== undefined && step.header !== null) section.header = step.header;
        renderHeaderInto(options, element, section);
        break;
      }
      case 'moveItem': {
        const from = sectionElementAt(container, step.from[0]);
        let element = from.removeChild(rowElement(from, step.from[1]));
        const to = sectionElementAt(container, step.to[0]);
        // content changed too: that is a reload, so the moved row is redrawn
        if (step.item) element = renderRow(options, step.item, sectionInfo(to, step.to[0]));
        const offset = hasHeader(to) ? 1 : 0;
        to.insertBefore(element, to.children[step.to[1] + offset] ?? null);
        break;
      }
      case 'insertItems': {
        const sectionElement = sectionElementAt(container, step.section);
        const before = sectionElement.children[step.at + (hasHeader(sectionElement) ? 1 : 0)] ?? null;
        const info = sectionInfo(sectionElement, step.section);
        for (const item of step.items) sectionElement.insertBefore(renderRow(options, item, info), before);
        break;
      }
      case 'reloadItems': {
        const sectionElement = sectionElementAt(container, step.section);
        reloadRows(sectionElement, options, step, sectionInfo(sectionElement, step.section));
        break;
      }
      case 'reconfigureItems': {
        const sectionElement = sectionElementAt(container, step.section);
        const info = sectionInfo(sectionElement, step.section);
        if (!options.update) {
          reloadRows(sectionElement, options, step, info);
          break;
        }
        step.items.forEach((item, k) => {
          const element = rowElement(sectionElement, step.at + k);
          expectRow(element, item, `reconfigureItems [${step.section}, ${step.at + k}]`);
          options.update(element, item, info);
        });
        break;
      }
      default:
        throw new Error(`unknown step ${JSON.stringify(step.op)}`);
    }
  }
}

/** Renders a whole snapshot (e.g. a `snapshot` result's sections) into an empty `container`. */
export function renderSnapshot(container, sections, options) {
  while (container.children.length) container.removeChild(container.children[container.children.length - 1]);
  applySteps(container, [{ op: 'insertSections', at: 0, sections }], options);
}

// ---- the window form (protocol/methods/viewport.md) --------------------------
//
// Layout: container
//           <… data-id="ROW ID" [data-header]>    render(row), one per window row, in order
//
// Header rows (`row.header`) carry `data-header` as well (a section id may equal an item id).

function windowChild(container, index, where) {
  const element = container.children[index];
  if (!element) throw new RangeError(`${where}: no window row ${index} (${container.children.length} held)`);
  return element;
}

/** Under `echo: "ids"` a row the client sent has no content: `options.known` (id → content) supplies it. */
function filledRow(options, row) {
  if ('content' in row) return row;
  const content = row.header ? options.headers?.get(row.id) : options.known?.get(row.id);
  return content === undefined ? row : { ...row, content };
}

function renderWindowRow(options, row) {
  const element = options.render(row);
  element.setAttribute('data-id', row.id);
  if (row.header) element.setAttribute('data-header', '');
  return element;
}

/**
 * Applies a window answer's steps (`{total, start, count, steps}`, sequential,
 * indices relative to the window) to `container`, whose children are the window's
 * rows keyed by `data-id`. `delete` removes nodes, `insert` renders new ones,
 * `move` moves the existing node, `update` calls `update(element, row)` in place
 * (without it the row is re-rendered). Unchanged rows are never touched.
 * Throws on a step that does not fit the container, or when the container does
 * not end with `min(count, total - start)` rows. Returns the container.
 * @param {Element} container
 * @param {{total: number, start: number, count: number, steps: Array<object>}} windowUpdate
 * @param {{render: (row) => Element, update?: (element, row) => void, known?: Map<string, any>, headers?: Map<string, any>}} options
 *   `known`: id → content for rows sent without it under `echo: "ids"` (e.g. `frontend.state(source).known`);
 *   `headers`: section id → header, likewise for header rows (`frontend.state(source).headers`)
 */
export function applyWindowSteps(container, windowUpdate, options) {
  if (typeof options?.render !== 'function') throw new TypeError('applyWindowSteps needs options.render(row)');
  for (const step of windowUpdate.steps) {
    const where = `window ${step.op}`;
    switch (step.op) {
      case 'delete': {
        if (!(step.count > 0)) throw new RangeError(`${where}: count ${step.count}`);
        windowChild(container, step.at + step.count - 1, where);
        for (let k = step.count - 1; k >= 0; k--) container.removeChild(windowChild(container, step.at + k, where));
        break;
      }
      case 'insert': {
        if (!(step.at >= 0 && step.at <= container.children.length)) throw new RangeError(`${where}: at ${step.at} past ${container.children.length} rows`);
        const before = container.children[step.at] ?? null;
        for (const row of step.rows) container.insertBefore(renderWindowRow(options, filledRow(options, row)), before);
        break;
      }
      case 'move': {
        const element = windowChild(container, step.from, where);
        windowChild(container, step.to, where);
        container.removeChild(element);
        container.insertBefore(element, container.children[step.to] ?? null);
        break;
      }
      case 'update': {
        windowChild(container, step.at + step.rows.length - 1, where);
        step.rows.forEach((wireRow, k) => {
          const row = filledRow(options, wireRow);
          const element = windowChild(container, step.at + k, where);
          expectRow(element, row, `${where} at ${step.at + k}`);
          if (options.update) options.update(element, row);
          else container.replaceChild(renderWindowRow(options, row), element);
        });
        break;
      }
      default:
        throw new Error(`unknown window step ${JSON.stringify(step.op)}`);
    }
  }
  const expected = Math.min(windowUpdate.count, Math.max(0, windowUpdate.total - windowUpdate.start));
  if (container.children.length !== expected) {
    throw new RangeError(`the window container holds ${container.children.length} rows; total ${windowUpdate.total}, start ${windowUpdate.start}, count ${windowUpdate.count} make ${expected}`);
  }
  return container;
}

/** Empties `container` (e.g. when the viewport was removed, or to redraw from `frontend.window(source).rows`). */
export function clearWindow(container) {
  while (container.children.length) container.removeChild(container.children[container.children.length - 1]);
}
