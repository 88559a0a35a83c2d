// Error classes thrown by the client. Kept in their own module so the
// browser-safe parts (frontend.js, dom.js) never pull in node:child_process.
import { errorCodes } from './contract.js';

/** The daemon answered a request with a JSON-RPC error object. */
export class RpcError extends Error {
  /** @param {{code: number, message: string, data?: unknown}} error @param {string} method */
  constructor(error, method) {
    super(`${method}: ${error.code}: ${error.message}`);
    this.name = 'RpcError';
    this.code = error.code;
    this.rpcMessage = error.message;
    if ('data' in error) this.data = error.data;
    this.method = method;
  }
}

/** No daemon binary was found; `searched` lists every place that was looked at. */
export class DaemonNotFoundError extends Error {
  /** @param {string[]} searched @param {string} [detail] @param {string} [advice] what to do about it */
  constructor(searched, detail = '', advice = 'build it with `swift build -c release` in the diffable checkout, ' +
    'or pass its path as `daemon` or in $DIFFABLE_BIN.') {
    super(
      'diffable daemon not found' + (detail ? ` (${detail})` : '') + '. Looked in:\n' +
        searched.map((place) => `  - ${place}`).join('\n') + '\n' + advice,
    );
    this.name = 'DaemonNotFoundError';
    this.searched = searched;
  }
}

/** The daemon process ended while a request was waiting, or before one could be sent. */
export class DaemonExitedError extends Error {
  /** @param {number|null} code @param {string|null} signal @param {string} stderrTail */
  constructor(code, signal, stderrTail, during = '') {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    super(
      `the diffable daemon ${how}` + (during ? ` during ${during}` : '') +
        (stderrTail ? `; last stderr:\n${stderrTail}` : ' (no stderr output)'),
    );
    this.name = 'DaemonExitedError';
    this.exitCode = code;
    this.signal = signal;
    this.stderrTail = stderrTail;
  }
}

/** A request got no answer within its timeout; a `$/cancelRequest` was sent for it. */
export class RequestTimeoutError extends Error {
  constructor(method, id, timeoutMs) {
    super(`${method} (id ${id}) got no answer within ${timeoutMs} ms; sent $/cancelRequest`);
    this.name = 'RequestTimeoutError';
    this.method = method;
    this.id = id;
    this.timeout = timeoutMs;
  }
}

/** The byte stream from the daemon cannot be read as Content-Length framed JSON. */
export class ProtocolError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** A diff could not be replayed on the model: the model and the daemon disagree. */
export class ReplayError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ReplayError';
  }
}

/**
 * Not thrown by the client: what `Client.start` hands its `onWarning` hook when
 * the daemon's `initialize` answer names another MAJOR.MINOR than the client's
 * `version`. A hook that throws it makes `Client.start` stop the daemon and reject.
 */
export class DaemonVersionWarning extends Error {
  constructor(message, daemonVersion, clientVersion, daemon) {
    super(message);
    this.name = 'DaemonVersionWarning';
    this.daemonVersion = daemonVersion;
    this.clientVersion = clientVersion;
    this.daemon = daemon;
  }
}

/** JSON-RPC / diffable error codes by name (protocol/README.md "Errors"; contract.js, from protocol/schemas). */
export const ErrorCodes = errorCodes;
