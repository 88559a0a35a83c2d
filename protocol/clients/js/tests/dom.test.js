// dom.js against a fake DOM (tests/support/fake-dom.js): no jsdom, zero dependencies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applySteps, renderSnapshot } from '../dom.js';
import { describe, FakeDocument, renderOptions } from './support/fake-dom.js';

const sections = [
  { id: 'A', header: 'Fruit', items: [{ id: 'a', content: 1 }, { id: 'b' }, { id: 'c' }, { id: 'd' }] },
  { id: 'B', items: [{ id: 'e' }, { id: 'f' }] },
  { id: 'C', header: 'Gone', items: [{ id: 'g' }] },
];

function setUp(options = renderOptions()) {
  const container = new FakeDocument().createElement('div');
  renderSnapshot(container, sections, options);
  const nodes = Object.fromEntries(container.children.flatMap((s) => s.children.map((row) => [row.getAttribute('data-id') ?? `header of ${s.getAttribute('data-id')}`, row])));
  const sectionNodes = Object.fromEntries(container.children.map((s) => [s.getAttribute('data-id'), s]));
  return { container, nodes, sectionNodes, options };
}

test('renderSnapshot draws keyed sections, headers and rows', () => {
  const { container } = setUp();
  assert.deepEqual(describe(container), [
    { id: 'A', header: '"Fruit"', rows: ['a:1', 'b:null', 'c:null', 'd:null'] },
    { id: 'B', header: null, rows: ['e:null', 'f:null'] },
    { id: 'C', header: '"Gone"', rows: ['g:null'] },
  ]);
  assert.equal(container.children[0].children[1].section.id, 'A', 'render gets the section');
});

test('moves and untouched rows keep their nodes; only inserted and reloaded rows are rendered', () => {
  const { container, nodes, sectionNodes, options } = setUp();
  const rendersBefore = options.counters.render;
  applySteps(container, [
    { op: 'deleteItems', section: 0, at: 1, count: 1 }, // A: a c d
    { op: 'deleteSections', at: 2, count: 1 }, // A B
    { op: 'moveSection', from: 1, to: 0 }, // B A
    { op: 'insertSections', at: 1, sections: [{ id: 'N', header: 'New', items: [{ id: 'n' }] }] }, // B N A
    { op: 'reloadSection', at: 0, header: 'Others' },
    { op: 'moveItem', from: [2, 0], to: [0, 1] }, // B: e a f; A: c d
    { op: 'moveItem', from: [2, 1], to: [2, 0] }, // A: d c
    { op: 'moveItem', from: [0, 2], to: [1, 0], item: { id: 'f', content: 'F' } }, // B: e a; N: f n
    { op: 'insertItems', section: 2, at: 2, items: [{ id: 'x' }] }, // A: d c x
    { op: 'reloadItems', section: 0, at: 0, items: [{ id: 'e', content: 'E' }] },
    { op: 'reconfigureItems', section: 2, at: 1, items: [{ id: 'c', content: 'C' }] },
  ], options);
  assert.deepEqual(describe(container), [
    { id: 'B', header: '"Others"', rows: ['e:"E"', 'a:1'] },
    { id: 'N', header: '"New"', rows: ['f:"F"', 'n:null'] },
    { id: 'A', header: '"Fruit"', rows: ['d:null', 'c:"C"', 'x:null'] },
  ]);
  const row = (s, r) => container.children[s].children[r + 1];
  assert.equal(row(0, 1), nodes.a, 'a moved across sections: same node');
  assert.equal(row(2, 0), nodes.d, 'd moved within its section: same node');
  assert.equal(row(2, 1), nodes.c, 'c reconfigured: updated in place');
  assert.notEqual(row(0, 0), nodes.e, 'e reloaded: replaced');
  assert.notEqual(row(1, 0), nodes.f, 'f moved with new content: redrawn');
  assert.equal(container.children[0], sectionNodes.B, 'moved section: same node');
  assert.equal(container.children[2], sectionNodes.A);
  assert.equal(container.children[2].children[0], nodes['header of A'], 'an unchanged header keeps its node');
  // rendered: n (inserted section), f (moved + content), x (inserted), e (reloaded); c went to update()
  assert.equal(options.counters.render - rendersBefore, 4);
  assert.equal(options.counters.update, 1);
});

test('without update(), reconfigureItems re-renders the row', () => {
  const options = renderOptions();
  delete options.update;
  const { container, nodes } = setUp(options);
  applySteps(container, [{ op: 'reconfigureItems', section: 1, at: 1, items: [{ id: 'f', content: 2 }] }], options);
  assert.notEqual(container.children[1].children[1], nodes.f);
  assert.equal(container.children[1].children[1].textContent, 'f:2');
  assert.equal(container.children[1].children[0], nodes.e);
});

test('a header can come and go; rows stay indexed from 0 after it', () => {
  const { container, options } = setUp();
  applySteps(container, [{ op: 'reloadSection', at: 0, header: null }, { op: 'reloadSection', at: 1, header: 'Now' }], options);
  applySteps(container, [{ op: 'deleteItems', section: 1, at: 0, count: 1 }, { op: 'insertItems', section: 0, at: 0, items: [{ id: 'z' }] }], options);
  assert.deepEqual(describe(container).slice(0, 2), [
    { id: 'A', header: null, rows: ['z:null', 'a:1', 'b:null', 'c:null', 'd:null'] },
    { id: 'B', header: '"Now"', rows: ['f:null'] },
  ]);
});

test('a reload that names another row than the one at its path is refused', () => {
  const { container, options } = setUp();
  assert.throws(() => applySteps(container, [{ op: 'reloadItems', section: 0, at: 0, items: [{ id: 'b' }] }], options), /the row is a, the diff names b/);
  assert.throws(() => applySteps(container, [{ op: 'deleteItems', section: 1, at: 1, count: 2 }], options), RangeError);
});
