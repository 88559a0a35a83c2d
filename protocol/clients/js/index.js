// diffable-client: a zero-dependency Node client for the diffable daemon.
export { Client } from './client.js';
export { RefinementTimeoutError } from './refinements.js';
export { findDaemon } from './discovery.js';
export { version } from './version.js';
export { Frontend, replayBatch, replaySteps, replayStep, replayWindow, diffForms } from './frontend.js';
export { encodeMessage, MessageReader } from './framing.js';
export { applyPatch, patchContent, parsePointer, escapeToken, jsonEqual, PatchError } from './jsonpatch.js';
export {
  RpcError, DaemonNotFoundError, DaemonExitedError, RequestTimeoutError, ProtocolError, ReplayError, ErrorCodes,
  DaemonVersionWarning,
} from './errors.js';
