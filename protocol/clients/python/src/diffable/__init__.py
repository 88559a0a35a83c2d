"""Client for the diffable daemon (protocol/README.md): typed sync and asyncio clients,
a `Frontend` model that replays diff payloads, and typed exceptions. Standard library only.

    import diffable
    with diffable.Client() as client:
        result = client.apply("fruit", [{"id": "apples", "items": ["gala", "fuji"]}])

Everything a program annotates with is exported here (`__all__`): the clients, the frontend
model, the params and result TypedDicts of `diffable.types`, the errors and the warning.
"""
from __future__ import annotations

from . import ops
from .aio import AsyncClient, AsyncPendingRequest
from .client import Client
from .pending import PendingRequest
from .core import CLOSE_GRACE, DEFAULT_TIMEOUT, NotificationCallback, ProgressCallback
from .discovery import DaemonSpec, bundled_daemon, checkout_root, find_daemon
from .errors import (ClientClosed, DaemonExited, DaemonNotFound, DiffableError, InternalError, InvalidEdit,
                     InvalidParams, InvalidRequest, MessageTooLarge, MethodNotFound, ParseError, RefinementTimeout,
                     RequestCancelled, RequestTimeout,
                     RpcError, SelectionRejected, ServerNotInitialized, UnknownId, UnknownSource, VersionConflict)
from .frontend import (REPLAYERS, Frontend, Replayer, ReplayError, Row, SectionList, SourceView, Window, on_sections,
                       replay_batch, replay_steps, replay_window)
from .ops import Op
from .types import (DiffForm, DiffResult, DropResult, Echo, FieldHighlight, FullSection, FullSnapshotResult, Highlight,
                    HighlightsResult, InitializationOptions, InitializeResult, Item, ItemIn, OutlineResult, Progress,
                    ProgressToken, RowsResult, SearchInfo, SearchMode, SearchOrder, SearchResult, SearchScheme,
                    SearchTiebreak, Section, SectionIn,
                    SelectAction, SelectedRow, SelectionDelta, SelectionModeName, SelectionPolicy, SelectionResult,
                    SelectResult, ServerInfo, SnapshotResult, SourceInfo, SourcesResult, TreeItem, Updates,
                    ViewportIn, ViewportResult, WindowPayload, WindowRow)
from .jsonpatch import PatchError, apply_patch
from .version import DaemonVersionWarning, __version__
from .wire import Framing

__all__ = [
    "__version__",
    # clients
    "AsyncClient", "AsyncPendingRequest", "CLOSE_GRACE", "Client", "DEFAULT_TIMEOUT", "DaemonSpec", "Framing",
    "NotificationCallback", "PendingRequest", "ProgressCallback", "bundled_daemon", "checkout_root", "find_daemon",
    # the frontend model
    "Frontend", "REPLAYERS", "ReplayError", "Replayer", "Row", "SectionList", "SourceView", "Window", "on_sections",
    "replay_batch", "replay_steps", "replay_window", "apply_patch", "PatchError",
    # params and results (diffable.types); `edit` ops (diffable.ops)
    "DiffForm", "DiffResult", "DropResult", "Echo", "FieldHighlight", "FullSection", "FullSnapshotResult", "Highlight",
    "HighlightsResult", "InitializationOptions", "InitializeResult", "Item", "ItemIn", "Op", "OutlineResult",
    "Progress", "ProgressToken", "RowsResult", "SearchInfo", "SearchMode", "SearchOrder", "SearchResult",
    "SearchScheme", "SearchTiebreak", "Section",
    "SectionIn", "SelectAction", "SelectedRow", "SelectionDelta", "SelectionModeName", "SelectionPolicy",
    "SelectionResult", "SelectResult", "ServerInfo", "SnapshotResult", "SourceInfo", "SourcesResult", "TreeItem",
    "Updates", "ViewportIn", "ViewportResult", "WindowPayload", "WindowRow", "ops",
    # errors and warnings
    "ClientClosed", "DaemonExited", "DaemonNotFound", "DaemonVersionWarning", "DiffableError", "InternalError",
    "InvalidEdit", "InvalidParams", "InvalidRequest", "MessageTooLarge", "MethodNotFound", "ParseError", "RefinementTimeout",
    "RequestCancelled", "RequestTimeout", "RpcError", "SelectionRejected", "ServerNotInitialized", "UnknownId", "UnknownSource",
    "VersionConflict",
]
