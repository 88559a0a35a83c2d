import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Frontend, replayBatch, replaySteps, ReplayError } from '../index.js';

const it = (id, content) => (content === undefined ? { id } : { id, content });
const ids = (sections) => sections.map((s) => `${s.id}${s.header === undefined ? '' : `(${s.header})`}:${s.items.map((i) => i.id + (i.content === undefined ? '' : `=${i.content}`)).join(',')}`);

const old = [
  { id: 'A', header: 'A', items: [it('a'), it('b'), it('c'), it('d')] },
  { id: 'B', header: 'B', items: [it('e'), it('f')] },
  { id: 'C', items: [it('g')] },
  { id: 'D', header: 'D', items: [it('h')] },
];

// Every kind of operation at once; the expected list is worked out by hand from
// the README's three replay rules.
const everything = {
  sections: {
    delete: [[2, 1]],
    move: [{ from: 3, to: 0, header: 'D2' }],
    insert: [{ at: 2, sections: [{ id: 'N', items: [it('n')] }] }],
    reload: [{ at: 1, header: 'B2' }],
  },
  items: {
    delete: [{ section: 0, ranges: [[1, 1]] }],
    move: [{ from: [0, 0], to: [3, 0] }, { from: [1, 1], to: [1, 0], item: it('f', 'F') }],
    insert: [{ section: 0, at: 1, items: [it('x')] }],
    reload: [{ section: 0, at: 2, items: [it('c', 'C') ] }],
  },
};

test('replayBatch applies section and row deletes, moves, inserts and reloads with UIKit semantics', () => {
  const before = structuredClone(old);
  assert.deepEqual(ids(replayBatch(old, everything)), ['D(D2):h,x', 'A(A):f=F,c=C,d', 'N:n', 'B(B2):a,e']);
  assert.deepEqual(old, before, 'the old list is not mutated');
});

test('replayBatch of an empty batch is the same list', () => {
  assert.deepEqual(replayBatch(old, {}), old);
});

const invalid = {
  'a section both deleted and moved': [/both deleted and moved/, { sections: { delete: [[0, 1]], move: [{ from: 0, to: 1 }] } }],
  'a section deleted twice': [/deleted twice/, { sections: { delete: [[0, 2], [1, 1]] } }],
  'a section delete out of range': [/out of range/, { sections: { delete: [[4, 1]] } }],
  'a reload of a deleted section': [/deleted or moved and reloaded/, { sections: { delete: [[1, 1]], reload: [{ at: 1, header: 'x' }] } }],
  'two sections placed in one slot': [/used twice/, { sections: { move: [{ from: 0, to: 1 }, { from: 2, to: 1 }] } }],
  'section slots that do not add up': [/sections: .* slots/, { sections: { move: [{ from: 0, to: 7 }] } }],
  'a row delete in a deleted section': [/no such row in a surviving section/, { sections: { delete: [[1, 1]] }, items: { delete: [{ section: 1, ranges: [[0, 1]] }] } }],
  'a row insert into an inserted section': [/inserted or does not exist/, {
    sections: { insert: [{ at: 0, sections: [{ id: 'N', items: [] }] }] },
    items: { insert: [{ section: 0, at: 0, items: [it('z')] }] },
  }],
  'a row both deleted and moved': [/deleted and moved/, { items: { delete: [{ section: 0, ranges: [[0, 1]] }], move: [{ from: [0, 0], to: [1, 0] }] } }],
  'a row both deleted and reloaded': [/deleted and reloaded/, { items: { delete: [{ section: 0, ranges: [[0, 1]] }], reload: [{ section: 0, at: 0, items: [it('a', 1)] }] } }],
  'a row both moved and reconfigured': [/moved and reconfigured/, { items: { move: [{ from: [0, 0], to: [0, 3] }], reconfigure: [{ section: 0, at: 0, items: [it('a', 1)] }] } }],
  'a reload that names another item': [/names b, the row is a/, { items: { reload: [{ section: 0, at: 0, items: [it('b', 1)] }] } }],
  'a row delete out of range': [/no such row/, { items: { delete: [{ section: 1, ranges: [[1, 2]] }] } }],
  'rows that do not add up (insert past the end)': [/rows of new section 1/, { items: { insert: [{ section: 1, at: 3, items: [it('z')] }] } }],
  'two rows arriving at one path': [/two rows arrive/, { items: { insert: [{ section: 1, at: 0, items: [it('z')] }], move: [{ from: [0, 0], to: [1, 0] }] } }],
  'a row move into a section that does not exist': [/inserted or does not exist/, { items: { move: [{ from: [0, 0], to: [9, 0] }] } }],
};

for (const [what, [message, batch]] of Object.entries(invalid)) {
  test(`replayBatch rejects ${what}`, () => {
    assert.throws(() => replayBatch(old, batch), { name: 'ReplayError', message });
  });
}

