import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeMessage, MessageReader, ProtocolError } from '../index.js';

const messages = [
  { jsonrpc: '2.0', id: 1, result: { text: 'héllo — ✓ 𝄞', list: [1, 2, 3] } },
  { jsonrpc: '2.0', method: '$/progress', params: { token: 't', value: { kind: 'report', percentage: 50 } } },
  { jsonrpc: '2.0', id: 'two', error: { code: 1001, message: 'No source', data: { source: 'x' } } },
];

function readAll(chunks) {
  const out = [];
  const reader = new MessageReader((message) => out.push(message));
  for (const chunk of chunks) reader.push(chunk);
  return out;
}

test('encodeMessage writes exactly one Content-Length header with the UTF-8 byte count', () => {
  const bytes = encodeMessage({ text: 'é' });
  const text = bytes.toString('utf8');
  assert.match(text, /^Content-Length: (\d+)\r\n\r\n/);
  const length = Number(/^Content-Length: (\d+)/.exec(text)[1]);
  assert.equal(length, Buffer.byteLength('{"text":"é"}'));
  assert.equal(bytes.length, `Content-Length: ${length}\r\n\r\n`.length + length);
});

test('a stream split at every byte position into two chunks yields the same messages', () => {
  const stream = Buffer.concat(messages.map(encodeMessage));
  for (let cut = 0; cut <= stream.length; cut++) {
    assert.deepEqual(readAll([stream.subarray(0, cut), stream.subarray(cut)]), messages, `cut at ${cut}`);
  }
});

test('a stream fed one byte at a time yields the same messages', () => {
  const stream = Buffer.concat(messages.map(encodeMessage));
  const bytes = [...stream].map((byte) => Buffer.from([byte]));
  assert.deepEqual(readAll(bytes), messages);
});

test('headers are read case-insensitively, in any order, with other headers', () => {
  const body = Buffer.from(JSON.stringify(messages[0]));
  const variants = [
    `content-length: ${body.length}\r\n\r\n`,
    `CONTENT-LENGTH:${body.length}\r\n\r\n`,
    `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`,
    `Content-Length: ${body.length}\r\nContent-Type: application/vim-jsonrpc\r\n\r\n`,
  ];
  for (const header of variants) {
    assert.deepEqual(readAll([Buffer.concat([Buffer.from(header), body])]), [messages[0]], header);
  }
});

test('a header block without Content-Length, or a body that is not JSON, is a ProtocolError', () => {
  assert.throws(() => readAll([Buffer.from('Content-Type: text/plain\r\n\r\n{}')]), ProtocolError);
  assert.throws(() => readAll([Buffer.from('Content-Length: abc\r\n\r\n')]), ProtocolError);
  assert.throws(() => readAll([Buffer.from('Content-Length: 3\r\n\r\n{x}')]), ProtocolError);
});
