// Client behaviour the real daemon cannot show on demand, against tests/support/fake-server.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DaemonExitedError, ProtocolError, RequestTimeoutError, RpcError } from '../index.js';
import { startFake } from './support/daemon.js';

const received = async (client) => (await client.request('received')).received;

test('initializationOptions pass through; typed methods send only documented, defined members', async (t) => {
  const client = await startFake({ initializationOptions: { form: 'steps', supersedeSearches: false } });
  t.after(() => client.close());
  assert.equal(client.serverInfo.name, 'fake');
  await client.apply('s', [{ id: 'x' }], { baseVersion: 3, form: undefined });
  await client.search('s', 'q', { limit: 2, mode: undefined, placeholder: { id: 'p' } });
  await client.select('s', { ids: ['a'], action: undefined });
  assert.throws(() => client.search('s', 'q', { limt: 2 }), /search: unknown option "limt"/);
  assert.throws(() => client.select('s', { onProgress: () => {} }), /unknown option "onProgress"/);
  const log = await received(client);
  assert.deepEqual(log[0].params, { initializationOptions: { form: 'steps', supersedeSearches: false } });
  assert.equal(log[1].method, 'initialized');
  assert.deepEqual(log.slice(2).map((m) => [m.method, m.params]), [
    ['apply', { source: 's', sections: [{ id: 'x' }], baseVersion: 3 }],
    ['search', { source: 's', query: 'q', limit: 2, placeholder: { id: 'p' } }],
    ['select', { source: 's', ids: ['a'] }],
    ['received', undefined],
  ]);
});

test('viewport, rows, and the viewport/echo options are sent only when given', async (t) => {
  const client = await startFake({ initializationOptions: { echo: 'ids' } });
  t.after(() => client.close());
  await client.apply('s', [], { viewport: { start: 0, count: 10 }, echo: 'ids' });
  await client.apply('s', [], { viewport: undefined, echo: undefined });
  await client.search('s', 'q', { viewport: null });
  await assert.rejects(client.edit('s', [], { echo: 'full', viewport: { count: 0 } }), { code: -32601 }); // the fake has no edit
  await assert.rejects(client.viewport('s', { start: 5, count: 20 }), { code: -32601 });
  await assert.rejects(client.viewport('s'), { code: -32601 });
  await assert.rejects(client.rows('s', { start: 1, count: undefined }), { code: -32601 });
  assert.throws(() => client.search('s', 'q', { echo: 'ids' }), /search: unknown option "echo"/);
  assert.throws(() => client.viewport('s', { begin: 1 }), /viewport: unknown option "begin"/);
  const log = await received(client);
  assert.deepEqual(log[0].params, { initializationOptions: { echo: 'ids' } });
  assert.deepEqual(log.slice(2, -1).map((m) => [m.method, m.params]), [
    ['apply', { source: 's', sections: [], viewport: { start: 0, count: 10 }, echo: 'ids' }],
    ['apply', { source: 's', sections: [] }],
    ['search', { source: 's', query: 'q', viewport: null }],
    ['edit', { source: 's', ops: [], echo: 'full', viewport: { count: 0 } }],
    ['viewport', { source: 's', start: 5, count: 20 }],
    ['viewport', { source: 's' }],
    ['rows', { source: 's', start: 1 }],
  ]);
});

test('onProgress gets the $/progress values of its own token only; onNotification sees all', async (t) => {
  const client = await startFake();
  t.after(() => client.close());
  const progress = [];
  const logs = [];
  const everything = [];
  client.onNotification('window/logMessage', (params) => logs.push(params.message));
  const unsubscribe = client.onNotification('*', (params, method) => everything.push(method));
  const result = await client.apply('s', [], { onProgress: (value, token) => progress.push([value.kind, value.percentage, token]) });
  assert.deepEqual(result, { source: 's', version: 1, batch: {} });
  const token = (await received(client)).find((m) => m.method === 'apply').params.workDoneToken;
  assert.equal(typeof token, 'string');
  assert.deepEqual(progress, [['begin', 0, token], ['report', 50, token], ['end', undefined, token]]);
  assert.deepEqual(logs, ['apply half done']);
  assert.deepEqual(everything, ['$/progress', '$/progress', '$/progress', 'window/logMessage', '$/progress']);
  unsubscribe();
  await client.search('s', 'q', { onProgress: () => {} });
  assert.equal(everything.length, 5, 'unsubscribed');
  const search = (await received(client)).find((m) => m.method === 'search');
  assert.notEqual(search.params.workDoneToken, token, 'a fresh token per request');
});

