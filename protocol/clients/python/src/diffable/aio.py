"""The asyncio client: `async with AsyncClient() as c: await c.apply(...)`.

Same API as `Client`, awaited. A reader task dispatches responses to their
futures and runs notification callbacks in the event loop (a callback may be
a coroutine function: its coroutine is scheduled as a task). Cancelling the
task awaiting a request sends `$/cancelRequest` for it.
"""
from __future__ import annotations

import asyncio
import inspect
import math
from types import TracebackType
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Type, cast

from . import params as build
from .core import CLOSE_GRACE, DEFAULT_TIMEOUT, ClientCore, ProgressCallback, log
from .discovery import DaemonSpec
from .errors import ClientClosed, DaemonExited, DiffableError, RefinementTimeout, RequestTimeout, RpcError
from .types import (DiffForm, DiffResult, DropResult, Echo, Updates, HighlightsResult, InitializationOptions, ItemIn, OutlineResult, Path,
                    ProgressToken, RowsResult, SearchMode, SearchOrder, SearchResult, SearchScheme, SearchTiebreak, SectionIn, SelectAction,
                    SelectionPolicy, SelectionResult, SelectResult, SnapshotResult, SourcesResult, ViewportIn,
                    ViewportResult)
from .version import warn_about_daemon_version
from .wire import Framing, FramingError, JsonObject, Message, content_length, decode_body, encode

_STREAM_LIMIT = 64 * 1024 * 1024  # a newline-framed response is one line: allow big snapshots


class AsyncPendingRequest:
    """A sent request; `await pending.result()` waits for its answer."""

    def __init__(self, client: "AsyncClient", request_id: int, method: str,
                 future: "asyncio.Future[JsonObject]", progress_token: Optional[ProgressToken]) -> None:
        self.id, self.method = request_id, method
        self._client, self._future, self._progress_token = client, future, progress_token
        # whether a searchRefined follows the answer, and which (`refinement`)
        self._refined: "asyncio.Future[Optional[JsonObject]]" = asyncio.get_running_loop().create_future()
        if method != "search":
            self._refined.set_result(None)

    def _settle_refinement(self, params: Optional[JsonObject]) -> None:
        if not self._refined.done():
            self._refined.set_result(params)

    def done(self) -> bool:
        return self._future.done()

    async def result(self, timeout: Optional[float] = None) -> Any:
        """As `PendingRequest.result`; cancelling the awaiting task also cancels the request."""
        client = self._client
        seconds = client._timeout_for(timeout)
        try:
            response = await asyncio.wait_for(asyncio.shield(self._future), None if math.isinf(seconds) else seconds)
        except asyncio.TimeoutError:
            await client._abandon(self.id)
            raise RequestTimeout(self.method, self.id, seconds) from None
        except asyncio.CancelledError:
            await asyncio.shield(client._abandon(self.id))
            raise
        finally:
            client._forget_progress(self._progress_token)
        if "exited" in response:
            raise await client._exited(f"before answering {self.method} (id {self.id})")
        if "error" in response:
            raise RpcError.from_response(response["error"], self.method)
        return response.get("result")

    async def refinement(self, timeout: Optional[float] = None) -> Optional[SearchResult]:
        """As `PendingRequest.refinement`: the partial answer's `searchRefined` params, or None."""
        client = self._client
        seconds = client._timeout_for(timeout)
        try:
            params = await asyncio.wait_for(asyncio.shield(self._refined), None if math.isinf(seconds) else seconds)
        except asyncio.TimeoutError:
            raise RefinementTimeout(f"{self.method} (id {self.id})", seconds) from None
        if params is not None and "exited" in params:
            raise await client._exited(f"before refining {self.method} (id {self.id})")
        return cast(Optional[SearchResult], params)


