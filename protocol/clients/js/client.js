// The daemon as a child process, spoken to with JSON-RPC 2.0 over
// Content-Length framing. Requests may overlap; answers are matched by id.
import { spawn } from 'node:child_process';
import { findDaemon } from './discovery.js';
import { DaemonExitedError, DaemonNotFoundError, ErrorCodes, ProtocolError, RequestTimeoutError, RpcError } from './errors.js';
import { methods } from './contract.js';
import { encodeMessage, MessageReader } from './framing.js';
import { Refinements } from './refinements.js';
import { daemonVersionWarning } from './version.js';

const STDERR_TAIL_BYTES = 8192;
const STDERR_TAIL_LINES = 20;

// The params members each method takes as options: those the contract lists
// (contract.js, generated from protocol/schemas) less the ones its function
// takes positionally and `workDoneToken` (made from `onProgress`). Anything else
// in an options object is a caller mistake: the daemon refuses unknown members,
// so we refuse them here with a clear message.
const REQUEST_OPTIONS = ['timeout', 'signal'];
const PROGRESS_OPTIONS = ['onProgress'];
const POSITIONAL = {
  apply: ['source', 'sections'], edit: ['source', 'ops'], select: ['source'], setSelectionMode: ['source', 'sections'],
  selection: ['source'], search: ['source', 'query'], highlights: ['source', 'section'], viewport: ['source'],
  rows: ['source'], expand: ['source', 'ids'], collapse: ['source', 'ids'], outline: ['source', 'id'],
  snapshot: ['source'], sources: [], drop: ['source'],
};
const OPTION_KEYS = Object.fromEntries(Object.entries(POSITIONAL).map(([method, positional]) => [
  method, methods[method].params.filter((key) => !positional.includes(key) && key !== 'workDoneToken'),
]));
// The methods whose functions take `onProgress` (the long-running changes).
const WITH_PROGRESS = new Set(['apply', 'edit', 'search']);

/**
 * Splits `options` into documented params (undefined ones dropped) and request
 * options; throws TypeError on anything else.
 */
function paramsFrom(method, options) {
  const paramKeys = OPTION_KEYS[method];
  const allowProgress = WITH_PROGRESS.has(method);
  const params = {};
  const requestOptions = {};
  for (const [key, value] of Object.entries(options ?? {})) {
    if (paramKeys.includes(key)) {
      if (value !== undefined) params[key] = value;
    } else if (REQUEST_OPTIONS.includes(key) || (allowProgress && PROGRESS_OPTIONS.includes(key))) {
      requestOptions[key] = value;
    } else {
      const allowed = [...paramKeys, ...REQUEST_OPTIONS, ...(allowProgress ? PROGRESS_OPTIONS : [])];
      throw new TypeError(`${method}: unknown option ${JSON.stringify(key)} (allowed: ${allowed.join(', ')})`);
    }
  }
  return { params, requestOptions };
}

function abortReason(signal) {
  return signal.reason ?? new DOMException('The request was aborted', 'AbortError');
}

export class Client {
  /**
   * Spawns the daemon, sends `initialize` (and `initialized`) and resolves once
   * it answered; a daemon of another MAJOR.MINOR version goes to `onWarning`
   * (default: console.warn). See index.d.ts `StartOptions` for the options.
   */
  static async start(options = {}) {
    const argv = findDaemon(options);
    const client = new Client([...argv, ...(options.args ?? [])], options);
    const params = options.initializationOptions === undefined ? {} : { initializationOptions: options.initializationOptions };
    try {
      client.initializeResult = await client.request('initialize', params, { timeout: options.startTimeout ?? 10_000 });
      client.notify('initialized', {});
      const warning = daemonVersionWarning(client.initializeResult, argv[0]);
      if (warning) (options.onWarning ?? ((w) => console.warn(`diffable: ${w.message}`)))(warning);
    } catch (error) {
      client.kill();
      await client.exited;
      throw error;
    }
    return client;
  }

