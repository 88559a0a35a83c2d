// The big list: 100,000 people through a viewport. The page keeps only the window's rows in the
// DOM (dom.js applyWindowSteps: keyed rows, moved and unchanged rows keep their nodes), absolutely
// placed at `start × ROW_H` inside a spacer `total × ROW_H` tall, so the scrollbar is the whole
// list's. Scrolling sends `big-viewport {start, count}`; typing sends `big-search` (the server adds
// `viewport: {start: 0, count}` to the search, so a new query starts at its first match).
import { applyWindowSteps, clearWindow } from '/lib/dom.js';

export const ROW_H = 34; // px, fixed: a row's flat index is its offset / ROW_H
const OVERSCAN = 6; // rows drawn above and below the visible ones

const text = (content) => (typeof content === 'string' ? content : content?.text ?? '');

/** `<mark>`s over [start, count] ranges in Unicode scalars (Array.from splits by code point). */
export function paintMarks(span, label, ranges) {
  const chars = Array.from(label);
  span.replaceChildren();
  let at = 0;
  for (const [start, count] of ranges ?? []) {
    if (start > at) span.append(chars.slice(at, start).join(''));
    const mark = document.createElement('mark');
    mark.textContent = chars.slice(start, start + count).join('');
    span.append(mark);
    at = start + count;
  }
  if (at < chars.length) span.append(chars.slice(at).join(''));
}

export function createBigList({ session, frontend, post, hooks }) {
  const source = `big:${session}`;
  const $ = (id) => document.getElementById(id);
  const scroller = $('big-scroller');
  const spacer = $('big-spacer');
  const rows = $('big-rows');
  const input = $('big-search');
  const status = $('big-status');
  const visible = Math.ceil((scroller.clientHeight || 408) / ROW_H);
  const count = visible + 2 * OVERSCAN;
  let requested = -1; // the start last asked for
  hooks.big = { source, count, rowHeight: ROW_H, renders: 0, updates: 0, windows: 0 };

  const options = {
    render(row) {
      hooks.big.renders++;
      const element = document.createElement('div');
      element.className = row.id === 'no-results' ? 'row big-row placeholder' : 'row big-row';
      const name = document.createElement('span');
      name.className = 'name';
      element.append(name);
      options.update(element, row, true);
      return element;
    },
    update(element, row, fresh) {
      if (!fresh) hooks.big.updates++;
      paintMarks(element.querySelector('.name'), text(row.content), row.highlights);
    },
  };

  function ask(start) {
    if (start === requested) return;
    requested = start;
    post({ action: 'big-viewport', start, count });
  }

  let frame = 0;
  scroller.addEventListener('scroll', () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      ask(Math.max(0, Math.floor(scroller.scrollTop / ROW_H) - OVERSCAN));
    });
  });
  input.addEventListener('input', () => {
    requested = 0; // the search's own viewport starts at 0
    scroller.scrollTop = 0;
    post({ action: 'big-search', query: input.value });
  });

  function onDiff({ ms, result }) {
    frontend.update(result); // checks the steps against the window it holds
    const window = frontend.window(source);
    if (!result.window || !window) {
      clearWindow(rows);
      return;
    }
    applyWindowSteps(rows, result.window, options);
    hooks.big.windows++;
    spacer.style.height = `${window.total * ROW_H}px`;
    rows.style.transform = `translateY(${window.start * ROW_H}px)`;
    let d = 0, i = 0, m = 0, u = 0;
    for (const step of result.window.steps) {
      if (step.op === 'delete') d += step.count;
      else if (step.op === 'insert') i += step.rows.length;
      else if (step.op === 'move') m += 1;
      else u += step.rows.length;
    }
    const matches = result.search ? ` · “${result.search.query}”: ${result.search.matches.toLocaleString('en')} ${result.search.matches === 1 ? 'match' : 'matches'}` : '';
    status.textContent = `rows ${window.start.toLocaleString('en')}–${(window.start + window.rows.length).toLocaleString('en')} of ${window.total.toLocaleString('en')}`
      + ` · −${d} +${i} ↕${m} ⟳${u} in ${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms · ${rows.children.length} rows in the DOM${matches}`;
  }

  // opens the list (after the session is ready): the server applies it with this viewport
  return { onDiff, open: () => ask(0) };
}
