import type { FullSnapshotResult, VisibleSnapshotResult } from './frontend.js';
import type { ErrorCodeTable } from './contract.js';
import type {
  ApplyParams, ApplyResult, CollapseResult, ContractMethods, DropResult, EditParams, EditResult, ExpandParams,
  ExpandResult, HighlightsParams, HighlightsResult, InitializationOptions, InitializeResult, ItemInput, Json, OutlineResult,
  PatchOp, ProgressValue, RowsParams, RowsResult, SearchParams, SearchRefinedParams, SearchResult, SectionInput, SelectParams,
  SelectResult, SelectionResult, SetSelectionModeParams, SetSelectionModeResult, SourcesResult, ViewportParams,
  ViewportResult,
} from './types.js';

// The wire shapes (every method's `…Params` and `…Result`, and what they hold) are generated from
// protocol/schemas into types.d.ts; frontend.d.ts re-exports the ones its model uses.
export * from './types.js';
export * from './frontend.js';

/** This package's version: one number for the daemon and every client package (package.json's). */
export const version: string;

/** `"ids"`: rows the client just sent (apply/edit inserts and reloads) come back with their id only. */
export type { Echo, ErrorCodeTable, SearchMode, SearchOrder, SearchScheme, SearchTiebreak, SelectAction, Updates } from './contract.js';

export interface FindOptions {
  /** A path, or an argv whose first element is a path or a command on PATH. Authoritative when given. */
  daemon?: string | string[];
  /** Where $DIFFABLE_BIN and $PATH are read; also the daemon's environment. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Where the walk up to Package.swift starts (default: this package's folder). */
  searchFrom?: string;
  /** Where the bundled daemon `bin/diffable` is looked for (default: this package's folder). */
  packageDir?: string;
}

export interface StartOptions extends FindOptions {
  /** Extra daemon arguments, e.g. ['--log-level', 'info']. */
  args?: string[];
  cwd?: string;
  /** Passed through as `initialize {initializationOptions}`. */
  initializationOptions?: InitializationOptions;
  /** Default per-request timeout in ms (default: none). */
  timeout?: number;
  /** Timeout of `initialize` in ms (default 10000). */
  startTimeout?: number;
  /** Grace period of `close()` before SIGTERM, and again before SIGKILL (default 2000 ms). */
  closeGrace?: number;
  /** 'pipe' (default: kept as a tail for DaemonExitedError, and passed to onStderr) or 'inherit'. */
  stderr?: 'pipe' | 'inherit';
  onStderr?(text: string): void;
  /**
   * Called once after `initialize` when the daemon's `serverInfo.version` has another MAJOR.MINOR than
   * `version` (default: console.warn of `diffable: ` + the message). Throwing rejects `start` and stops the daemon.
   */
  onWarning?(warning: DaemonVersionWarning): void;
}

export interface RequestOptions {
  /** ms; on expiry `$/cancelRequest` is sent and the promise rejects with RequestTimeoutError. */
  timeout?: number;
  /** On abort `$/cancelRequest` is sent and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface ProgressOptions extends RequestOptions {
  /** Generates a `workDoneToken` and receives the `$/progress` values sent for it. */
  onProgress?(value: ProgressValue, token: string): void;
}

/**
 * `baseVersion`, `form`, and `viewport`: sets (or with null removes) the source's viewport in the same
 * request; answers then carry `window`.
 */
export interface ChangeOptions extends ProgressOptions, Pick<ApplyParams, 'baseVersion' | 'form' | 'viewport'> {}

/** `apply`'s and `edit`'s members beside the positional ones (`echo`, `updates`, …). */
export interface ApplyOptions extends ProgressOptions, Omit<ApplyParams & EditParams, Positional | 'sections' | 'ops'> {}
/** The members a method's params have beside `source` and `workDoneToken` (the client adds those). */
type Positional = 'source' | 'workDoneToken';

/**
 * An op `edit` takes: the schema's `EditParamsOp` (generated) with what its constraints between
 * members say as types: exactly one of `before`/`after`, `section` or `parent`, never both
 * (tests/typecheck/usage.ts checks every EditOp is an EditParamsOp).
 */
