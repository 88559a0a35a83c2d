"""Client for the diffable daemon (protocol/README.md): typed sync and asyncio clients,
a `Frontend` model that replays diff payloads, and typed exceptions. Standard library only.

    import diffable
    with diffable.Client() as client:
        result = client.apply("fruit", [{"id": "apples", "items": ["gala", "fuji"]}])
"""
from __future__ import annotations

from . import ops
from .aio import AsyncClient, AsyncPendingRequest
from .client import Client, PendingRequest
from .core import CLOSE_GRACE, DEFAULT_TIMEOUT
from .discovery import bundled_daemon, checkout_root, find_daemon
from .errors import (ClientClosed, DaemonExited, DaemonNotFound, DiffableError, InternalError, InvalidEdit,
                     InvalidParams, InvalidRequest, MethodNotFound, ParseError, RequestCancelled, RequestTimeout,
                     RpcError, SelectionRejected, ServerNotInitialized, UnknownId, UnknownSource, VersionConflict)
from .frontend import (REPLAYERS, Frontend, ReplayError, Row, Window, on_sections, replay_batch, replay_steps,
                       replay_window)
from .types import OutlineResult, Progress, TreeItem
from .version import DaemonVersionWarning, __version__

__all__ = [
    "__version__", "AsyncClient", "AsyncPendingRequest", "CLOSE_GRACE", "Client", "ClientClosed", "DEFAULT_TIMEOUT",
    "DaemonExited", "DaemonNotFound", "DaemonVersionWarning", "DiffableError", "Frontend", "InternalError", "InvalidEdit", "InvalidParams",
    "InvalidRequest", "MethodNotFound", "ParseError", "OutlineResult", "PendingRequest", "Progress", "REPLAYERS", "ReplayError",
    "RequestCancelled", "RequestTimeout", "Row", "RpcError", "SelectionRejected", "ServerNotInitialized",
    "TreeItem", "UnknownId", "UnknownSource", "VersionConflict", "Window", "bundled_daemon", "checkout_root", "find_daemon", "on_sections", "ops",
    "replay_batch", "replay_steps", "replay_window",
]
