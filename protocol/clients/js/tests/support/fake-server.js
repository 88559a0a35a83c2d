#!/usr/bin/env node
// A tiny stand-in daemon for what the real one cannot show on demand:
// $/progress and window/logMessage notifications, requests that never finish,
// late answers, crashes, a stuck shutdown and server-to-client requests.
// Behaviour switches: env FAKE_FAIL_INIT=1 (crash on initialize),
// FAKE_STUCK=1 (ignores shutdown, exit and SIGTERM), FAKE_SERVER_VERSION=V
// (initialize's serverInfo.version; default '0', which no client reads as a
// MAJOR.MINOR, so it never warns about it).
import { encodeMessage, MessageReader } from '../../framing.js';

const received = [];
let shutDown = false;
const send = (message) => process.stdout.write(encodeMessage({ jsonrpc: '2.0', ...message }));
const answer = (id, result) => send({ id, result });
const stuck = process.env.FAKE_STUCK === '1';
if (stuck) {
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1000); // stays alive after stdin closes
}

const waiting = new Map(); // id of a `never` request -> true, answered only when cancelled

function handle(message) {
  received.push(message);
  const { id, method, params } = message;
  if (method === undefined) {
    // a response to our server request
    answer(waiting.get('serverRequest'), { clientAnswered: message });
    return;
  }
  switch (method) {
    case 'initialize':
      if (process.env.FAKE_FAIL_INIT === '1') {
        process.stderr.write('fake: loading the index\nfake: fatal: cannot initialize\n');
        process.exit(3);
      }
      return answer(id, { serverInfo: { name: 'fake', version: process.env.FAKE_SERVER_VERSION ?? '0' }, capabilities: { methods: [], diffForms: ['batch', 'steps'], defaultForm: 'batch', framings: ['content-length'] } });
    case 'apply':
    case 'search': {
      const token = params?.workDoneToken;
      send({ method: '$/progress', params: { token: 'someone-else', value: { kind: 'begin', title: 'other' } } });
      if (token !== undefined) {
        send({ method: '$/progress', params: { token, value: { kind: 'begin', title: method, percentage: 0 } } });
        send({ method: '$/progress', params: { token, value: { kind: 'report', percentage: 50, message: 'half' } } });
        send({ method: 'window/logMessage', params: { type: 3, message: `${method} half done` } });
        send({ method: '$/progress', params: { token, value: { kind: 'end', message: 'done' } } });
      }
      return answer(id, { source: params.source, version: 1, batch: {} });
    }
    case 'select':
      return answer(id, { source: params.source, version: 1, selection: {} });
    case 'received':
      return answer(id, { received });
    case 'never':
      waiting.set(id, true);
      return undefined;
    case 'late':
      // answers after `params.ms` whether or not it was cancelled (the cancel came too late)
      setTimeout(() => answer(id, { late: true }), params.ms);
      return undefined;
    case 'serverRequest':
      waiting.set('serverRequest', id);
      return send({ id: 'from-server', method: 'window/workDoneProgress/create', params: { token: 't' } });
    case 'crash':
      process.stderr.write('fake: about to crash\nfake: assertion failed: crash requested\n');
      return process.exit(7);
    case 'garbage':
      return process.stdout.write('Content-Type: text/plain\r\n\r\n');
    case '$/cancelRequest':
      if (waiting.delete(params.id)) send({ id: params.id, error: { code: -32800, message: 'Request cancelled', data: { method: 'never' } } });
      return undefined;
    case 'shutdown':
      if (stuck) return undefined;
      shutDown = true;
      return answer(id, null);
    case 'exit':
      if (!stuck) process.exit(shutDown ? 0 : 1);
      return undefined;
    default:
      if (id !== undefined) send({ id, error: { code: -32601, message: `Method not found: ${method}`, data: { method } } });
      return undefined;
  }
}

const reader = new MessageReader(handle);
process.stdin.on('data', (chunk) => reader.push(chunk));
process.stdin.on('end', () => { if (!stuck) process.exit(0); });