export type EditOp =
  | { op: 'appendSections'; sections: SectionInput[] }
  | ({ op: 'insertSections'; sections: SectionInput[] } & Position)
  | { op: 'deleteSections'; ids: string[] }
  | ({ op: 'moveSection'; id: string } & Position)
  | { op: 'reloadSections'; ids: string[] }
  | { op: 'setHeaders'; sections: { id: string; header?: Json }[] }
  | { op: 'appendItems'; items: ItemInput[]; section?: string; parent?: never }
  /** Outlines: appends as the last children of `parent`. */
  | { op: 'appendItems'; items: ItemInput[]; parent: string; section?: never }
  /** Outlines: moves the item and its subtree to the end of `parent`'s children. */
  | { op: 'moveItem'; id: string; parent: string; before?: never; after?: never }
  /** Outlines: replaces the children of `parent` (their subtrees are deleted). */
  | { op: 'replaceChildren'; parent: string; items: ItemInput[] }
  | { op: 'expand' | 'collapse'; ids: string[]; recursive?: boolean }
  | ({ op: 'insertItems'; items: ItemInput[] } & Position)
  | { op: 'deleteItems'; ids: string[] }
  | { op: 'deleteAllItems' }
  | ({ op: 'moveItem'; id: string } & Position)
  | { op: 'reloadItems'; ids: string[] }
  | { op: 'reconfigureItems'; ids: string[] }
  | { op: 'setContent'; items: { id: string; content?: Json }[]; style?: 'reload' | 'reconfigure' }
  /** An RFC 6902 patch of the item's content as the ops before it left it (protocol/README.md, "Field-level updates"). */
  | { op: 'patchContent'; id: string; patch: PatchOp[] };
/** `document` with the ops applied (not modified); throws PatchError naming the failing op. */
export function applyPatch(document: Json, patch: PatchOp[]): Json;
/** The `patchContent` edit op. */
export function patchContent(id: string, patch: PatchOp[]): EditOp;
export function parsePointer(pointer: string): string[];
export function escapeToken(token: string): string;
export function jsonEqual(a: Json, b: Json): boolean;
export class PatchError extends Error { index: number }
type Position = { before: string; after?: never } | { after: string; before?: never };

export interface SelectOptions extends RequestOptions, Omit<SelectParams, Positional> {}

/** `fields`: member names of object content or JSON pointers (`/meta/path`) searched instead of each item's text. */
export interface SearchOptions extends ProgressOptions, Omit<SearchParams, Positional | 'query'> {}

export interface OutlineChangeOptions extends RequestOptions, Omit<ExpandParams, Positional | 'ids'> {}

/** `highlights`' members beside `source` and `section`. */
export type HighlightsOptions = RequestOptions & Omit<HighlightsParams, Positional | 'section'>;
/** `viewport`'s and `rows`' members beside `source`. */
export type WindowOptions = RequestOptions & Omit<ViewportParams & RowsParams, Positional>;

export interface LateResponse { id: number; method: string | undefined; result?: unknown; error?: RpcError }

/** The methods `Client` has a function of its own for (below); see `ContractMethods`. */
export type OwnMethod = 'apply' | 'edit' | 'search' | 'select' | 'setSelectionMode' | 'selection' | 'highlights' | 'viewport'
  | 'rows' | 'expand' | 'collapse' | 'outline' | 'snapshot' | 'sources' | 'drop';

/**
 * A request method the daemon gained, with no function of its own below, has one made from the
 * contract (client.js): `client.<method>(required params…, options?)`, typed by `ContractMethods`.
 */
export interface Client extends Omit<ContractMethods<RequestOptions>, OwnMethod> {}

export class Client implements AsyncDisposable {
  /** Finds and spawns the daemon, sends `initialize` + `initialized`. */
  static start(options?: StartOptions): Promise<Client>;
  constructor(argv: string[], options?: StartOptions);
  readonly argv: string[];
  readonly initializeResult: InitializeResult | undefined;
  readonly serverInfo: InitializeResult['serverInfo'] | undefined;
  readonly capabilities: InitializeResult['capabilities'] | undefined;
  readonly pid: number | undefined;
  /** Resolves when the process has ended. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  request<T = unknown>(method: string, params?: object, options?: ProgressOptions): Promise<T>;
  notify(method: string, params?: object): void;
  /** `'*'` receives every notification. Returns an unsubscribe function. */
  onNotification(method: string, callback: (params: any, method: string) => void): () => void;
  /** Answers to timed-out or aborted requests the daemon ran anyway. */
  onLateResponse(callback: (late: LateResponse) => void): () => void;
  /** shutdown + exit; waits, then SIGTERM, then SIGKILL after `grace` ms each. */
  close(options?: { grace?: number }): Promise<{ code: number | null; signal: string | null }>;
  kill(signal?: NodeJS.Signals): void;
  [Symbol.asyncDispose](): Promise<void>;

