// The window form (protocol/methods/viewport.md): replayWindow, the Frontend's
// window model with echo "ids", and dom.js applyWindowSteps on a fake DOM.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { applyWindowSteps, clearWindow } from '../dom.js';
import { Frontend, ReplayError, replayWindow } from '../index.js';
import { FakeDocument } from './support/fake-dom.js';

const row = (id, content, extra = {}) => ({ id, section: 'list', ...(content === undefined ? {} : { content }), ...extra });
const ids = (window) => window.rows.map((r) => r.id);
const held = (rows, total, start = 0, count = rows.length) => ({ total, start, count, rows });

test('replayWindow: sequential delete, insert, move and update over the held rows', () => {
  const old = held([row('a', 1), row('b', 2), row('c', 3), row('d', 4)], 10, 2, 4);
  const next = replayWindow(old, { total: 10, start: 2, count: 4, steps: [
    { op: 'delete', at: 1, count: 1 }, // a c d
    { op: 'insert', at: 3, rows: [row('e', 5)] }, // a c d e
    { op: 'move', from: 0, to: 2 }, // c d a e
    { op: 'update', at: 1, rows: [row('d', 40, { selected: true, highlights: [[0, 1]] })] },
  ] });
  assert.deepEqual(ids(next), ['c', 'd', 'a', 'e']);
  assert.deepEqual(next.rows[1], row('d', 40, { selected: true, highlights: [[0, 1]] }));
  assert.deepEqual([next.total, next.start, next.count], [10, 2, 4]);
  assert.deepEqual(ids(old), ['a', 'b', 'c', 'd'], 'old is not mutated');
  assert.equal(next.rows[0], old.rows[2], 'unchanged rows are the same objects');
});

test('replayWindow: from nothing held, near the end of the list, and null (viewport removed)', () => {
  const first = replayWindow(null, { total: 3, start: 1, count: 5, steps: [{ op: 'insert', at: 0, rows: [row('b'), row('c')] }] });
  assert.deepEqual(ids(first), ['b', 'c'], 'min(count, total - start) rows');
  assert.equal(replayWindow(first, null), null);
  const scrolledOff = replayWindow(first, { total: 3, start: 3, count: 5, steps: [{ op: 'delete', at: 0, count: 2 }] });
  assert.deepEqual(scrolledOff.rows, []);
});

const base = held([row('a'), row('b'), row('c')], 3, 0, 3);
const invalid = {
  'delete past the end': [{ op: 'delete', at: 2, count: 2 }],
  'delete of zero rows': [{ op: 'delete', at: 0, count: 0 }],
  'insert past the end': [{ op: 'insert', at: 4, rows: [row('x')] }],
  'insert of no rows': [{ op: 'insert', at: 0, rows: [] }],
  'move from past the end': [{ op: 'move', from: 3, to: 0 }],
  'move to past the end': [{ op: 'move', from: 0, to: 3 }],
  'update past the end': [{ op: 'update', at: 2, rows: [row('c'), row('d')] }],
  'update naming another row': [{ op: 'update', at: 0, rows: [row('b')] }],
  'update turning a row into a header': [{ op: 'update', at: 0, rows: [row('a', 'A', { header: true })] }],
  'a negative index': [{ op: 'delete', at: -1, count: 1 }],
  'an unknown op': [{ op: 'reloadItems', at: 0, rows: [] }],
  'a row without a section': [{ op: 'delete', at: 0, count: 1 }, { op: 'insert', at: 0, rows: [{ id: 'z' }] }],
};
for (const [name, steps] of Object.entries(invalid)) {
  test(`replayWindow rejects ${name}`, () => {
    assert.throws(() => replayWindow(base, { total: 3, start: 0, count: 3, steps }), ReplayError);
  });
}

test('replayWindow rejects a row count other than min(count, total - start)', () => {
  assert.throws(() => replayWindow(base, { total: 3, start: 0, count: 3, steps: [{ op: 'delete', at: 0, count: 1 }] }), /holds 2 rows/);
  assert.throws(() => replayWindow(base, { total: 10, start: 0, count: 4, steps: [] }), /make 4/);
  assert.throws(() => replayWindow(base, { total: 3, start: -1, count: 3, steps: [] }), ReplayError);
});

// ---- the spec's transcript, replayed --------------------------------------

const transcript = fileURLToPath(new URL('../../../transcripts/people-picker-viewport.transcript', import.meta.url));

function exchanges() {
  const requests = new Map();
  const pairs = [];
  for (const line of readFileSync(transcript, 'utf8').split('\n')) {
    if (line.startsWith('> ')) {
      const message = JSON.parse(line.slice(2));
      if (message.id !== undefined) requests.set(message.id, message);
    } else if (line.startsWith('< ')) {
      const message = JSON.parse(line.slice(2));
      pairs.push({ request: requests.get(message.id), response: message });
    }
  }
  return pairs;
}