class AsyncClient(ClientCore):
    """The daemon as an asyncio child process; arguments as for `Client`. Start it with
    `async with AsyncClient() as c:` or `c = await AsyncClient().start()`."""

    def __init__(self, daemon: Optional[DaemonSpec] = None, *, daemon_args: Sequence[str] = (),
                 initialization_options: Optional[InitializationOptions] = None,
                 timeout: Optional[float] = DEFAULT_TIMEOUT, framing: Framing = "content-length",
                 stderr_lines: int = 50) -> None:
        super().__init__(daemon, daemon_args, initialization_options, timeout, framing, stderr_lines)
        self._process: Optional[asyncio.subprocess.Process] = None
        self._pending: Dict[int, "asyncio.Future[JsonObject]"] = {}
        self._searches: Dict[int, AsyncPendingRequest] = {}  # unanswered searches (their refinement is tracked)
        self._last_search: Dict[str, AsyncPendingRequest] = {}  # source -> its last answered search
        self._tasks: Set["asyncio.Task[Any]"] = set()  # reader, stderr reader, async callbacks
        self._drain_lock: Optional[asyncio.Lock] = None  # made in start(): 3.9 binds locks to a loop
        self._closed = self._output_closed = False

    async def start(self) -> "AsyncClient":
        """Starts the daemon and initializes the session."""
        self._drain_lock = asyncio.Lock()
        self._process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, limit=_STREAM_LIMIT)
        self._spawn(self._read_loop())
        self._spawn(self._stderr_loop())
        try:
            self.initialize_result = await self.request("initialize", build.initialize(self.initialization_options),
                                                         timeout=self._startup_timeout())
            await self.notify("initialized", {})
            warn_about_daemon_version(self.initialize_result, self.argv[0], stacklevel=2)
        except BaseException:
            await self.close(grace=1.0)
            raise
        return self

    async def __aenter__(self) -> "AsyncClient":
        return await self.start()

    async def __aexit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                        traceback: Optional[TracebackType]) -> None:
        await self.close()

    @property
    def process(self) -> asyncio.subprocess.Process:
        if self._process is None:
            raise ClientClosed("the client was not started (use `async with` or `await client.start()`)")
        return self._process

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- transport -------------------------------------------------------------------------------

    async def _write(self, message: Message) -> None:
        if self._closed:
            raise ClientClosed("the client is closed")
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(encode(message, self.framing))  # whole message at once: writes never interleave
            assert self._drain_lock is not None
            async with self._drain_lock:
                await stdin.drain()
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            raise await self._exited("while writing a message") from None

    async def _read_message(self, stdout: asyncio.StreamReader) -> Optional[Message]:
        try:
            if self.framing == "newline":
                while True:
                    line = await stdout.readline()
                    if not line:
                        return None
                    if line.strip():
                        return decode_body(line)
            headers: List[bytes] = []
            while True:
                line = await stdout.readline()
                if not line:
                    return None
                if line.strip():
                    headers.append(line.strip())
                elif headers:
                    break
            return decode_body(await stdout.readexactly(content_length(headers)))
        except asyncio.IncompleteReadError:
            return None

    async def _read_loop(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                message = await self._read_message(stdout)
                if message is None:
                    break
                for one in message if isinstance(message, list) else [message]:
                    if isinstance(one, dict):
                        await self._dispatch(one)
        except (FramingError, ValueError) as error:
            log.error("diffable: unreadable output from the daemon, giving up: %s", error)
        finally:
            self._output_closed = True
            self._settle_all_refinements({"exited": True})
            for search in self._searches.values():
                search._settle_refinement({"exited": True})
            waiting, self._pending = list(self._pending.values()), {}
            for future in waiting:
                if not future.done():
                    future.set_result({"exited": True})

    async def _dispatch(self, message: JsonObject) -> None:
        if "method" not in message:
            request_id = message.get("id")
            future = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
            search = self._searches.pop(request_id, None) if isinstance(request_id, int) else None
            if search is not None:  # before the awaiting task sees the answer, so `refinement` knows it
                source = self._search_answered(message, search._settle_refinement)
                if source is not None:
                    self._last_search[source] = search
            if future is not None and not future.done():
                future.set_result(message)
            elif request_id is None:
                log.warning("diffable: error response without id: %s", message.get("error"))
        elif "id" in message:
            try:
                await self._write(self._reply_to_server_request(message))
            except DiffableError:
                pass
        else:
            if message["method"] == "searchRefined":
                self._search_refined(message.get("params"))
            for callback, argument in self._notification_calls(message["method"], message.get("params")):
                try:
                    outcome = callback(argument)
                    if inspect.isawaitable(outcome):
                        self._spawn(outcome)
                except Exception:
                    log.exception("diffable: notification callback for %s raised", message["method"])

    async def _stderr_loop(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        while True:
            line = await stderr.readline()
            if not line:
                break
            self._note_stderr(line)

    async def _exited(self, context: str) -> DaemonExited:
        try:
            returncode: Optional[int] = await asyncio.wait_for(self.process.wait(), 1.0)
        except asyncio.TimeoutError:
            returncode = None
        return DaemonExited(returncode, self.stderr_tail, context)

    async def _abandon(self, request_id: int) -> None:
        if self._pending.pop(request_id, None) is not None:
            try:
                await self.cancel(request_id)
            except DiffableError:
                pass

    # -- generic requests ------------------------------------------------------------------------

    async def send_request(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
                           progress: Optional[ProgressCallback] = None,
                           work_done_token: Optional[ProgressToken] = None) -> AsyncPendingRequest:
        request_id = self._next_id()
        sent, token = self._attach_progress(request_id, dict(params) if params is not None else None,
                                            progress, work_done_token)
        if self._closed:
            self._forget_progress(token)
            raise ClientClosed("the client is closed")
        if self._output_closed:
            self._forget_progress(token)
            raise await self._exited(f"before {method} was sent")
        future: "asyncio.Future[JsonObject]" = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message: JsonObject = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if sent is not None:
            message["params"] = sent
        try:
            await self._write(message)
        except BaseException:
            self._pending.pop(request_id, None)
            self._forget_progress(token)
            raise
        pending = AsyncPendingRequest(self, request_id, method, future, token)
        if method == "search":
            self._searches[request_id] = pending
        return pending

    async def request(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
                      timeout: Optional[float] = None, progress: Optional[ProgressCallback] = None,
                      work_done_token: Optional[ProgressToken] = None) -> Any:
        pending = await self.send_request(method, params, progress=progress, work_done_token=work_done_token)
        return await pending.result(timeout)

    async def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        await self._write(message)

    async def cancel(self, request_id: int) -> None:
        await self.notify("$/cancelRequest", {"id": request_id})

    # -- methods (documented on Client) ----------------------------------------------------------

    async def apply(self, source: str, sections: Iterable[SectionIn], *, form: Optional[DiffForm] = None,
                    base_version: Optional[int] = None, viewport: Optional[ViewportIn] = build.UNSET,
                    echo: Optional[Echo] = None, updates: Optional[Updates] = None, timeout: Optional[float] = None,
                    progress: Optional[ProgressCallback] = None,
                    work_done_token: Optional[ProgressToken] = None) -> DiffResult:
        return cast(DiffResult, await self.request("apply", build.apply(source, sections, form, base_version, viewport, echo, updates),
                                                   timeout=timeout, progress=progress,
                                                   work_done_token=work_done_token))

    async def edit(self, source: str, ops: Iterable[Mapping[str, Any]], *, form: Optional[DiffForm] = None,
                   base_version: Optional[int] = None, viewport: Optional[ViewportIn] = build.UNSET,
                   echo: Optional[Echo] = None, updates: Optional[Updates] = None, timeout: Optional[float] = None,
                   progress: Optional[ProgressCallback] = None,
                   work_done_token: Optional[ProgressToken] = None) -> DiffResult:
        return cast(DiffResult, await self.request("edit", build.edit(source, ops, form, base_version, viewport, echo, updates),
                                                   timeout=timeout, progress=progress,
                                                   work_done_token=work_done_token))

    async def search(self, source: str, query: str, *, sections: Optional[Sequence[str]] = None,
                     mode: Optional[SearchMode] = None, order: Optional[SearchOrder] = None,
                     limit: Optional[int] = None, placeholder: Optional[ItemIn] = None,
                     highlight_limit: Optional[int] = None, form: Optional[DiffForm] = None,
                     base_version: Optional[int] = None,
                     viewport: Optional[ViewportIn] = build.UNSET, scheme: Optional[SearchScheme] = None,
                     tiebreak: Optional[Sequence[SearchTiebreak]] = None, fields: Optional[Sequence[str]] = None,
                     progressive: Optional[bool] = None, timeout: Optional[float] = None,
                     progress: Optional[ProgressCallback] = None,
                     work_done_token: Optional[ProgressToken] = None) -> SearchResult:
        params = build.search(source, query, sections, mode, order, limit, placeholder, highlight_limit, form,
                              base_version, viewport, scheme, tiebreak, fields, progressive)
        return cast(SearchResult, await self.request("search", params, timeout=timeout, progress=progress,
                                                     work_done_token=work_done_token))

    async def refinement(self, source: str, *, timeout: Optional[float] = None) -> Optional[SearchResult]:
        """As `Client.refinement`: the searchRefined of the last search answer of `source`, or None."""
        pending = self._last_search.get(source)
        return await pending.refinement(timeout) if pending is not None else None

    async def select(self, source: str, *, action: Optional[SelectAction] = None,
                     ids: Optional[Sequence[str]] = None, paths: Optional[Sequence[Path]] = None,
                     sections: Optional[Sequence[str]] = None, base_version: Optional[int] = None,
                     timeout: Optional[float] = None) -> SelectResult:
        return cast(SelectResult, await self.request(
            "select", build.select(source, action, ids, paths, sections, base_version), timeout=timeout))

    async def set_selection_mode(self, source: str, sections: Mapping[str, SelectionPolicy], *,
                                 timeout: Optional[float] = None) -> SelectResult:
        return cast(SelectResult, await self.request(
            "setSelectionMode", build.set_selection_mode(source, sections), timeout=timeout))

    async def selection(self, source: str, *, timeout: Optional[float] = None) -> SelectionResult:
        return cast(SelectionResult, await self.request("selection", build.source_only(source, "selection"), timeout=timeout))

    async def highlights(self, source: str, section: int, *, start: Optional[int] = None,
                         count: Optional[int] = None, timeout: Optional[float] = None) -> HighlightsResult:
        return cast(HighlightsResult, await self.request(
            "highlights", build.highlights(source, section, start, count), timeout=timeout))

    async def viewport(self, source: str, *, start: Optional[int] = None, count: Optional[int] = None,
                       timeout: Optional[float] = None) -> ViewportResult:
        return cast(ViewportResult, await self.request("viewport", build.viewport(source, start, count),
                                                       timeout=timeout))

    async def rows(self, source: str, *, start: Optional[int] = None, count: Optional[int] = None,
                   timeout: Optional[float] = None) -> RowsResult:
        return cast(RowsResult, await self.request("rows", build.viewport(source, start, count, "rows"), timeout=timeout))

    async def expand(self, source: str, ids: Sequence[str], *, recursive: Optional[bool] = None,
               form: Optional[DiffForm] = None, base_version: Optional[int] = None,
               timeout: Optional[float] = None) -> DiffResult:
        """Outlines: expands the items (`recursive=True`: their descendants too); the diff of the visible
        rows (revealed descendants inserted, the toggled rows reloaded). Unknown id: `UnknownId` (1003)."""
        return cast(DiffResult, await self.request("expand", build.outline_change(source, ids, recursive, form,
                                                                             base_version), timeout=timeout))

    async def collapse(self, source: str, ids: Sequence[str], *, recursive: Optional[bool] = None,
                 form: Optional[DiffForm] = None, base_version: Optional[int] = None,
                 timeout: Optional[float] = None) -> DiffResult:
        """Outlines: collapses the items (`recursive=True`: their descendants too); the diff of the visible rows."""
        return cast(DiffResult, await self.request("collapse", build.outline_change(source, ids, recursive, form,
                                                                               base_version, "collapse"), timeout=timeout))

    async def outline(self, source: str, item_id: str, *, timeout: Optional[float] = None) -> OutlineResult:
        """Outlines: where `item_id` is (`parent`, `level`, `children` count, `hasChildren`, `expanded`,
        `visible`, `path`). Unknown id: `UnknownId` (1003)."""
        return cast(OutlineResult, await self.request("outline", build.outline(source, item_id), timeout=timeout))

    async def snapshot(self, source: str, *, full: Optional[bool] = None,
                       timeout: Optional[float] = None) -> SnapshotResult:
        return cast(SnapshotResult, await self.request("snapshot", build.snapshot(source, full), timeout=timeout))

    async def sources(self, *, timeout: Optional[float] = None) -> SourcesResult:
        return cast(SourcesResult, await self.request("sources", timeout=timeout))

    async def drop(self, source: str, *, timeout: Optional[float] = None) -> DropResult:
        return cast(DropResult, await self.request("drop", build.source_only(source, "drop"), timeout=timeout))

    # -- shutting down ---------------------------------------------------------------------------

    async def close(self, grace: float = CLOSE_GRACE) -> Optional[int]:
        """As `Client.close`: shutdown, exit, wait `grace` s, kill. Returns the exit status."""
        if self._process is None:
            return None
        process = self._process
        if not self._closed:
            try:
                await self.request("shutdown", timeout=grace)
            except DiffableError:
                pass
            try:
                await self.notify("exit")
            except DiffableError:
                pass
            self._closed = True
            if process.stdin is not None:
                process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), grace)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()
        if self._tasks:  # reader tasks end with the process output; callbacks get the grace period
            await asyncio.wait(list(self._tasks), timeout=grace)
        return process.returncode


# Methods of the contract with no function above (a method the daemon gained) get one made from it.
build.contract_functions(AsyncClient, asynchronous=True)