  apply(source: string, sections: SectionInput[], options?: ApplyOptions): Promise<ApplyResult>;
  edit(source: string, ops: EditOp[], options?: ApplyOptions): Promise<EditResult>;
  select(source: string, options: SelectOptions): Promise<SelectResult>;
  setSelectionMode(source: string, sections: SetSelectionModeParams['sections'], options?: RequestOptions): Promise<SetSelectionModeResult>;
  selection(source: string, options?: RequestOptions): Promise<SelectionResult>;
  /** `progressive: true`: a slow search answers from a sample (`search.partial`), then `refinement` brings the exact window. */
  search(source: string, query: string, options?: SearchOptions): Promise<SearchResult>;
  /**
   * The `searchRefined` params following a partial search answer (`of`: that result object, or a
   * source name for its last search answer): apply it after the answer. null when the answer was
   * exact or the next search of its source was answered first (which dropped it). Rejects with
   * RefinementTimeoutError after `timeout` ms (default the client's), or DaemonExitedError.
   */
  refinement(of: SearchResult | string, options?: { timeout?: number }): Promise<SearchRefinedParams | null>;
  highlights(source: string, section: number, options?: HighlightsOptions): Promise<HighlightsResult>;
  /** Sets the window (`count` 0 or absent removes it: `window: null`); answers how the held rows become the new window's. */
  viewport(source: string, options?: WindowOptions): Promise<ViewportResult>;
  /** Flat rows `start ..< start + count` (`count` default 100) without moving the window. */
  rows(source: string, options?: WindowOptions): Promise<RowsResult>;
  /** Outlines: expands the items (`recursive`: their descendants too); the diff of the visible rows. Unknown id: RpcError 1003. */
  expand(source: string, ids: string[], options?: OutlineChangeOptions): Promise<ExpandResult>;
  /** Outlines: collapses the items (`recursive`: their descendants too); the diff of the visible rows. */
  collapse(source: string, ids: string[], options?: OutlineChangeOptions): Promise<CollapseResult>;
  /** Outlines: where `id` is (`parent`, `level`, `children` count, `hasChildren`, `expanded`, `visible`, `path`). */
  outline(source: string, id: string, options?: RequestOptions): Promise<OutlineResult>;
  snapshot(source: string, options?: RequestOptions & { full?: false }): Promise<VisibleSnapshotResult>;
  /** `full: true`: every item, nested (outlines: the tree). */
  snapshot(source: string, options: RequestOptions & { full: true }): Promise<FullSnapshotResult>;
  sources(options?: RequestOptions): Promise<SourcesResult>;
  drop(source: string, options?: RequestOptions): Promise<DropResult>;
}

export function findDaemon(options?: FindOptions): string[];

export function encodeMessage(message: unknown): Buffer;
export class MessageReader {
  constructor(onMessage: (message: unknown) => void);
  /** Throws ProtocolError on an unreadable header block or body. */
  push(chunk: Buffer): void;
}

export class RpcError extends Error {
  readonly code: number;
  /** The daemon's message (`message` also names the method and code). */
  readonly rpcMessage: string;
  readonly data?: any;
  readonly method: string;
}
export class DaemonNotFoundError extends Error { readonly searched: string[] }
export class DaemonExitedError extends Error {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail: string;
}
export class RequestTimeoutError extends Error { readonly method: string; readonly id: number; readonly timeout: number }
/** `Client.refinement` waited `timeout` ms for a `searchRefined` of `source`. */
export class RefinementTimeoutError extends Error { readonly source: string; readonly timeout: number }
export class ProtocolError extends Error {}
export class ReplayError extends Error {}
/** What `StartOptions.onWarning` gets when the daemon's MAJOR.MINOR is not this package's. */
export class DaemonVersionWarning extends Error {
  /** The daemon's `serverInfo.version`. */
  readonly daemonVersion: string;
  /** This package's `version`. */
  readonly clientVersion: string;
  /** The daemon program that was started. */
  readonly daemon: string;
}
/** JSON-RPC / diffable error codes by name (contract.d.ts, generated from protocol/schemas). */
export const ErrorCodes: ErrorCodeTable;
