"""Typed shapes of params and results (protocol/README.md, protocol/schemas/).

TypedDicts are plain dicts at run time: results are the daemon's JSON as
decoded, described here for type checkers and readers. Diff payloads
(`batch`, `steps`) are left as JSON dicts; `diffable.frontend` replays them.
Optional members use the `total=False` subclass idiom so Python 3.9 works
without typing_extensions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, TypedDict, Union

# The value sets the schemas list (`form`, `echo`, `updates`, search's `mode`/`order`/`scheme`/`tiebreak`,
# select's `action`, a selection mode), generated from protocol/schemas into `_contract`.
from ._contract import DiffForm as DiffForm, Echo as Echo, SearchMode as SearchMode, SearchOrder as SearchOrder
from ._contract import SearchScheme as SearchScheme, SearchTiebreak as SearchTiebreak, SelectAction as SelectAction
from ._contract import SelectionModeName as SelectionModeName, Updates as Updates

Path = List[int]
"""`[section, row]` in the visible snapshot."""
ProgressToken = Union[str, int]


class _ItemBase(TypedDict):
    id: str


class Item(_ItemBase, total=False):
    """A row as diffs and `snapshot` carry it. In a source with nested items
    (protocol/methods/outline.md) every row also has `level` (0 at the top), `parent` (absent at the
    top), `hasChildren` and `expanded` (absent when false)."""
    content: Any
    level: int
    parent: str
    hasChildren: bool
    expanded: bool


class TreeItem(_ItemBase, total=False):
    """An item as `apply`/`edit` take it and `snapshot(full=True)` returns it in an outline:
    `children` nest (recursively; ids unique in the whole source), `expanded` opens an item with children."""
    content: Any
    children: List["ItemIn"]
    expanded: bool


ItemIn = Union[str, TreeItem]
"""An item as `apply`/`edit` accept it: `{"id", "content"?, "children"?, "expanded"?}` or its id alone."""


class _SectionBase(TypedDict):
    id: str


class SectionIn(_SectionBase, total=False):
    """A section as `apply` accepts it, with its optional selection policy."""
    header: Any
    items: List[ItemIn]
    selection: SelectionModeName
    allowsEmptySelection: bool


class _SectionBaseOut(TypedDict):
    id: str
    items: List[Item]


class Section(_SectionBaseOut, total=False):
    """A section as results carry it (`snapshot` adds its policy members)."""
    header: Any
    selection: SelectionModeName
    allowsEmptySelection: bool


class InitializationOptions(TypedDict, total=False):
    form: DiffForm
    supersedeSearches: bool
    echo: Echo
    updates: Updates
    progressiveBudget: int
    """ms a `search {progressive: true}` may take before it answers partially (8 by default; 0: always
    partially, then refined; protocol/methods/search.md, "Progressive answers")."""


class ViewportIn(TypedDict, total=False):
    """The `viewport` member of `apply`/`edit`/`search`: flat rows `start ..< start + count`
    (`count: 0` removes the viewport)."""
    start: int
    count: int


class _RowBase(TypedDict):
    id: str
    section: str


class WindowRow(_RowBase, total=False):
    """A row of the flat list (protocol/methods/viewport.md): an item, or a section header
    (`header: true`, `id` = the section's id)."""
    header: bool
    content: Any
    selected: bool
    highlights: List[List[int]]
    fieldHighlights: List[FieldHighlight]
    """For a search with `fields`, in place of `highlights`."""


class WindowPayload(TypedDict):
    """The `window` member of a change result while the source has a viewport."""
    total: int
    start: int
    count: int
    steps: List[Dict[str, Any]]


class SelectionPolicy(TypedDict, total=False):
    mode: SelectionModeName
    allowsEmpty: bool


class SelectedRow(TypedDict):
    id: str
    path: Optional[Path]


class SelectionDelta(TypedDict, total=False):
    """What a request changed in the selection (protocol/methods/select.md)."""
    selected: List[SelectedRow]
    deselected: List[SelectedRow]
    kept: List[SelectedRow]
    rows: List[SelectedRow]


class _ChangeBase(TypedDict):
    source: str
    version: int


class DiffResult(_ChangeBase, total=False):
    """`apply`/`edit` result: one of `batch`, `steps` or (with a viewport) `window`, and `selection`
    when it changed."""
    batch: Dict[str, Any]
    steps: List[Dict[str, Any]]
    window: Optional[WindowPayload]
    selection: SelectionDelta


class _SearchInfoBase(TypedDict):
    query: str
    matches: int
    shown: int


class SearchInfo(_SearchInfoBase, total=False):
    partial: bool
    """Only ever `True`, and only on a partial answer of `progressive=True` (absent otherwise): the window
    ranks a sample; a `searchRefined` notification with the exact window follows (`Client.refinement`)."""


class FieldHighlight(TypedDict):
    """The ranges of one field of a search with `fields` (protocol/methods/search.md, "Fields"),
    `[start, count]` in Unicode scalars of that field's text."""
    field: str
    ranges: List[List[int]]


class _HighlightBase(TypedDict):
    id: str
    path: Path


class Highlight(_HighlightBase, total=False):
    """A row's matched ranges: `ranges` in its text, or `fields` for a search with `fields`."""
    ranges: List[List[int]]
    fields: List[FieldHighlight]


class _SearchResultBase(DiffResult):
    search: SearchInfo


class SearchResult(_SearchResultBase, total=False):
    """`search` result: a diff, `search`, and `highlights` of the visible rows (absent in the window form,
    whose rows carry their own)."""
    highlights: List[Highlight]


class SelectResult(_ChangeBase, total=False):
    """`select` and `setSelectionMode` result; `selection` is omitted when nothing changed;
    `window` while the source has a viewport."""
    selection: SelectionDelta
    window: WindowPayload


class ViewportResult(_ChangeBase):
    """`viewport` result: how the held rows become the new window's; None when it was removed."""
    window: Optional[WindowPayload]


class RowsResult(_ChangeBase):
    """`rows` result: flat rows `start ..< start + count` of `total`."""
    total: int
    start: int
    rows: List[WindowRow]


class SelectionResult(_ChangeBase):
    selected: List[SelectedRow]
    policies: Dict[str, SelectionPolicy]


class HighlightsResult(_ChangeBase):
    highlights: List[Highlight]


class SnapshotResult(_ChangeBase):
    sections: List[Section]
    selected: List[str]


class FullSection(_SectionBase, total=False):
    """A section of `snapshot(full=True)`: every item, nested in an outline."""
    header: Any
    items: List[ItemIn]
    selection: SelectionModeName
    allowsEmptySelection: bool


class FullSnapshotResult(_ChangeBase):
    """`snapshot(full=True)`: the whole source (in an outline, the tree as `apply` takes it)."""
    sections: List[FullSection]
    selected: List[str]


class OutlineResult(_ChangeBase):
    """`outline {source, id}`: where an item is in its tree. `children` is the number of children,
    `visible` whether the row is shown now, `path` its visible `[section, row]` or None."""
    id: str
    parent: Optional[str]
    level: int
    children: int
    hasChildren: bool
    expanded: bool
    visible: bool
    path: Optional[Path]


class SourceInfo(_ChangeBase):
    sections: int
    items: int


class SourcesResult(TypedDict):
    sources: List[SourceInfo]


class DropResult(TypedDict):
    source: str
    dropped: bool


class ServerInfo(TypedDict):
    name: str
    version: str


class InitializeResult(TypedDict):
    serverInfo: ServerInfo
    capabilities: Dict[str, Any]


@dataclass(frozen=True)
class Progress:
    """One `$/progress` notification (LSP work-done progress) for a token.

    `kind` is "begin", "report" or "end"; `percentage` (0-100), `message`,
    `title` and `cancellable` are None when the daemon did not send them.
    `value` is the notification's whole `value` object.
    """
    token: ProgressToken
    kind: str
    title: Optional[str]
    message: Optional[str]
    percentage: Optional[float]
    cancellable: Optional[bool]
    value: Dict[str, Any]

    @staticmethod
    def from_params(params: Any) -> Optional["Progress"]:
        """The progress in `$/progress` params, or None when they are not work-done progress."""
        if not isinstance(params, dict) or not isinstance(params.get("value"), dict):
            return None
        token, value = params.get("token"), params["value"]
        if not isinstance(token, (str, int)) or not isinstance(value.get("kind"), str):
            return None

        def member(key: str, *kinds: type) -> Any:
            found = value.get(key)
            if isinstance(found, bool) and bool not in kinds:  # JSON true is not a percentage
                return None
            return found if isinstance(found, kinds) else None

        return Progress(token=token, kind=value["kind"], title=member("title", str),
                        message=member("message", str), percentage=member("percentage", int, float),
                        cancellable=member("cancellable", bool), value=value)
