import type {
  ChangeResult, DiffForm, Highlight, ItemInput, Json, Path, SectionInput, SelectionChange, SelectionMode,
  SnapshotResult, WindowRow, FullSnapshotResult, OutlineResult, SelectionDelta,
} from './frontend.js';
import type { ErrorCodeTable, Echo, SearchMode, SearchOrder, SearchScheme, SearchTiebreak, SelectAction, Updates } from './contract.js';

export * from './frontend.js';

/** This package's version: one number for the daemon and every client package (package.json's). */
export const version: string;

export interface ServerInfo { name: string; version: string }
export interface Capabilities { methods: string[]; diffForms: DiffForm[]; defaultForm: DiffForm; framings: string[]; viewports?: boolean; echo?: Echo[]; updates?: Updates[] }
export interface InitializeResult { serverInfo: ServerInfo; capabilities: Capabilities }

/** `"ids"`: rows the client just sent (apply/edit inserts and reloads) come back with their id only. */
export type { Echo, ErrorCodeTable, SearchMode, SearchOrder, SearchScheme, SearchTiebreak, SelectAction, Updates } from './contract.js';

export interface InitializationOptions {
  form?: DiffForm;
  echo?: Echo;
  updates?: Updates;
  supersedeSearches?: boolean;
  [key: string]: unknown;
}

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

export interface ProgressValue { kind: 'begin' | 'report' | 'end'; title?: string; percentage?: number; message?: string; cancellable?: boolean }

export interface ProgressOptions extends RequestOptions {
  /** Generates a `workDoneToken` and receives the `$/progress` values sent for it. */
  onProgress?(value: ProgressValue, token: string): void;
}

/** A viewport: flat rows `start ..< start + count` (`count` ≤ 10000); `null` or `count: 0` removes it. */
export interface Viewport { start?: number; count: number }

export interface ChangeOptions extends ProgressOptions {
  baseVersion?: number;
  form?: DiffForm;
  /** Sets (or with null removes) the source's viewport in the same request; answers then carry `window`. */
  viewport?: Viewport | null;
}

export interface ApplyOptions extends ChangeOptions { echo?: Echo; updates?: Updates }

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
/** One RFC 6902 op. */
export type PatchOp =
  | { op: 'add' | 'replace' | 'test'; path: string; value: Json }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };
/** `document` with the ops applied (not modified); throws PatchError naming the failing op. */
export function applyPatch(document: Json, patch: PatchOp[]): Json;
/** The `patchContent` edit op. */
export function patchContent(id: string, patch: PatchOp[]): EditOp;
export function parsePointer(pointer: string): string[];
export function escapeToken(token: string): string;
export function jsonEqual(a: Json, b: Json): boolean;
export class PatchError extends Error { index: number }
type Position = { before: string; after?: never } | { after: string; before?: never };

export interface SelectOptions extends RequestOptions {
  action?: SelectAction;
  ids?: string[];
  paths?: Path[];
  sections?: string[];
  baseVersion?: number;
}

export interface SearchOptions extends ChangeOptions {
  sections?: string[];
  mode?: SearchMode;
  order?: SearchOrder;
  limit?: number;
  scheme?: SearchScheme;
  tiebreak?: SearchTiebreak[];
  /** Member names of object content or JSON pointers (`/meta/path`) searched instead of each item's text. */
  fields?: string[];
  placeholder?: { id: string; content?: Json };
  highlightLimit?: number;
}

export interface OutlineChangeOptions extends RequestOptions { recursive?: boolean; form?: DiffForm; baseVersion?: number }

export interface Policy { mode: SelectionMode; allowsEmpty?: boolean }

/** `selection` is absent when it has nothing to say (no change and no selected rows to report). */
export interface SelectResult extends ChangeResult { selection?: SelectionDelta }
export interface SelectionResult { source: string; version: number; selected: SelectionChange[]; policies: Record<string, Policy> }
export interface SearchInfo { query: string; matches: number; shown: number }
/** `highlights` is absent when the answer comes as a window (`viewport`): its rows carry them. */
export interface SearchResult extends ChangeResult { search: SearchInfo; highlights?: Highlight[] }
export interface HighlightsResult { source: string; version: number; highlights: Highlight[] }
export interface RowsResult { source: string; version: number; total: number; start: number; rows: WindowRow[] }
export interface SourceInfo { source: string; version: number; sections: number; items: number }
export interface SourcesResult { sources: SourceInfo[] }
export interface DropResult { source: string; dropped: true }

export interface LateResponse { id: number; method: string | undefined; result?: unknown; error?: RpcError }

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

  apply(source: string, sections: SectionInput[], options?: ApplyOptions): Promise<ChangeResult>;
  edit(source: string, ops: EditOp[], options?: ApplyOptions): Promise<ChangeResult>;
  select(source: string, options: SelectOptions): Promise<SelectResult>;
  setSelectionMode(source: string, sections: Record<string, Policy>, options?: RequestOptions): Promise<ChangeResult>;
  selection(source: string, options?: RequestOptions): Promise<SelectionResult>;
  search(source: string, query: string, options?: SearchOptions): Promise<SearchResult>;
  highlights(source: string, section: number, options?: RequestOptions & { start?: number; count?: number }): Promise<HighlightsResult>;
  /** Sets the window (`count` 0 or absent removes it: `window: null`); answers how the held rows become the new window's. */
  viewport(source: string, options?: RequestOptions & { start?: number; count?: number }): Promise<ChangeResult>;
  /** Flat rows `start ..< start + count` (`count` default 100) without moving the window. */
  rows(source: string, options?: RequestOptions & { start?: number; count?: number }): Promise<RowsResult>;
  /** Outlines: expands the items (`recursive`: their descendants too); the diff of the visible rows. Unknown id: RpcError 1003. */
  expand(source: string, ids: string[], options?: OutlineChangeOptions): Promise<ChangeResult>;
  /** Outlines: collapses the items (`recursive`: their descendants too); the diff of the visible rows. */
  collapse(source: string, ids: string[], options?: OutlineChangeOptions): Promise<ChangeResult>;
  /** Outlines: where `id` is (`parent`, `level`, `children` count, `hasChildren`, `expanded`, `visible`, `path`). */
  outline(source: string, id: string, options?: RequestOptions): Promise<OutlineResult>;
  snapshot(source: string, options?: RequestOptions & { full?: false }): Promise<SnapshotResult>;
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
