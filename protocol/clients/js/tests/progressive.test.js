// Progressive search against the real daemon (protocol/methods/search.md, "Progressive
// answers"): with `progressiveBudget: 0` every eligible search answers partially, then
// refines with a `searchRefined` notification. A Frontend fed every answer and refinement
// in arrival order ends with exactly the window a client without `progressive` shows
// (snapshot's first rows); a keystroke sent before the refinement applies on the partial window.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Frontend } from '../index.js';
import { startDaemon } from './support/daemon.js';

const COUNT = 20000; // more than the daemon's sample (8,192 texts): a partial answer differs from the exact one
const WORDS = ['src', 'lib', 'view', 'grid', 'main', 'swift', 'readme', 'conf', 'init', 'py', 'test', 'core', 'app'];
const ROWS = 12;
const QUERY = 'main.py';
const SEARCH = { mode: 'fuzzy', order: 'score' };

function paths(seed = 1) {
  let state = seed;
  const next = (n) => { state = (state * 1103515245 + 12345) % 2147483648; return state % n; };
  const items = Array.from({ length: COUNT }, (_, k) => ({
    id: String(k),
    content: `${Array.from({ length: 1 + next(5) }, () => WORDS[next(WORDS.length)]).join('/')}${k}.txt`,
  }));
  return [{ id: 'files', items }];
}

const ids = (frontend) => frontend.window('files').rows.map((r) => r.id);

async function exactIds(query) {
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false } });
  try {
    const frontend = new Frontend();
    frontend.update(await client.apply('files', paths(), { viewport: { start: 0, count: ROWS } }));
    frontend.update(await client.search('files', query, SEARCH));
    const snapshot = await client.snapshot('files');
    assert.deepEqual(ids(frontend), snapshot.sections[0].items.slice(0, ROWS).map((i) => i.id));
    return ids(frontend);
  } finally {
    await client.close();
  }
}

const progressiveClient = async (t) => {
  const client = await startDaemon({ initializationOptions: { supersedeSearches: false, progressiveBudget: 0 } });
  t.after(() => client.close());
  return client;
};

test('progressive search, key by key: every answer, then its refinement, ends on the exact window', async (t) => {
  const exact = await exactIds(QUERY);
  const client = await progressiveClient(t);
  const notified = [];
  client.onNotification('searchRefined', (params) => notified.push(params));
  const frontend = new Frontend();
  frontend.update(await client.apply('files', paths(), { viewport: { start: 0, count: ROWS } }));
  let partials = 0;
  for (let k = 1; k <= QUERY.length; k++) {
    const answer = await client.search('files', QUERY.slice(0, k), { ...SEARCH, progressive: true });
    frontend.update(answer);
    const refined = await client.refinement(answer);
    if (answer.search.partial) {
      partials++;
      assert.ok(refined, `a partial answer to ${QUERY.slice(0, k)} is refined`);
      assert.equal(refined.search.query, QUERY.slice(0, k));
      assert.ok(!('partial' in refined.search));
      frontend.update(refined);
      assert.equal(await client.refinement('files'), refined, 'by source: the last answer\'s');
    } else {
      assert.equal(refined, null);
    }
  }
  assert.ok(partials > 0, 'progressiveBudget 0 answered nothing partially');
  assert.equal(notified.length, partials, 'every searchRefined also reached onNotification');
  assert.deepEqual(ids(frontend), exact);
  const snapshot = await client.snapshot('files');
  assert.deepEqual(ids(frontend), snapshot.sections[0].items.slice(0, ROWS).map((i) => i.id));
});

test('the next keystroke before the refinement: the second answer applies on the window held', async (t) => {
  const exact = await exactIds(QUERY);
  const client = await progressiveClient(t);
  const frontend = new Frontend();
  frontend.update(await client.apply('files', paths(), { viewport: { start: 0, count: ROWS } }));
  for (let k = 1; k < QUERY.length - 1; k += 2) {
    // sent back to back: the first refinement either comes before the second answer or is dropped by it
    const answers = [
      client.search('files', QUERY.slice(0, k), { ...SEARCH, progressive: true }),
      client.search('files', QUERY.slice(0, k + 1), { ...SEARCH, progressive: true }),
    ];
    for (const pending of answers) {
      const answer = await pending;
      frontend.update(answer);
      const refined = await client.refinement(answer);
      if (refined) frontend.update(refined);
    }
  }
  const last = await client.search('files', QUERY, { ...SEARCH, progressive: true });
  frontend.update(last);
  const refined = await client.refinement(last);
  if (refined) frontend.update(refined);
  assert.deepEqual(ids(frontend), exact);
});

test('without progressive nothing is partial and nothing is refined', async (t) => {
  const client = await progressiveClient(t);
  await client.apply('files', paths(), { viewport: { start: 0, count: ROWS } });
  const answer = await client.search('files', 'ma', SEARCH);
  assert.ok(!('partial' in answer.search));
  assert.equal(await client.refinement(answer), null);
  assert.equal(await client.refinement('files'), null);
  assert.equal(await client.refinement('no such source'), null);
  assert.throws(() => client.search('files', 'ma', { progresive: true }), /unknown option "progresive"/);
});