test('a request past its timeout rejects with RequestTimeoutError and sends $/cancelRequest', async (t) => {
  const client = await startFake();
  t.after(() => client.close());
  const started = Date.now();
  await assert.rejects(client.request('never', {}, { timeout: 150 }), (error) => {
    assert.ok(error instanceof RequestTimeoutError);
    assert.equal(error.method, 'never');
    return true;
  });
  assert.ok(Date.now() - started >= 140, 'waited for the timeout');
  const log = await received(client);
  const never = log.find((m) => m.method === 'never');
  assert.deepEqual(log.find((m) => m.method === '$/cancelRequest').params, { id: never.id });
});

test('the client-wide default timeout applies; a per-request one overrides it', async (t) => {
  const client = await startFake({ timeout: 100 });
  t.after(() => client.close());
  await assert.rejects(client.request('never'), RequestTimeoutError);
  const late = client.request('late', { ms: 200 }, { timeout: 2000 });
  assert.deepEqual(await late, { late: true });
});

test('AbortSignal cancels: rejects with its reason and sends $/cancelRequest; a late answer goes to onLateResponse', async (t) => {
  const client = await startFake();
  t.after(() => client.close());
  const lateAnswers = [];
  client.onLateResponse((late) => lateAnswers.push(late));
  const controller = new AbortController();
  const pending = client.request('late', { ms: 100 }, { signal: controller.signal });
  controller.abort(new Error('user typed again'));
  await assert.rejects(pending, /user typed again/);
  await assert.rejects(client.request('late', { ms: 1 }, { signal: controller.signal }), /user typed again/, 'already aborted: not sent');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const log = await received(client);
  assert.equal(log.filter((m) => m.method === 'late').length, 1);
  const late = log.find((m) => m.method === 'late');
  assert.deepEqual(log.find((m) => m.method === '$/cancelRequest').params, { id: late.id });
  assert.deepEqual(lateAnswers, [{ id: late.id, method: 'late', result: { late: true } }]);
});

test('error answers are RpcError with code, message and data', async (t) => {
  const client = await startFake();
  t.after(() => client.close());
  await assert.rejects(client.request('nope'), (error) => error instanceof RpcError && error.code === -32601 && error.data.method === 'nope' && error.rpcMessage === 'Method not found: nope');
});

test('a daemon that dies mid-request rejects with DaemonExitedError carrying the stderr tail', async () => {
  const client = await startFake();
  await assert.rejects(client.request('crash'), (error) => {
    assert.ok(error instanceof DaemonExitedError);
    assert.equal(error.exitCode, 7);
    assert.match(error.stderrTail, /assertion failed: crash requested/);
    assert.match(error.message, /exited with code 7 during crash/);
    return true;
  });
  await assert.rejects(client.apply('s', []), DaemonExitedError, 'later requests fail the same way');
  assert.deepEqual(await client.close(), { code: 7, signal: null });
});

test('a daemon that dies during initialize makes Client.start reject with DaemonExitedError', async () => {
  await assert.rejects(startFake({ env: { ...process.env, FAKE_FAIL_INIT: '1' } }), (error) =>
    error instanceof DaemonExitedError && error.exitCode === 3 && /cannot initialize/.test(error.stderrTail));
});

test('unreadable output from the daemon is a ProtocolError and ends the process', async () => {
  const client = await startFake();
  await assert.rejects(client.request('garbage'), ProtocolError);
  const status = await client.exited;
  assert.equal(status.signal, 'SIGTERM');
});

test('close() escalates to SIGKILL for a daemon that ignores shutdown, exit and SIGTERM', async () => {
  const client = await startFake({ env: { ...process.env, FAKE_STUCK: '1' } });
  const started = Date.now();
  assert.deepEqual(await client.close({ grace: 150 }), { code: null, signal: 'SIGKILL' });
  const took = Date.now() - started;
  assert.ok(took >= 400 && took < 3000, `shutdown timeout + 2 grace periods, took ${took} ms`);
});

test('requests from the server get a MethodNotFound answer', async (t) => {
  const client = await startFake();
  t.after(() => client.close());
  const { clientAnswered } = await client.request('serverRequest');
  assert.equal(clientAnswered.id, 'from-server');
  assert.equal(clientAnswered.error.code, -32601);
});

test('Symbol.asyncDispose (where this Node has it) closes the client', async () => {
  const client = await startFake();
  if (typeof Symbol.asyncDispose === 'symbol') await client[Symbol.asyncDispose]();
  else await client.close(); // Node 18: no symbol, so close() is the whole story

  assert.deepEqual(client.exitStatus, { code: 0, signal: null });
});
