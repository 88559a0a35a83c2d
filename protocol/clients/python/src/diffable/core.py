"""What the sync and async clients share: ids, timeouts, notification routing."""
from __future__ import annotations

import collections
import itertools
import logging
import math
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple

from .discovery import DaemonSpec, find_daemon
from .types import InitializationOptions, Progress, ProgressToken
from .wire import FRAMINGS, Framing, JsonObject

log = logging.getLogger("diffable")

DEFAULT_TIMEOUT = 30.0
# `initialize` waits at least this long whatever the per-request timeout: it
# measures how fast a process starts on a possibly busy machine, not a
# request, and a short `timeout` meant for keystrokes must not fail the start.
STARTUP_TIMEOUT = 30.0
"""Seconds a request waits for its answer unless told otherwise."""
CLOSE_GRACE = 5.0
"""Seconds `close()` waits for the daemon to exit before killing it."""

NotificationCallback = Callable[[Any], Any]
"""Called with the notification's `params` (None when absent)."""
ProgressCallback = Callable[[Progress], Any]
Settle = Callable[[Optional[JsonObject]], None]
"""Settles one search answer's refinement: the `searchRefined` params, or None (none is coming)."""


class ClientCore:
    """State and rules common to `Client` and `AsyncClient` (no I/O here)."""

    def __init__(self, daemon: Optional[DaemonSpec], daemon_args: Sequence[str],
                 initialization_options: Optional[InitializationOptions], timeout: Optional[float],
                 framing: Framing, stderr_lines: int) -> None:
        if framing not in FRAMINGS:
            raise ValueError(f"framing must be one of {FRAMINGS}, not {framing!r}")
        self.argv: List[str] = [*find_daemon(daemon), *daemon_args]
        self.framing: Framing = framing
        self.timeout = math.inf if timeout is None else timeout
        self.initialization_options = initialization_options
        self.initialize_result: Optional[JsonObject] = None
        self._ids = itertools.count(1)
        self._handlers: Dict[str, List[NotificationCallback]] = {}
        self._progress: Dict[ProgressToken, ProgressCallback] = {}
        self._stderr: Deque[str] = collections.deque(maxlen=stderr_lines)
        self._refining: Dict[str, Settle] = {}  # source -> its partial answer's settle, while the refinement is due

    # -- progressive search (protocol/methods/search.md, "Progressive answers") ------------------

    def _search_answered(self, response: JsonObject, settle: Settle) -> Optional[str]:
        """The reader saw the answer of a `search`: a refinement still due for its source is settled
        None (this keystroke dropped it), and this answer's own refinement becomes due when it is
        `partial` (else it is settled None at once). Returns the source, if the answer names one."""
        result = response.get("result")
        source = result.get("source") if isinstance(result, dict) else None
        if not isinstance(source, str):
            settle(None)
            return None
        dropped = self._refining.pop(source, None)
        if dropped is not None:
            dropped(None)
        info = result.get("search") if isinstance(result, dict) else None
        if isinstance(info, dict) and info.get("partial") is True:
            self._refining[source] = settle
        else:
            settle(None)
        return source

    def _search_refined(self, params: Any) -> None:
        """The reader saw a `searchRefined`: it settles the partial answer of its source (if one is due)."""
        source = params.get("source") if isinstance(params, dict) else None
        settle = self._refining.pop(source, None) if isinstance(source, str) else None
        if settle is not None:
            settle(params)

    def _settle_all_refinements(self, value: Optional[JsonObject]) -> None:
        """The output closed: no refinement will come."""
        waiting, self._refining = list(self._refining.values()), {}
        for settle in waiting:
            settle(value)

    # -- notifications ---------------------------------------------------------------------------

    def on_notification(self, method: str, callback: NotificationCallback) -> Callable[[], None]:
        """Calls `callback(params)` for every notification `method` from the daemon
        (`"*"`: every notification, called as `callback({"method", "params"})`).
        Returns a function that unsubscribes it."""
        self._handlers.setdefault(method, []).append(callback)

        def unsubscribe() -> None:
            callbacks = self._handlers.get(method, [])
            if callback in callbacks:
                callbacks.remove(callback)
        return unsubscribe

    def _notification_calls(self, method: str, params: Any) -> List[Tuple[Callable[[Any], Any], Any]]:
        """The callbacks a notification goes to, with their argument, in calling order:
        the request's `progress=` callback first (for `$/progress`), then `on_notification` ones."""
        calls: List[Tuple[Callable[[Any], Any], Any]] = []
        if method == "$/progress":
            progress = Progress.from_params(params)
            if progress is not None and progress.token in self._progress:
                calls.append((self._progress[progress.token], progress))
        calls += [(callback, params) for callback in list(self._handlers.get(method, []))]
        calls += [(callback, {"method": method, "params": params}) for callback in list(self._handlers.get("*", []))]
        return calls

    @staticmethod
    def _reply_to_server_request(message: Mapping[str, Any]) -> JsonObject:
        """The daemon sends no requests today; LSP servers may ask to create a progress token
        (accepted: this client handles `$/progress`), anything else is answered MethodNotFound."""
        if message.get("method") == "window/workDoneProgress/create":
            return {"jsonrpc": "2.0", "id": message["id"], "result": None}
        return {"jsonrpc": "2.0", "id": message["id"],
                "error": {"code": -32601, "message": f"the diffable client has no method {message.get('method')}"}}

    # -- requests --------------------------------------------------------------------------------

    def _next_id(self) -> int:
        return next(self._ids)

    def _timeout_for(self, timeout: Optional[float]) -> float:
        return self.timeout if timeout is None else timeout

    def _startup_timeout(self) -> float:
        return max(self.timeout, STARTUP_TIMEOUT)

    def _attach_progress(self, request_id: int, params: Optional[JsonObject], progress: Optional[ProgressCallback],
                         work_done_token: Optional[ProgressToken]) -> Tuple[Optional[JsonObject], Optional[ProgressToken]]:
        """Params with `workDoneToken` when the caller asked for progress, and the token to forget
        once the request is answered (None: nothing registered)."""
        if progress is None and work_done_token is None:
            return params, None
        token: ProgressToken = work_done_token if work_done_token is not None else f"diffable-py-{request_id}"
        if progress is not None:
            self._progress[token] = progress
        return {**(params or {}), "workDoneToken": token}, token if progress is not None else None

    def _forget_progress(self, token: Optional[ProgressToken]) -> None:
        if token is not None:
            self._progress.pop(token, None)

    def _note_stderr(self, line: bytes) -> None:
        self._stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    @property
    def stderr_tail(self) -> str:
        """The daemon's last stderr lines (its log), newest last."""
        return "\n".join(self._stderr)