test('the people-picker-viewport transcript replays: every window matches the rows it announces', () => {
  const frontend = new Frontend();
  const doc = new FakeDocument();
  const container = doc.createElement('div');
  let replayed = 0;
  let rowsAnswer;
  for (const { request, response } of exchanges()) {
    const result = response.result;
    if (request.method === 'rows') rowsAnswer = result;
    if (!result || !('window' in result)) continue;
    frontend.update(result);
    if (result.window) applyWindowSteps(container, result.window, { render: (r) => doc.createElement('li') });
    else clearWindow(container);
    replayed++;
    const window = frontend.window('people');
    if (result.window) assert.deepEqual(container.children.map((c) => c.getAttribute('data-id')), ids(window));
  }
  assert.equal(replayed, 10);
  assert.equal(frontend.window('people'), null, 'the last answer removed the viewport');
  assert.equal(frontend.stale('people'), true, 'the sections were not followed');
  assert.deepEqual(rowsAnswer.rows.map((r) => r.id), ['chloe-grace', 'jackson-lee', 'scarlett-belle']);
});

test('the transcript: after scrolling back to the top the window is the first 10 flat rows', () => {
  const frontend = new Frontend();
  for (const { request, response } of exchanges()) {
    if (response.result && 'window' in response.result) frontend.update(response.result);
    if (request.id === 10) break;
  }
  const window = frontend.window('people');
  assert.deepEqual(ids(window), ['addedList', 'grace-elizabeth', 'search-bar', 'list', 'ava-grace', 'ruby-mae', 'stella-luna', 'jack-ryan', 'emma-kate', 'olivia-jade']);
  assert.deepEqual([window.total, window.start], [21, 0]);
  assert.equal(window.rows[0].header, true);
});

// ---- Frontend: echo "ids", stale sections ------------------------------------

test('echo "ids": rows without content take what the client sent (remember or update({sent}))', () => {
  const frontend = new Frontend();
  const sections = [{ id: 'list', items: [{ id: 'a', content: 'A' }, { id: 'b', content: { text: 'B' } }, 'c'] }];
  frontend.update({ source: 's', version: 1, window: { total: 3, start: 0, count: 5, steps: [
    { op: 'insert', at: 0, rows: [row('a'), row('b'), row('c')] }] } }, { sent: { sections } });
  assert.deepEqual(frontend.window('s').rows, [row('a', 'A'), row('b', { text: 'B' }), row('c')]);
  const ops = [{ op: 'setContent', items: [{ id: 'a', content: 'A2' }] }, { op: 'appendItems', items: [{ id: 'd', content: 'D' }] }];
  frontend.remember('s', { ops });
  frontend.update({ source: 's', version: 2, window: { total: 4, start: 0, count: 5, steps: [
    { op: 'update', at: 0, rows: [row('a')] }, { op: 'insert', at: 3, rows: [row('d')] }] } });
  assert.deepEqual(ids(frontend.window('s')), ['a', 'b', 'c', 'd']);
  assert.equal(frontend.window('s').rows[0].content, 'A2');
  assert.equal(frontend.window('s').rows[3].content, 'D');
});

test('echo "ids" in the steps form: inserted items get their content back', () => {
  const frontend = new Frontend();
  const sections = [{ id: 'list', items: [{ id: 'a', content: 'A' }] }];
  frontend.update({ source: 's', version: 1, steps: [{ op: 'insertSections', at: 0, sections: [{ id: 'list', items: [{ id: 'a' }] }] }] }, { sent: { sections } });
  assert.deepEqual(frontend.sections('s'), [{ id: 'list', items: [{ id: 'a', content: 'A' }] }]);
});

test('a failed window replay leaves the model as it was', () => {
  const frontend = new Frontend();
  frontend.update({ source: 's', version: 1, window: { total: 1, start: 0, count: 2, steps: [{ op: 'insert', at: 0, rows: [row('a', 1)] }] } });
  assert.throws(() => frontend.update({ source: 's', version: 2, window: { total: 1, start: 0, count: 2, steps: [{ op: 'move', from: 0, to: 1 }] } }), ReplayError);
  assert.deepEqual(frontend.window('s').rows, [row('a', 1)]);
  assert.equal(frontend.version('s'), 1);
});

