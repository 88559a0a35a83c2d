// The page: diffs arrive over Server-Sent Events and are replayed into keyed DOM nodes
// (dom.js applySteps: unchanged rows are never touched, moved rows are the same nodes);
// user actions go out as POST /action. Animations: FLIP for rows that moved, a fade for
// inserted rows, a fading ghost for removed ones.
import { applySteps } from '/lib/dom.js';
import { Frontend } from '/lib/frontend.js';
import { createBigList, paintMarks } from '/big.js';

const session = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).replace(/[^A-Za-z0-9-]/g, '');
const frontend = new Frontend();
const state = { query: '', highlights: new Map(), cursorId: null, queue: [], inflight: false, postedSeq: 0, seenSeq: 0 };
const hooks = { session, ready: false, events: 0, animations: 0, failures: [],
  idle: () => !state.inflight && state.queue.length === 0 && state.seenSeq >= state.postedSeq };
window.__diffable = hooks;

const $ = (id) => document.getElementById(id);
const text = (content) => (typeof content === 'string' ? content : content?.text ?? '');

// ---------------------------------------------------------------- actions (POST, in order)

function post(body) {
  const last = state.queue[state.queue.length - 1];
  // typing or scrolling fast: one request for the latest value
  if (['search', 'big-search', 'big-viewport'].includes(body.action) && last?.action === body.action) Object.assign(last, body);
  else state.queue.push(body);
  pump();
}

async function pump() {
  if (state.inflight || state.queue.length === 0) return;
  state.inflight = true;
  const body = state.queue.shift();
  try {
    const response = await fetch('/action', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session, ...body }) });
    const answer = await response.json();
    if (answer.seq) state.postedSeq = Math.max(state.postedSeq, answer.seq);
    if (answer.error) fail(answer.error);
  } catch (error) {
    fail(String(error));
  } finally {
    state.inflight = false;
    pump();
  }
}

function fail(message) {
  hooks.failures.push(message);
  $('connection').textContent = `error: ${message}`;
}

// ---------------------------------------------------------------- rendering

function row(item, classes) {
  const element = document.createElement('div');
  element.className = `row ${classes}`;
  return element;
}

const sectionOptions = {
  renderSection: () => document.createElement('section'),
  renderHeader: (section) => {
    if (section.header === undefined || section.header === null) return null;
    const h3 = document.createElement('h3');
    h3.textContent = typeof section.header === 'string' ? section.header : text(section.header);
    return h3;
  },
};

const people = {
  source: `people:${session}`,
  container: $('people'),
  options: {
    ...sectionOptions,
    render(item) {
      if (item.id === 'search-bar') {
        const element = row(item, 'searchbar');
        const input = document.createElement('input');
        input.type = 'search';
        input.placeholder = 'Search people';
        input.autocomplete = 'off';
        input.id = 'search';
        input.addEventListener('input', () => { state.query = input.value; post({ action: 'search', query: input.value }); });
        input.addEventListener('keydown', onSearchKey);
        element.append(input);
        return element;
      }
      if (item.id === 'no-results') {
        const element = row(item, 'placeholder');
        element.textContent = text(item.content);
        return element;
      }
      const element = row(item, 'person');
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = text(item.content);
      const action = document.createElement('span');
      action.className = 'action';
      element.append(name, action);
      element.addEventListener('click', () => move(item.id));
      return element;
    },
  },
};

const settings = {
  source: `settings:${session}`,
  container: $('settings'),
  options: {
    ...sectionOptions,
    render(item) {
      const element = row(item, 'option');
      const mark = document.createElement('span');
      mark.className = 'mark';
      const label = document.createElement('span');
      label.textContent = text(item.content);
      element.append(mark, label);
      element.addEventListener('click', () => post({ action: 'toggle', id: item.id }));
      return element;
    },
  },
};
const screens = { people, settings };