  /** Use `Client.start`; the constructor spawns but does not initialize. */
  constructor(argv, options = {}) {
    this.argv = argv;
    this.defaultTimeout = options.timeout;
    this.closeGrace = options.closeGrace ?? 2000;
    this.initializeResult = undefined;
    this.exitStatus = undefined; // {code, signal} once the process ended
    this.nextId = 1;
    this.pending = new Map(); // id -> {method, settle(error, result)}
    this.abandoned = new Map(); // id -> method, for timed-out / aborted requests
    this.listeners = new Map(); // notification method ('*' = all) -> Set<callback>
    this.lateListeners = new Set();
    this.progressCallbacks = new Map(); // workDoneToken -> onProgress
    this.refinements = new Refinements(); // progressive search: each answer's searchRefined
    this.stderrTail = '';
    this.closing = undefined;
    this.failure = undefined;

    this.child = spawn(argv[0], argv.slice(1), {
      stdio: ['pipe', 'pipe', options.stderr === 'inherit' ? 'inherit' : 'pipe'],
      env: options.env ?? process.env,
      cwd: options.cwd,
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.exitStatus = { code, signal };
        const during = [...this.pending.values()].map((p) => p.method).join(', ');
        const error = this.failure ?? new DaemonExitedError(code, signal, this.stderrTailText(), during);
        this.rejectAll(error);
        resolve(this.exitStatus);
      });
    });
    this.child.on('error', (error) => {
      // spawn failures (ENOENT, EACCES) arrive here, and 'close' follows.
      this.failure ??= error.code === 'ENOENT' || error.code === 'EACCES'
        ? new DaemonNotFoundError([argv[0]], `spawn failed: ${error.code}`)
        : error;
    });
    this.child.stdin.on('error', () => {}); // EPIPE after the daemon died: reported through 'close'
    if (this.child.stderr) {
      this.child.stderr.on('data', (chunk) => {
        options.onStderr?.(chunk.toString('utf8'));
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
    }
    const reader = new MessageReader((message) => this.dispatch(message));
    this.child.stdout.on('data', (chunk) => {
      if (this.failure) return;
      try {
        reader.push(chunk);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error; // a listener threw: not ours to hide
        this.fail(error);
      }
    });
  }

  get serverInfo() { return this.initializeResult?.serverInfo; }
  get capabilities() { return this.initializeResult?.capabilities; }
  get pid() { return this.child.pid; }

  stderrTailText() {
    return this.stderrTail.trimEnd().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
  }

  /** Unrecoverable stream error: every waiting request fails with it and the process is killed. */
  fail(error) {
    this.failure ??= error;
    this.rejectAll(this.failure);
    this.kill();
  }

  rejectAll(error) {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.refinements.failAll(error);
    for (const request of waiting) request.settle(error);
  }

  send(message) {
    if (this.exitStatus || this.failure) return false;
    this.child.stdin.write(encodeMessage(message));
    return true;
  }

  /** Sends a notification (no answer). */
  notify(method, params) {
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /**
   * Sends a request; resolves with its result or rejects with RpcError,
   * RequestTimeoutError, the signal's abort reason or DaemonExitedError.
   * A timed-out or aborted request is cancelled with `$/cancelRequest`; if the
   * daemon had already run it, its answer goes to `onLateResponse` listeners.
   */
  request(method, params, { timeout = this.defaultTimeout, signal, onProgress } = {}) {
    if (this.failure) return Promise.reject(this.failure);
    if (this.exitStatus) {
      const { code, signal: killedBy } = this.exitStatus;
      return Promise.reject(new DaemonExitedError(code, killedBy, this.stderrTailText(), method));
    }
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.nextId++;
    let token;
    if (onProgress) {
      token = `diffable-js-${id}`;
      params = { ...params, workDoneToken: token };
      this.progressCallbacks.set(token, onProgress);
    }
    return new Promise((resolve, reject) => {
      let timer;
      const onAbort = () => abandon(abortReason(signal));
      const cleanup = () => {
        this.pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (token) this.progressCallbacks.delete(token);
      };
      const abandon = (error) => {
        cleanup();
        this.abandoned.set(id, method);
        this.notify('$/cancelRequest', { id });
        reject(error);
      };
      this.pending.set(id, {
        method,
        settle: (error, result) => {
          cleanup();
          if (error) reject(error);
          else resolve(result);
        },
      });
      if (timeout !== undefined && timeout !== null && timeout !== Infinity) {
        timer = setTimeout(() => abandon(new RequestTimeoutError(method, id, timeout)), timeout);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      const message = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      this.send(message);
    });
  }

  dispatch(message) {
    if (Array.isArray(message)) {
      for (const part of message) this.dispatch(part);
      return;
    }
    if (message === null || typeof message !== 'object') {
      this.fail(new ProtocolError(`the daemon sent a message that is not an object: ${JSON.stringify(message)}`));
      return;
    }
    const isResponse = 'result' in message || 'error' in message;
    if (isResponse) {
      if (message.id === null || message.id === undefined) {
        // The daemon could not read something we sent: our framing is broken.
        this.fail(new ProtocolError(`the daemon could not read a message: ${JSON.stringify(message.error)}`));
        return;
      }
      this.settleResponse(message);
    } else if (typeof message.method === 'string' && 'id' in message) {
      // A request from the server (LSP servers may send some); we implement none.
      this.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCodes.MethodNotFound, message: `client does not implement ${message.method}` } });
    } else if (typeof message.method === 'string') {
      this.deliverNotification(message.method, message.params);
    }
  }

  settleResponse(message) {
    const request = this.pending.get(message.id);
    if (request) {
      if ('error' in message) request.settle(new RpcError(message.error, request.method));
      else {
        // before the caller sees the answer, so that `refinement` knows it
        if (request.method === 'search') this.refinements.answered(message.result);
        request.settle(undefined, message.result);
      }
      return;
    }
    const method = this.abandoned.get(message.id);
    this.abandoned.delete(message.id);
    const late = { id: message.id, method };
    if ('error' in message) late.error = new RpcError(message.error, method ?? 'unknown request');
    else late.result = message.result;
    for (const listener of this.lateListeners) listener(late);
  }

  deliverNotification(method, params) {
    if (method === 'searchRefined') this.refinements.refined(params);
    if (method === '$/progress' && params && this.progressCallbacks.has(params.token)) {
      this.progressCallbacks.get(params.token)(params.value, params.token);
    }
    for (const key of [method, '*']) {
      for (const listener of this.listeners.get(key) ?? []) listener(params, method);
    }
  }

  /**
   * Calls `callback(params, method)` for every notification `method` from the
   * daemon (`'*'`: all of them). Returns a function that unsubscribes.
   */
  onNotification(method, callback) {
    if (!this.listeners.has(method)) this.listeners.set(method, new Set());
    this.listeners.get(method).add(callback);
    return () => this.listeners.get(method)?.delete(callback);
  }

  /**
   * Answers that arrive for timed-out or aborted requests: `{id, method, result}`
   * or `{id, method, error}`. A change request the daemon ran anyway carries a
   * diff the Frontend must still replay (or re-read `snapshot`).
   */
  onLateResponse(callback) {
    this.lateListeners.add(callback);
    return () => this.lateListeners.delete(callback);
  }

  /** `shutdown`, `exit`, then waits; SIGTERM and later SIGKILL past `grace` ms. Resolves with {code, signal}. */
  close({ grace = this.closeGrace } = {}) {
    this.closing ??= (async () => {
      if (!this.exitStatus && !this.failure) {
        try {
          await this.request('shutdown', undefined, { timeout: grace });
        } catch {
          // already shut down, dead or stuck: the exit and the signals below still end it
        }
        this.notify('exit');
        this.child.stdin.end();
      }
      for (const signal of ['SIGTERM', 'SIGKILL']) {
        if (await this.waitForExit(grace)) break;
        this.kill(signal);
      }
      return this.exited;
    })();
    return this.closing;
  }

  async waitForExit(ms) {
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(resolve, ms, false); });
    const result = await Promise.race([this.exited.then(() => true), timedOut]);
    clearTimeout(timer);
    return result;
  }

  /** Kills the process without the shutdown handshake. */
  kill(signal = 'SIGTERM') {
    if (!this.exitStatus) this.child.kill(signal);
  }

  // ---- the methods, one typed function each -------------------------------

  apply(source, sections, options) {
    const { params, requestOptions } = paramsFrom('apply', options);
    return this.request('apply', { source, sections, ...params }, requestOptions);
  }

  edit(source, ops, options) {
    const { params, requestOptions } = paramsFrom('edit', options);
    return this.request('edit', { source, ops, ...params }, requestOptions);
  }

  select(source, options) {
    const { params, requestOptions } = paramsFrom('select', options);
    return this.request('select', { source, ...params }, requestOptions);
  }

  setSelectionMode(source, sections, options) {
    const { requestOptions } = paramsFrom('setSelectionMode', options);
    return this.request('setSelectionMode', { source, sections }, requestOptions);
  }

  selection(source, options) {
    const { requestOptions } = paramsFrom('selection', options);
    return this.request('selection', { source }, requestOptions);
  }

  /**
   * `progressive: true`: a search slower than the frame budget answers from a sample
   * (`search.partial`), then the exact window comes as a `searchRefined` notification:
   * `refinement(result)` resolves with it (protocol/methods/search.md, "Progressive answers").
   */
  search(source, query, options) {
    const { params, requestOptions } = paramsFrom('search', options);
    return this.request('search', { source, query, ...params }, requestOptions);
  }

  /**
   * The `searchRefined` params that follow a partial search answer: `of` is that answer (the
   * result object `search` resolved with) or a source name (its last search answer). Resolves
   * with null when the answer was exact, when the next search of its source was answered
   * first (that keystroke dropped the refinement), or for an unknown answer; rejects with
   * RefinementTimeoutError after `timeout` ms (default the client's) or DaemonExitedError.
   * Apply it after its answer and before the next: `frontend.update(await c.refinement(r))`.
   */
  refinement(of, { timeout = this.defaultTimeout } = {}) {
    return this.refinements.wait(of, timeout);
  }

  highlights(source, section, options) {
    const { params, requestOptions } = paramsFrom('highlights', options);
    return this.request('highlights', { source, section, ...params }, requestOptions);
  }

  /** Sets the window to flat rows `start ..< start + count`; `count` 0 or absent removes it (`window: null`). */
  viewport(source, options) {
    const { params, requestOptions } = paramsFrom('viewport', options);
    return this.request('viewport', { source, ...params }, requestOptions);
  }

  /** Flat rows `start ..< start + count` without moving the window. */
  rows(source, options) {
    const { params, requestOptions } = paramsFrom('rows', options);
    return this.request('rows', { source, ...params }, requestOptions);
  }

  /** Expands items of an outline (`recursive`: their descendants too); the diff of the visible rows. */
  expand(source, ids, options) {
    const { params, requestOptions } = paramsFrom('expand', options);
    return this.request('expand', { source, ids, ...params }, requestOptions);
  }

  /** Collapses items of an outline (`recursive`: their descendants too); the diff of the visible rows. */
  collapse(source, ids, options) {
    const { params, requestOptions } = paramsFrom('collapse', options);
    return this.request('collapse', { source, ids, ...params }, requestOptions);
  }

  /** Where an item is in its outline: `{id, parent, level, children, hasChildren, expanded, visible, path}`. */
  outline(source, id, options) {
    const { requestOptions } = paramsFrom('outline', options);
    return this.request('outline', { source, id }, requestOptions);
  }

  snapshot(source, options) {
    const { params, requestOptions } = paramsFrom('snapshot', options);
    return this.request('snapshot', { source, ...params }, requestOptions);
  }

  sources(options) {
    const { requestOptions } = paramsFrom('sources', options);
    return this.request('sources', undefined, requestOptions);
  }

  drop(source, options) {
    const { requestOptions } = paramsFrom('drop', options);
    return this.request('drop', { source }, requestOptions);
  }
}