test('Frontend.update is all-or-nothing: a rejected batch leaves the model as it was', () => {
  const frontend = new Frontend();
  frontend.update({ source: 's', version: 1, batch: { sections: { insert: [{ at: 0, sections: old }] } } });
  const before = structuredClone(frontend.sections('s'));
  assert.throws(() => frontend.update({ source: 's', version: 2, ...{ batch: invalid['a row both deleted and moved'][1] } }), ReplayError);
  assert.deepEqual(frontend.sections('s'), before);
  assert.equal(frontend.version('s'), 1);
});

test('replaySteps applies each step to the list left by the previous one', () => {
  const steps = [
    { op: 'deleteItems', section: 0, at: 1, count: 1 }, // A: a c d
    { op: 'deleteSections', at: 2, count: 1 }, // A B D
    { op: 'moveSection', from: 2, to: 0 }, // D A B
    { op: 'insertSections', at: 2, sections: [{ id: 'N', items: [it('n')] }] }, // D A N B
    { op: 'reloadSection', at: 3, header: 'B2' },
    { op: 'moveItem', from: [1, 0], to: [3, 0] }, // A: c d; B: a e f
    { op: 'moveItem', from: [3, 2], to: [1, 0], item: it('f', 'F') }, // A: f c d; B: a e
    { op: 'insertItems', section: 0, at: 1, items: [it('x')] },
    { op: 'reloadItems', section: 1, at: 1, items: [it('c', 'C')] },
    { op: 'reconfigureItems', section: 1, at: 2, items: [it('d', 'D')] },
  ];
  assert.deepEqual(ids(replaySteps(old, steps)), ['D(D):h,x', 'A(A):f=F,c=C,d=D', 'N:n', 'B(B2):a,e']);
  assert.equal(old[0].items.length, 4, 'the old list is not mutated');
});

test('replaySteps: moveItem.to counts after removing the row at from', () => {
  const moved = replaySteps([{ id: 'S', items: [it('a'), it('b'), it('c')] }], [{ op: 'moveItem', from: [0, 0], to: [0, 2] }]);
  assert.deepEqual(moved[0].items.map((i) => i.id), ['b', 'c', 'a']);
});

test('replaySteps rejects steps out of range, reloads of another item and unknown ops', () => {
  assert.throws(() => replaySteps(old, [{ op: 'deleteItems', section: 1, at: 1, count: 2 }]), ReplayError);
  assert.throws(() => replaySteps(old, [{ op: 'insertItems', section: 5, at: 0, items: [] }]), ReplayError);
  assert.throws(() => replaySteps(old, [{ op: 'moveItem', from: [0, 9], to: [0, 0] }]), ReplayError);
  assert.throws(() => replaySteps(old, [{ op: 'reloadItems', section: 0, at: 0, items: [it('zz')] }]), ReplayError);
  assert.throws(() => replaySteps(old, [{ op: 'window', rows: [] }]), ReplayError);
});

test('selection deltas are applied and their rows checked against the model', () => {
  const frontend = new Frontend();
  frontend.update({ source: 's', version: 1, batch: { sections: { insert: [{ at: 0, sections: old }] } } });
  frontend.update({ source: 's', version: 2, selection: { selected: [{ id: 'b', path: [0, 1] }], rows: [{ id: 'b', path: [0, 1] }] } });
  frontend.update({ source: 's', version: 3, selection: { selected: [{ id: 'e', path: [1, 0] }], rows: [{ id: 'b', path: [0, 1] }, { id: 'e', path: [1, 0] }] } });
  frontend.update({ source: 's', version: 4, selection: { deselected: [{ id: 'b', path: [0, 1] }], rows: [{ id: 'e', path: [1, 0] }] } });
  assert.deepEqual([...frontend.selected('s')], ['e']);
  assert.throws(() => frontend.update({ source: 's', version: 5, selection: { selected: [{ id: 'h', path: [3, 0] }], rows: [{ id: 'h', path: [3, 0] }] } }),
    ReplayError, 'rows must list every selected visible row (e is missing)');
  assert.deepEqual([...frontend.selected('s')], ['e'], 'unchanged after the rejected delta');
});

test('rows() and lines() flatten sections with header rows and selection marks', () => {
  const frontend = new Frontend();
  frontend.update({ source: 's', version: 1, steps: [{ op: 'insertSections', at: 0, sections: [{ id: 'S', header: 'Title', items: [it('a', { text: 'A' }), it('b')] }] }] });
  frontend.update({ source: 's', version: 2, selection: { selected: [{ id: 'b', path: [0, 1] }], rows: [{ id: 'b', path: [0, 1] }] } });
  assert.deepEqual(frontend.rows('s'), [
    { kind: 'header', section: 'S', index: 0, header: 'Title' },
    { kind: 'item', section: 'S', path: [0, 0], id: 'a', content: { text: 'A' }, selected: false },
    { kind: 'item', section: 'S', path: [0, 1], id: 'b', content: undefined, selected: true },
  ]);
  assert.deepEqual(frontend.lines('s'), ['[S] "Title"', '    a: {"text":"A"}', '  * b: null']);
});
