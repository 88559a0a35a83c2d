"""Exceptions raised by the diffable client.

Every exception derives from `DiffableError`. Error responses of the daemon
are `RpcError`s; the subclass is picked by the error code (protocol/README.md
"Errors"), so callers can write `except diffable.VersionConflict:` instead of
comparing codes. The codes come from `_contract.ERROR_CODES` (generated from
protocol/schemas/errors.schema.json), one subclass per code, named as there.
"""
from __future__ import annotations

from typing import Any, ClassVar, Dict, Mapping, Optional, Sequence, Type

from ._contract import ERROR_CODES


class DiffableError(Exception):
    """Base class of every exception this package raises."""


class DaemonNotFound(DiffableError):
    """No daemon binary was found; `looked_in` lists every place tried, in order."""

    def __init__(self, looked_in: Sequence[str], reason: str = "no diffable daemon found", *,
                 advice: str = "Build it with `swift build -c release` (from the repository root), "
                               "or pass its path, or set $DIFFABLE_BIN.") -> None:
        self.looked_in = list(looked_in)
        places = "\n".join(f"  - {place}" for place in self.looked_in)
        super().__init__(f"{reason}. Looked in:\n{places}\n{advice}")


class DaemonExited(DiffableError):
    """The daemon process ended (or closed its output) while the client needed it."""

    def __init__(self, returncode: Optional[int], stderr_tail: str, context: str = "") -> None:
        self.returncode = returncode
        self.stderr_tail = stderr_tail
        status = "still running" if returncode is None else f"exit status {returncode}"
        message = f"the diffable daemon closed its output ({status})"
        if context:
            message += f" {context}"
        if stderr_tail:
            message += f"; last stderr lines:\n{stderr_tail}"
        super().__init__(message)


class ClientClosed(DiffableError):
    """The client was closed (explicitly or by a context manager) and cannot send."""


class RequestTimeout(DiffableError, TimeoutError):
    """A request got no answer within its timeout.

    The client sent `$/cancelRequest` for it and stays usable: a late answer is
    discarded. The daemon may still have run the request (a cancel only stops a
    request that has not started), so a replayed model should be re-read with
    `snapshot` (see `Frontend.load`).
    """

    def __init__(self, method: str, request_id: int, timeout: float) -> None:
        self.method, self.request_id, self.timeout = method, request_id, timeout
        super().__init__(f"{method} (id {request_id}) got no answer within {timeout:g} s; "
                         "a $/cancelRequest was sent")


class RefinementTimeout(DiffableError, TimeoutError):
    """A partial search answer's `searchRefined` did not arrive within the timeout
    (`PendingRequest.refinement`, `Client.refinement`). Nothing is cancelled: it may still come."""

    def __init__(self, request: str, timeout: float) -> None:
        self.request, self.timeout = request, timeout
        super().__init__(f"no searchRefined for {request} within {timeout:g} s")


class RpcError(DiffableError):
    """An error response: `.code`, `.message`, `.data` (None when absent), `.method`."""

    code_names: ClassVar[Dict[int, str]] = {}
    _by_code: ClassVar[Dict[int, Type["RpcError"]]] = {}
    error_code: ClassVar[Optional[int]] = None  # set on the subclasses

    def __init__(self, code: int, message: str, data: Any = None, method: str = "") -> None:
        self.code, self.message, self.data, self.method = code, message, data, method
        where = f"{method}: " if method else ""
        super().__init__(f"{where}{code} {RpcError.code_names.get(code, 'error')}: {message}")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.error_code is not None:
            RpcError._by_code[cls.error_code] = cls
            RpcError.code_names[cls.error_code] = cls.__name__

    @staticmethod
    def from_response(error: Mapping[str, Any], method: str = "") -> "RpcError":
        """The exception for a JSON-RPC error object, of the subclass its code names."""
        code = error.get("code")
        code = code if isinstance(code, int) else 0
        cls = RpcError._by_code.get(code, RpcError)
        return cls(code, str(error.get("message", "")), error.get("data"), method)


def _data_member(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


class ParseError(RpcError):
    error_code = ERROR_CODES["ParseError"]


class InvalidRequest(RpcError):
    error_code = ERROR_CODES["InvalidRequest"]


class MethodNotFound(RpcError):
    error_code = ERROR_CODES["MethodNotFound"]


class InvalidParams(RpcError):
    """-32602. `.path` names the offending member (`"params.ops[3].items[0].id"`, or for `select` a
    `[section, row]`); `.problems` lists the snapshot problems of an invalid `apply`; `.unknown` the
    params members the daemon does not accept."""

    error_code = ERROR_CODES["InvalidParams"]

    @property
    def path(self) -> Any:
        return _data_member(self.data, "path")

    @property
    def unknown(self) -> list[str]:
        value = _data_member(self.data, "unknown")
        return [str(member) for member in value] if isinstance(value, list) else []

    @property
    def problems(self) -> list[dict[str, Any]]:
        value = _data_member(self.data, "problems")
        return list(value) if isinstance(value, list) else []


class InternalError(RpcError):
    error_code = ERROR_CODES["InternalError"]


class ServerNotInitialized(RpcError):
    error_code = ERROR_CODES["ServerNotInitialized"]


class RequestCancelled(RpcError):
    """-32800: cancelled by `$/cancelRequest`, or a `search` superseded by a newer one."""

    error_code = ERROR_CODES["RequestCancelled"]

    @property
    def superseded_by(self) -> Any:
        return _data_member(self.data, "supersededBy")


class UnknownSource(RpcError):
    error_code = ERROR_CODES["UnknownSource"]

    @property
    def source(self) -> Optional[str]:
        value = _data_member(self.data, "source")
        return value if isinstance(value, str) else None


class VersionConflict(RpcError):
    """1002: `baseVersion` was not the source's version; `.current_version` is."""

    error_code = ERROR_CODES["VersionConflict"]

    @property
    def current_version(self) -> Optional[int]:
        value = _data_member(self.data, "currentVersion")
        return value if isinstance(value, int) else None


class UnknownId(RpcError):
    error_code = ERROR_CODES["UnknownId"]


class InvalidEdit(RpcError):
    """1004: `.op_index` of the failing op in `ops`, `.reason`, `.ids`."""

    error_code = ERROR_CODES["InvalidEdit"]

    @property
    def op_index(self) -> Optional[int]:
        value = _data_member(self.data, "op")
        return value if isinstance(value, int) else None

    @property
    def reason(self) -> Optional[str]:
        value = _data_member(self.data, "reason")
        return value if isinstance(value, str) else None


class SelectionRejected(RpcError):
    error_code = ERROR_CODES["SelectionRejected"]



class MessageTooLarge(RpcError):
    """1010: a message over the daemon's `--max-message-bytes` was skipped unread (data `{limit, size}`)."""

    error_code = ERROR_CODES["MessageTooLarge"]