/** Person rows: "Add" in the list, "Remove" in Added; the highlight marks in the list only. */
function decoratePeople() {
  for (const section of people.container.children) {
    const inList = section.getAttribute('data-id') === 'list';
    for (const element of section.querySelectorAll(':scope > .person')) {
      const id = element.getAttribute('data-id');
      element.classList.toggle('added', !inList);
      const label = inList ? 'Add' : 'Remove';
      const action = element.querySelector('.action');
      if (action.textContent !== label) action.textContent = label;
      const ranges = inList && state.query ? state.highlights.get(id) ?? [] : [];
      const key = JSON.stringify(ranges);
      if (element.dataset.marks !== key) {
        element.dataset.marks = key;
        const name = element.querySelector('.name');
        paintMarks(name, name.textContent, ranges);
      }
      element.classList.toggle('cursor', id === state.cursorId);
    }
  }
}

function decorateSettings(kept) {
  const selected = frontend.selected(settings.source);
  for (const element of settings.container.querySelectorAll('.option')) {
    const id = element.getAttribute('data-id');
    element.classList.toggle('selected', selected.has(id));
    if (kept.includes(id)) {
      element.classList.remove('kept');
      void element.offsetWidth; // restart the shake
      element.classList.add('kept');
    }
  }
}

// ---------------------------------------------------------------- animations (FLIP)

function measure(container) {
  const rects = new Map();
  for (const element of container.querySelectorAll('[data-id]')) rects.set(element, element.getBoundingClientRect());
  return rects;
}

function animate(container, before) {
  const ghosts = container.parentElement.querySelector('.ghosts');
  const origin = container.parentElement.getBoundingClientRect();
  for (const [element, rect] of before) {
    if (!element.isConnected) {
      if (before.has(element.parentElement) && !element.parentElement.isConnected) continue; // its section is the ghost
      element.classList.add('ghost');
      Object.assign(element.style, { top: `${rect.top - origin.top}px`, left: `${rect.left - origin.left}px`, width: `${rect.width}px` });
      ghosts.append(element);
      hooks.animations++;
      element.animate([{ opacity: 1 }, { opacity: 0, transform: 'scale(.97)' }], { duration: 180, easing: 'ease-in' })
        .finished.then(() => element.remove(), () => element.remove());
      continue;
    }
    const now = element.getBoundingClientRect();
    const dy = rect.top - now.top;
    if (Math.abs(dy) > 0.5) {
      hooks.animations++;
      element.animate([{ transform: `translateY(${dy}px)` }, { transform: 'none' }], { duration: 220, easing: 'ease-out' });
    }
  }
  for (const element of container.querySelectorAll('[data-id]')) {
    if (before.has(element)) continue;
    const parent = element.parentElement;
    if (parent !== container && !before.has(parent)) continue; // inside a new section: it fades in with it
    hooks.animations++;
    element.animate([{ opacity: 0, transform: 'translateY(-6px)' }, { opacity: 1, transform: 'none' }], { duration: 200, easing: 'ease-out' });
  }
}

// ---------------------------------------------------------------- diffs (SSE)

function summary(result, ms) {
  let d = 0, i = 0, m = 0, r = 0;
  for (const step of result.steps ?? []) {
    if (step.op === 'deleteItems') d += step.count;
    else if (step.op === 'insertItems') i += step.items.length;
    else if (step.op === 'insertSections') i += step.sections.reduce((n, s) => n + (s.items?.length ?? 0), 0);
    else if (step.op === 'moveItem' || step.op === 'moveSection') m += 1;
    else if (step.op === 'reloadItems' || step.op === 'reconfigureItems') r += step.items.length;
    else if (step.op === 'reloadSection' || step.op === 'deleteSections') r += 0;
  }
  let line = `−${d} +${i} ↕${m} ⟳${r} in ${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms`;
  if (result.search) line += ` · “${result.search.query}”: ${result.search.matches} ${result.search.matches === 1 ? "match" : "matches"}`;
  const sel = result.selection ?? {};
  for (const [key, mark] of [['selected', '+'], ['deselected', '−'], ['kept', '=']]) {
    if (sel[key]?.length) line += ` · sel ${mark}${sel[key].map((c) => c.id).join(',')}`;
  }
  return line;
}