test('after a viewport the sections are stale: batch/steps are not replayed until reset(snapshot)', () => {
  const frontend = new Frontend();
  frontend.update({ source: 's', version: 1, window: { total: 1, start: 0, count: 2, steps: [{ op: 'insert', at: 0, rows: [row('a', 1)] }] } });
  frontend.update({ source: 's', version: 1, window: null });
  assert.equal(frontend.window('s'), null);
  assert.equal(frontend.stale('s'), true);
  frontend.update({ source: 's', version: 2, window: { total: 1, start: 0, count: 2, steps: [{ op: 'insert', at: 0, rows: [row('a', 1)] }] } });
  // a request whose `viewport: null` removed the window answers a batch from a list never followed
  frontend.update({ source: 's', version: 3, steps: [{ op: 'deleteItems', section: 0, at: 5, count: 1 }] });
  assert.equal(frontend.window('s'), null, 'a batch/steps answer ends the window');
  assert.deepEqual(frontend.sections('s'), [], 'not replayed');
  assert.equal(frontend.stale('s'), true);
  assert.equal(frontend.version('s'), 3);
  frontend.reset({ source: 's', version: 1, sections: [{ id: 'list', items: [{ id: 'a', content: 1 }] }], selected: [] });
  frontend.update({ source: 's', version: 2, steps: [{ op: 'deleteItems', section: 0, at: 0, count: 1 }] });
  assert.deepEqual(frontend.sections('s'), [{ id: 'list', items: [] }]);
});

// ---- dom.js applyWindowSteps ------------------------------------------------

function windowDom(rows) {
  const doc = new FakeDocument();
  const counters = { render: 0, update: 0 };
  const options = {
    render(r) {
      counters.render++;
      const element = doc.createElement(r.header ? 'h3' : 'li');
      element.textContent = `${r.id}:${JSON.stringify(r.content ?? null)}${r.selected ? '*' : ''}`;
      return element;
    },
    update(element, r) {
      counters.update++;
      element.textContent = `${r.id}:${JSON.stringify(r.content ?? null)}${r.selected ? '*' : ''}`;
    },
  };
  const container = doc.createElement('div');
  applyWindowSteps(container, { total: rows.length, start: 0, count: rows.length, steps: [{ op: 'insert', at: 0, rows }] }, options);
  return { container, options, counters, nodes: Object.fromEntries(container.children.map((c) => [c.getAttribute('data-id'), c])) };
}
const texts = (container) => container.children.map((c) => c.textContent);

test('applyWindowSteps: keyed rows; moved and unchanged rows keep their nodes, updates patch in place', () => {
  const { container, options, counters, nodes } = windowDom([row('list', 'People', { header: true }), row('a', 1), row('b', 2), row('c', 3), row('d', 4)]);
  assert.equal(container.children[0].hasAttribute('data-header'), true);
  assert.equal(counters.render, 5);
  applyWindowSteps(container, { total: 9, start: 0, count: 5, steps: [
    { op: 'delete', at: 2, count: 1 }, // list a c d
    { op: 'insert', at: 4, rows: [row('e', 5)] }, // list a c d e
    { op: 'move', from: 1, to: 3 }, // list c d a e
    { op: 'update', at: 2, rows: [row('d', 44, { selected: true })] },
  ] }, options);
  assert.deepEqual(texts(container), ['list:"People"', 'c:3', 'd:44*', 'a:1', 'e:5']);
  assert.equal(counters.render, 6, 'only the inserted row was rendered');
  assert.equal(counters.update, 1);
  for (const id of ['list', 'a', 'c', 'd']) assert.equal(container.children.find((c) => c.getAttribute('data-id') === id), nodes[id], `${id} kept its node`);
  assert.equal(nodes.b.parentNode, null, 'the deleted row left the DOM');
});

test('applyWindowSteps without update re-renders updated rows; known fills echo "ids" rows', () => {
  const { container, options, nodes } = windowDom([row('a', 1), row('b', 2)]);
  delete options.update;
  applyWindowSteps(container, { total: 3, start: 0, count: 3, steps: [
    { op: 'update', at: 0, rows: [row('a')] }, { op: 'insert', at: 2, rows: [row('c')] }] },
  { ...options, known: new Map([['a', 'A'], ['c', 'C']]) });
  assert.deepEqual(texts(container), ['a:"A"', 'b:2', 'c:"C"']);
  assert.notEqual(container.children[0], nodes.a, 'replaced');
  assert.equal(container.children[1], nodes.b);
});

test('applyWindowSteps throws on steps that do not fit and on a wrong row count', () => {
  const bad = [
    [{ op: 'delete', at: 1, count: 2 }],
    [{ op: 'insert', at: 3, rows: [row('x')] }],
    [{ op: 'move', from: 0, to: 2 }],
    [{ op: 'update', at: 0, rows: [row('b')] }],
    [{ op: 'bogus' }],
  ];
  for (const steps of bad) {
    const { container, options } = windowDom([row('a'), row('b')]);
    assert.throws(() => applyWindowSteps(container, { total: 2, start: 0, count: 2, steps }, options), undefined, JSON.stringify(steps));
  }
  const { container, options } = windowDom([row('a'), row('b')]);
  assert.throws(() => applyWindowSteps(container, { total: 5, start: 0, count: 3, steps: [] }, options), /make 3/);
});