// A request method of the contract with no function above (a method the daemon gained) gets one
// made from it: the members its params require, positional in the schema's order, then an options
// object with the others and the request options (types: `ContractMethods` in types.d.ts).
for (const [method, contract] of Object.entries(methods)) {
  if (contract.kind !== 'request' || method === 'initialize' || method === 'shutdown' || method in Client.prototype) continue;
  Object.defineProperty(Client.prototype, method, { value: contractFunction(method), writable: true, configurable: true });
}

/** The function `Client` gets for `method` from the contract (exported for tests). */
export function contractFunction(method) {
  const contract = methods[method];
  const positional = contract.required.filter((key) => key !== 'workDoneToken');
  POSITIONAL[method] = positional;
  OPTION_KEYS[method] = contract.params.filter((key) => !positional.includes(key) && key !== 'workDoneToken');
  return {
    [method](...args) {
      if (args.length < positional.length || args.length > positional.length + 1) {
        throw new TypeError(`${method}: takes ${positional.length} argument(s) (${positional.join(', ') || 'none'}) and an options object, got ${args.length}`);
      }
      const { params, requestOptions } = paramsFrom(method, args[positional.length]);
      const fixed = Object.fromEntries(positional.map((key, index) => [key, args[index]]));
      return this.request(method, { ...fixed, ...params }, requestOptions);
    },
  }[method];
}

if (typeof Symbol.asyncDispose === 'symbol') {
  Client.prototype[Symbol.asyncDispose] = function dispose() {
    return this.close();
  };
}
