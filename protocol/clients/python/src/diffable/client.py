"""The synchronous client: the daemon as a child process, answers matched by id.

Threads: a reader thread reads the daemon's output, hands each response to
the waiting caller and runs notification callbacks (so callbacks run on that
thread, must be quick, and cannot wait for a request: they may send
notifications and `send_request`, not `request`). A second thread keeps the
tail of the daemon's stderr for `DaemonExited`.
"""
from __future__ import annotations

import subprocess
import threading
from types import TracebackType
from typing import IO, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Type, cast

from . import params as build
from .core import CLOSE_GRACE, DEFAULT_TIMEOUT, ClientCore, ProgressCallback, log
from .discovery import DaemonSpec
from .errors import ClientClosed, DaemonExited, DiffableError
from .pending import _EXITED, PendingRequest
from .types import (DiffForm, DiffResult, DropResult, Echo, Updates, HighlightsResult, InitializationOptions,
                    InitializeResult, ItemIn, OutlineResult, Path, ProgressToken, RowsResult, SearchMode, SearchOrder, SearchResult, SearchScheme, SearchTiebreak,
                    SectionIn, SelectAction, SelectionPolicy, SelectionResult, SelectResult, SnapshotResult,
                    SourcesResult, ViewportIn, ViewportResult)
from .version import warn_about_daemon_version
from .wire import Framing, FramingError, JsonObject, Message, content_length, decode_body, encode


