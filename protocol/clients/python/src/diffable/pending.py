"""A request the synchronous client sent: its answer, and for a `search` its refinement.

Both are handed over by the client's reader thread (client.py), which reads the daemon's
messages in order; `result` and `refinement` wait for them on the caller's thread.
"""
from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any, Optional, cast

from .errors import RefinementTimeout, RequestTimeout, RpcError
from .types import ProgressToken, SearchResult
from .wire import JsonObject

if TYPE_CHECKING:
    from .client import Client

_EXITED: JsonObject = {"exited": True}  # put in place of a response when the output closed


class PendingRequest:
    """A sent request; `result()` waits for its answer."""

    def __init__(self, client: "Client", request_id: int, method: str, progress_token: Optional[ProgressToken]):
        self.id, self.method = request_id, method
        self._client, self._progress_token = client, progress_token
        self._answered = threading.Event()
        self._response: Optional[JsonObject] = None
        self._refined = threading.Event()  # set once it is known whether a searchRefined follows, and which
        self._refinement: Optional[JsonObject] = None
        if method != "search":
            self._refined.set()

    def _settle_refinement(self, params: Optional[JsonObject]) -> None:
        self._refinement = params
        self._refined.set()

    def _resolve(self, response: JsonObject) -> None:
        self._response = response
        self._answered.set()

    def done(self) -> bool:
        return self._answered.is_set()

    def result(self, timeout: Optional[float] = None) -> Any:
        """The result, or raises RpcError (by code), RequestTimeout (after `timeout` s, default the
        client's; a `$/cancelRequest` is sent and the client stays usable) or DaemonExited."""
        client = self._client
        if threading.current_thread() is client._reader:
            raise RuntimeError("a notification callback cannot wait for a response (it runs on the reader thread)")
        seconds = client._timeout_for(timeout)
        try:
            if not self._answered.wait(None if math.isinf(seconds) else seconds):
                client._abandon(self.id)
                raise RequestTimeout(self.method, self.id, seconds)
        finally:
            client._forget_progress(self._progress_token)
        response = cast(JsonObject, self._response)
        if response is _EXITED:
            raise client._exited(f"before answering {self.method} (id {self.id})")
        if "error" in response:
            raise RpcError.from_response(response["error"], self.method)
        return response.get("result")

    def refinement(self, timeout: Optional[float] = None) -> Optional[SearchResult]:
        """For a `search` sent with `progressive: true` whose answer was partial (`search.partial`): waits
        for its `searchRefined` and returns its params (a search result whose diff starts from the partial
        window: `Frontend.update` it after the answer). None when the answer was exact, when the next
        search of the same source was answered first (that keystroke dropped the refinement), for any
        other request, or when the answer was an error. Raises RefinementTimeout after `timeout` s
        (default the client's) and DaemonExited when the daemon's output closed first."""
        client = self._client
        if threading.current_thread() is client._reader:
            raise RuntimeError("a notification callback cannot wait for a refinement (it runs on the reader thread)")
        seconds = client._timeout_for(timeout)
        if not self._refined.wait(None if math.isinf(seconds) else seconds):
            raise RefinementTimeout(f"{self.method} (id {self.id})", seconds)
        if self._refinement is _EXITED:
            raise client._exited(f"before refining {self.method} (id {self.id})")
        return cast(Optional[SearchResult], self._refinement)
