// LSP base-protocol framing: `Content-Length: N\r\n\r\n` + N bytes of UTF-8 JSON.
import { ProtocolError } from './errors.js';

const HEADER_END = Buffer.from('\r\n\r\n');

/** One message as the bytes to write: exactly one header, then the body. */
export function encodeMessage(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/**
 * Incremental reader: `push` any chunk of bytes (split anywhere, even inside a
 * header name or a UTF-8 sequence); every complete message goes to `onMessage`.
 * Chunks are only concatenated once a whole header block or body is present,
 * so a large body arriving in many chunks costs one copy, not one per chunk.
 */
export class MessageReader {
  /** @param {(message: unknown) => void} onMessage */
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.chunks = [];
    this.buffered = 0;
    this.bodyLength = -1; // -1: reading a header block
  }

  /** @param {Buffer} chunk  Throws ProtocolError on an unreadable header or body. */
  push(chunk) {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.bodyLength < 0) {
        const data = this.flatten();
        const end = data.indexOf(HEADER_END);
        if (end < 0) return;
        this.bodyLength = parseHeaders(data.subarray(0, end).toString('ascii'));
        this.keep(data.subarray(end + HEADER_END.length));
      }
      if (this.buffered < this.bodyLength) return;
      const data = this.flatten();
      const body = data.subarray(0, this.bodyLength);
      this.keep(data.subarray(this.bodyLength));
      this.bodyLength = -1;
      let message;
      try {
        message = JSON.parse(body.toString('utf8'));
      } catch (error) {
        throw new ProtocolError(`the daemon sent a body that is not JSON: ${error.message}`);
      }
      this.onMessage(message);
    }
  }

  flatten() {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  keep(rest) {
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
  }
}

/** The body length named by a header block; names are case-insensitive, in any order. */
export function parseHeaders(block) {
  let length = -1;
  for (const line of block.split('\r\n')) {
    if (line === '') continue; // tolerate blank lines between messages
    const colon = line.indexOf(':');
    if (colon < 0) throw new ProtocolError(`malformed header line ${JSON.stringify(line)}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d+$/.test(value)) throw new ProtocolError(`bad Content-Length ${JSON.stringify(value)}`);
      length = Number(value);
    }
  }
  if (length < 0) throw new ProtocolError(`header block without Content-Length: ${JSON.stringify(block)}`);
  return length;
}