class Client(ClientCore):
    """The daemon as a child process. `with Client() as c: c.apply(...)`.

    `daemon`: a path or argv list (else found as `diffable.find_daemon` says);
    `daemon_args`: extra arguments such as `["--log-level", "info"]`;
    `initialization_options`: sent with `initialize` (e.g. `{"form": "steps"}`);
    `timeout`: default seconds per request (None: wait forever); `initialize` waits at least
    30 s whatever it is (a process start on a busy machine is not a request's latency);
    `framing`: "content-length" (LSP, default) or "newline".
    A daemon whose `serverInfo.version` has another MAJOR.MINOR than `diffable.__version__` gets one
    `DaemonVersionWarning` (`warnings.warn`) once it has answered `initialize`.
    """

    def __init__(self, daemon: Optional[DaemonSpec] = None, *, daemon_args: Sequence[str] = (),
                 initialization_options: Optional[InitializationOptions] = None,
                 timeout: Optional[float] = DEFAULT_TIMEOUT, framing: Framing = "content-length",
                 stderr_lines: int = 50) -> None:
        super().__init__(daemon, daemon_args, initialization_options, timeout, framing, stderr_lines)
        self._pending: Dict[int, PendingRequest] = {}
        self._last_search: Dict[str, PendingRequest] = {}  # source -> its last answered search (guarded by _lock)
        self._lock = threading.Lock()  # guards _pending, _closed and writes to stdin
        self._closed = False
        self._output_closed = False
        self._process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        self._reader = threading.Thread(target=self._read_loop, name="diffable-reader", daemon=True)
        self._stderr_reader = threading.Thread(target=self._stderr_loop, name="diffable-stderr", daemon=True)
        self._reader.start()
        self._stderr_reader.start()
        try:
            self.initialize_result = self.request("initialize", build.initialize(initialization_options),
                                                  timeout=self._startup_timeout())
            self.notify("initialized", {})
            warn_about_daemon_version(self.initialize_result, self.argv[0], stacklevel=2)
        except BaseException:
            self.close(grace=1.0)
            raise

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> Optional[int]:
        return self._process.poll()

    # -- transport -------------------------------------------------------------------------------

    def _write(self, message: Message) -> None:
        stdin = cast(IO[bytes], self._process.stdin)
        with self._lock:
            if self._closed:
                raise ClientClosed("the client is closed")
            try:
                stdin.write(encode(message, self.framing))
                stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                raise self._exited("while writing a message") from None

    def _read_message(self, stdout: IO[bytes]) -> Optional[Message]:
        """The next message, or None at end of output."""
        if self.framing == "newline":
            while True:
                line = stdout.readline()
                if not line:
                    return None
                if line.strip():
                    return decode_body(line)
        headers: List[bytes] = []
        while True:
            line = stdout.readline()
            if not line:
                return None
            line = line.strip()
            if line:
                headers.append(line)
            elif headers:
                break
        length = content_length(headers)
        body = stdout.read(length)
        if len(body) < length:
            return None
        return decode_body(body)

    def _read_loop(self) -> None:
        stdout = cast(IO[bytes], self._process.stdout)
        try:
            while True:
                message = self._read_message(stdout)
                if message is None:
                    break
                for one in message if isinstance(message, list) else [message]:
                    if isinstance(one, dict):
                        self._dispatch(one)
        except FramingError as error:
            log.error("diffable: unreadable output from the daemon, giving up: %s", error)
        finally:
            with self._lock:
                self._output_closed = True
                waiting, self._pending = list(self._pending.values()), {}
            self._settle_all_refinements(_EXITED)
            for pending in waiting:
                pending._settle_refinement(_EXITED)
                pending._resolve(_EXITED)

    def _dispatch(self, message: JsonObject) -> None:
        if "method" not in message:  # a response
            request_id = message.get("id")
            with self._lock:
                pending = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
            if pending is not None:
                if pending.method == "search":  # before the caller sees the answer, so `refinement` knows it
                    source = self._search_answered(message, pending._settle_refinement)
                    if source is not None:
                        with self._lock:
                            self._last_search[source] = pending
                pending._resolve(message)
            elif request_id is None:  # the daemon could not read something we sent
                log.warning("diffable: error response without id: %s", message.get("error"))
            # else: the late answer of an abandoned (timed out) request
        elif "id" in message:  # a request from the daemon
            try:
                self._write(self._reply_to_server_request(message))
            except DiffableError:
                pass
        else:
            if message["method"] == "searchRefined":
                self._search_refined(message.get("params"))
            for callback, argument in self._notification_calls(message["method"], message.get("params")):
                try:
                    callback(argument)
                except Exception:  # a callback's bug must not stop the reader
                    log.exception("diffable: notification callback for %s raised", message["method"])

    def _stderr_loop(self) -> None:
        for line in cast(IO[bytes], self._process.stderr):
            self._note_stderr(line)

    def _exited(self, context: str) -> DaemonExited:
        try:
            returncode: Optional[int] = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            returncode = None
        self._stderr_reader.join(timeout=1.0)
        return DaemonExited(returncode, self.stderr_tail, context)

    def _abandon(self, request_id: int) -> None:
        with self._lock:
            still_pending = self._pending.pop(request_id, None) is not None
        if still_pending:
            try:
                self.cancel(request_id)
            except DiffableError:
                pass

    # -- generic requests ------------------------------------------------------------------------

    def send_request(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
                     progress: Optional[ProgressCallback] = None,
                     work_done_token: Optional[ProgressToken] = None) -> PendingRequest:
        """Sends a request without waiting; `.result()` waits. Lets requests be pipelined."""
        request_id = self._next_id()
        sent, token = self._attach_progress(request_id, dict(params) if params is not None else None,
                                            progress, work_done_token)
        pending = PendingRequest(self, request_id, method, token)
        with self._lock:
            if self._closed:
                self._forget_progress(token)
                raise ClientClosed("the client is closed")
            if self._output_closed:
                self._forget_progress(token)
                raise self._exited(f"before {method} was sent")
            self._pending[request_id] = pending
        message: JsonObject = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if sent is not None:
            message["params"] = sent
        try:
            self._write(message)
        except DiffableError:
            with self._lock:
                self._pending.pop(request_id, None)
            self._forget_progress(token)
            raise
        return pending

    def request(self, method: str, params: Optional[Mapping[str, Any]] = None, *, timeout: Optional[float] = None,
                progress: Optional[ProgressCallback] = None, work_done_token: Optional[ProgressToken] = None) -> Any:
        """Sends a request and returns its result (see `PendingRequest.result` for what it raises)."""
        return self.send_request(method, params, progress=progress, work_done_token=work_done_token).result(timeout)

    def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._write(message)

    def cancel(self, request_id: int) -> None:
        """`$/cancelRequest`: the request is answered -32800 if it has not started running yet."""
        self.notify("$/cancelRequest", {"id": request_id})

    # -- methods ---------------------------------------------------------------------------------

    def apply(self, source: str, sections: Iterable[SectionIn], *, form: Optional[DiffForm] = None,
              base_version: Optional[int] = None, viewport: Optional[ViewportIn] = build.UNSET,
              echo: Optional[Echo] = None, updates: Optional[Updates] = None, timeout: Optional[float] = None,
              progress: Optional[ProgressCallback] = None,
              work_done_token: Optional[ProgressToken] = None) -> DiffResult:
        """Replaces the source's snapshot (creating it); the diff of the visible snapshot.
        `viewport={"start", "count"}` sets the window with the change (`None` sends null: removes it;
        leaving it out sends nothing); `echo="ids"` leaves out the content of the rows this request sent
        (`Frontend.sending` fills it back in); `updates="patch"` has rows the frontend holds come back as
        JSON Patches of their content (`Frontend` applies them)."""
        return cast(DiffResult, self.request("apply", build.apply(source, sections, form, base_version, viewport, echo, updates),
                                             timeout=timeout, progress=progress, work_done_token=work_done_token))

    def edit(self, source: str, ops: Iterable[Mapping[str, Any]], *, form: Optional[DiffForm] = None,
             base_version: Optional[int] = None, viewport: Optional[ViewportIn] = build.UNSET,
             echo: Optional[Echo] = None, updates: Optional[Updates] = None, timeout: Optional[float] = None,
             progress: Optional[ProgressCallback] = None,
             work_done_token: Optional[ProgressToken] = None) -> DiffResult:
        """Applies snapshot ops (see `diffable.ops`) atomically; the diff. `viewport=`, `echo=`, `updates=` as for `apply`."""
        return cast(DiffResult, self.request("edit", build.edit(source, ops, form, base_version, viewport, echo, updates),
                                             timeout=timeout, progress=progress, work_done_token=work_done_token))

    def search(self, source: str, query: str, *, sections: Optional[Sequence[str]] = None,
               mode: Optional[SearchMode] = None, order: Optional[SearchOrder] = None, limit: Optional[int] = None,
               placeholder: Optional[ItemIn] = None, highlight_limit: Optional[int] = None,
               form: Optional[DiffForm] = None, base_version: Optional[int] = None,
               viewport: Optional[ViewportIn] = build.UNSET, scheme: Optional[SearchScheme] = None,
               tiebreak: Optional[Sequence[SearchTiebreak]] = None, fields: Optional[Sequence[str]] = None,
               progressive: Optional[bool] = None, timeout: Optional[float] = None,
               progress: Optional[ProgressCallback] = None,
               work_done_token: Optional[ProgressToken] = None) -> SearchResult:
        """Filters the source (`query=""` clears); the diff plus `search` counts and `highlights`.
        `viewport=` as for `apply`; `fields=` searches those members / JSON pointers of the content
        instead of each item's text (highlights then carry `fields`). `progressive=True`: a search slower
        than the frame budget answers from a sample (`search["partial"]`), then the exact window comes as a
        `searchRefined` notification: `refinement(source)` waits for it (protocol/methods/search.md)."""
        params = build.search(source, query, sections, mode, order, limit, placeholder, highlight_limit, form,
                              base_version, viewport, scheme, tiebreak, fields, progressive)
        return cast(SearchResult, self.request("search", params, timeout=timeout, progress=progress,
                                               work_done_token=work_done_token))

    def refinement(self, source: str, *, timeout: Optional[float] = None) -> Optional[SearchResult]:
        """The `searchRefined` of the last search answer of `source` this client received (see
        `PendingRequest.refinement`): waits for it when that answer was partial; None when it was exact,
        when a later search's answer came first, or when no search of `source` was answered yet.
        Apply it after that answer and before the next one: `Frontend.update(c.refinement(source))`."""
        with self._lock:
            pending = self._last_search.get(source)
        return pending.refinement(timeout) if pending is not None else None

    def select(self, source: str, *, action: Optional[SelectAction] = None, ids: Optional[Sequence[str]] = None,
               paths: Optional[Sequence[Path]] = None, sections: Optional[Sequence[str]] = None,
               base_version: Optional[int] = None, timeout: Optional[float] = None) -> SelectResult:
        return cast(SelectResult, self.request(
            "select", build.select(source, action, ids, paths, sections, base_version), timeout=timeout))

    def set_selection_mode(self, source: str, sections: Mapping[str, SelectionPolicy], *,
                           timeout: Optional[float] = None) -> SelectResult:
        return cast(SelectResult, self.request("setSelectionMode", build.set_selection_mode(source, sections),
                                               timeout=timeout))

    def selection(self, source: str, *, timeout: Optional[float] = None) -> SelectionResult:
        return cast(SelectionResult, self.request("selection", build.source_only(source, "selection"), timeout=timeout))

    def highlights(self, source: str, section: int, *, start: Optional[int] = None, count: Optional[int] = None,
                   timeout: Optional[float] = None) -> HighlightsResult:
        return cast(HighlightsResult, self.request("highlights", build.highlights(source, section, start, count),
                                                   timeout=timeout))

    def viewport(self, source: str, *, start: Optional[int] = None, count: Optional[int] = None,
                 timeout: Optional[float] = None) -> ViewportResult:
        """Sets the window to flat rows `start ..< start + count` (a scroll); `count` 0 or None removes it
        (`window: None`). While a source has a viewport, change results carry `window` (the window form)."""
        return cast(ViewportResult, self.request("viewport", build.viewport(source, start, count), timeout=timeout))

    def rows(self, source: str, *, start: Optional[int] = None, count: Optional[int] = None,
             timeout: Optional[float] = None) -> RowsResult:
        """Flat rows `start ..< start + count` (default 0 and 100) without moving the window."""
        return cast(RowsResult, self.request("rows", build.viewport(source, start, count, "rows"), timeout=timeout))

    def expand(self, source: str, ids: Sequence[str], *, recursive: Optional[bool] = None,
               form: Optional[DiffForm] = None, base_version: Optional[int] = None,
               timeout: Optional[float] = None) -> DiffResult:
        """Outlines: expands the items (`recursive=True`: their descendants too); the diff of the visible
        rows (revealed descendants inserted, the toggled rows reloaded). Unknown id: `UnknownId` (1003)."""
        return cast(DiffResult, self.request("expand", build.outline_change(source, ids, recursive, form,
                                                                             base_version), timeout=timeout))

    def collapse(self, source: str, ids: Sequence[str], *, recursive: Optional[bool] = None,
                 form: Optional[DiffForm] = None, base_version: Optional[int] = None,
                 timeout: Optional[float] = None) -> DiffResult:
        """Outlines: collapses the items (`recursive=True`: their descendants too); the diff of the visible rows."""
        return cast(DiffResult, self.request("collapse", build.outline_change(source, ids, recursive, form,
                                                                               base_version, "collapse"), timeout=timeout))

    def outline(self, source: str, item_id: str, *, timeout: Optional[float] = None) -> OutlineResult:
        """Outlines: where `item_id` is (`parent`, `level`, `children` count, `hasChildren`, `expanded`,
        `visible`, `path`). Unknown id: `UnknownId` (1003)."""
        return cast(OutlineResult, self.request("outline", build.outline(source, item_id), timeout=timeout))

    def snapshot(self, source: str, *, full: Optional[bool] = None,
                 timeout: Optional[float] = None) -> SnapshotResult:
        return cast(SnapshotResult, self.request("snapshot", build.snapshot(source, full), timeout=timeout))

    def sources(self, *, timeout: Optional[float] = None) -> SourcesResult:
        return cast(SourcesResult, self.request("sources", timeout=timeout))

    def drop(self, source: str, *, timeout: Optional[float] = None) -> DropResult:
        return cast(DropResult, self.request("drop", build.source_only(source, "drop"), timeout=timeout))

    @property
    def server_info(self) -> InitializeResult:
        return cast(InitializeResult, self.initialize_result)

    # -- shutting down ---------------------------------------------------------------------------

    def close(self, grace: float = CLOSE_GRACE) -> Optional[int]:
        """`shutdown`, `exit`, then waits `grace` s for the process (killing it after that).
        Idempotent. Returns the exit status (0 after a clean shutdown)."""
        if not self._closed:
            for step in (lambda: self.request("shutdown", timeout=grace), lambda: self.notify("exit")):
                try:
                    step()
                except DiffableError:  # already shut down, or already gone: closing anyway
                    pass
            with self._lock:
                self._closed = True
            try:
                cast(IO[bytes], self._process.stdin).close()
            except OSError:
                pass
        try:
            self._process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._reader.join(timeout=grace)
        self._stderr_reader.join(timeout=grace)
        for stream in (self._process.stdout, self._process.stderr):
            if stream is not None:
                stream.close()
        return self._process.returncode


# Methods of the contract with no function above (a method the daemon gained) get one made from it.
build.contract_functions(Client, asynchronous=False)