function onDiff({ screen, label, ms, result, seq }) {
  hooks.events++;
  const target = screens[screen];
  if (screen === 'big') {
    try { big.onDiff({ ms, result }); } catch (error) { fail(`big list: ${error.message}`); }
  } else if (label === 'highlights') {
    for (const h of result.highlights) state.highlights.set(h.id, h.ranges);
    decoratePeople();
  } else {
    const before = measure(target.container);
    frontend.update(result); // the model (checks the diff); the DOM follows the same steps
    if (result.steps) applySteps(target.container, result.steps, target.options);
    if (result.search) state.highlights = new Map((result.highlights ?? []).map((h) => [h.id, h.ranges]));
    const kept = (result.selection?.kept ?? []).map((k) => k.id);
    if (screen === 'people') {
      placeCursor();
      decoratePeople();
    } else {
      decorateSettings(kept);
    }
    animate(target.container, before);
    const status = $(`${screen}-status`);
    status.textContent = summary(result, ms) + (kept.length ? ` · “${kept[0]}” stays selected: a number must be picked` : '');
    status.classList.toggle('kept', kept.length > 0);
  }
  state.seenSeq = Math.max(state.seenSeq, seq);
}

// ---------------------------------------------------------------- keyboard (people picker)

function personRows() {
  return [...people.container.querySelectorAll('.person')];
}

function placeCursor() {
  if (state.cursorId && !people.container.querySelector(`.person[data-id="${CSS.escape(state.cursorId)}"]`)) state.cursorId = null;
}

function onSearchKey(event) {
  const rows = personRows();
  const index = rows.findIndex((r) => r.getAttribute('data-id') === state.cursorId);
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    if (!rows.length) return;
    let next;
    if (index < 0) next = event.key === 'ArrowDown' ? Math.max(0, rows.findIndex((r) => r.parentElement.getAttribute('data-id') === 'list')) : rows.length - 1;
    else next = Math.min(Math.max(index + (event.key === 'ArrowDown' ? 1 : -1), 0), rows.length - 1);
    state.cursorId = rows[next].getAttribute('data-id');
    decoratePeople();
    rows[next].scrollIntoView({ block: 'nearest' });
  } else if (event.key === 'Enter') {
    event.preventDefault();
    if (index >= 0) move(state.cursorId);
  } else if (event.key === 'Escape') {
    state.cursorId = null;
    decoratePeople();
  }
}

function move(id) {
  // the cursor stays in the section it was in: on the next row, else the previous one
  const element = people.container.querySelector(`.person[data-id="${CSS.escape(id)}"]`);
  if (element && id === state.cursorId) {
    const sibling = element.nextElementSibling?.classList.contains('person') ? element.nextElementSibling
      : element.previousElementSibling?.classList.contains('person') ? element.previousElementSibling : null;
    state.cursorId = sibling ? sibling.getAttribute('data-id') : null;
  }
  post({ action: 'move', id });
}

// ---------------------------------------------------------------- connection

const big = createBigList({ session, frontend, post, hooks });

const events = new EventSource(`/events?session=${encodeURIComponent(session)}`);
events.addEventListener('diff', (event) => onDiff(JSON.parse(event.data)));
events.addEventListener('failure', (event) => fail(JSON.parse(event.data).message));
events.addEventListener('ready', (event) => {
  state.seenSeq = Math.max(state.seenSeq, JSON.parse(event.data).seq ?? 0);
  hooks.ready = true;
  big.open();
  $('connection').textContent = `connected · session ${session.slice(0, 8)} · Server-Sent Events + POST`;
  $('search')?.focus();
});
events.addEventListener('error', () => { if (!hooks.ready) $('connection').textContent = 'connecting…'; });
