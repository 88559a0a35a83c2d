"""A frontend model: what a UI shows for each source, kept by replaying diffs.

`Frontend.update(result)` applies a change result (`apply`, `edit`, `search`,
`select`, `setSelectionMode`, `viewport`): its diff payload, then its
selection delta. Each diff form is one replay function in `REPLAYERS`
(result member name -> function(old view, payload) -> new view); a new form
is one more entry (`on_sections` adapts a function of the section list).
Replays are strict: a payload that breaks protocol/README.md's rules (for
`batch`, the UIKit rules; for `window`, protocol/methods/viewport.md) raises
`ReplayError` and leaves the model as it was.

Two kinds of model per source: the whole visible list (`sections`, kept by
the `batch` and `steps` forms) or, while the source has a viewport, only the
window's rows (`window`, kept by the `window` form). See `Frontend.window`.
"""
from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar

from .errors import DiffableError
from .jsonpatch import PatchError, apply_patch

SectionList = List[Dict[str, Any]]
"""Sections as `[{"id", "header"?, "items": [{"id", "content"?}]}]` (JSON dicts)."""

T = TypeVar("T")


class ReplayError(DiffableError):
    """A diff payload that cannot be replayed on the model (a protocol violation)."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise ReplayError(message)


def _row(sections: SectionList, path: Sequence[int]) -> Dict[str, Any]:
    check(len(path) == 2 and 0 <= path[0] < len(sections) and 0 <= path[1] < len(sections[path[0]]["items"]),
          f"no row at {list(path)}")
    row: Dict[str, Any] = sections[path[0]]["items"][path[1]]
    return row


def _run_entries(run: Mapping[str, Any]) -> List[Tuple[int, Dict[str, Any]]]:
    """(row, item) of each row of a reload/reconfigure run: `{"at", "items"}`, or a patch run
    `{"rows", "patches"}` (`updates: "patch"`), whose rows keep their item with its content patched."""
    if "rows" in run:
        check(len(run["rows"]) == len(run["patches"]), f"a patch run with {len(run['rows'])} rows and "
              f"{len(run['patches'])} patches")
        return [(r, {"patch": p}) for r, p in zip(run["rows"], run["patches"])]
    return [(run["at"] + k, item) for k, item in enumerate(run["items"])]


def _with_patch(item: Mapping[str, Any], held: Mapping[str, Any]) -> Dict[str, Any]:
    """The row to keep: `item`, its `patch` (`updates: "patch"`) applied to the content `held` had."""
    row = dict(item) if "id" in item else {**held, **item}
    if "patch" in row:
        patch = row.pop("patch")
        check("content" in held, f"a patch for {row.get('id')!r}, whose content the model does not hold")
        try:
            row["content"] = apply_patch(held["content"], patch)
        except PatchError as error:
            raise ReplayError(f"the patch of {row.get('id')!r} does not apply: {error}") from None
    return row


def _fill(size: int, placed: Mapping[int, T], rest: Sequence[T], what: str) -> List[T]:
    """`size` slots: `placed` at their indices, `rest` in order in the others."""
    check(all(0 <= i < size for i in placed) and len(placed) + len(rest) == size,
          f"{what}: {len(placed)} placed at {sorted(placed)} + {len(rest)} remaining != {size} slots")
    remaining = iter(rest)
    return [placed[i] if i in placed else next(remaining) for i in range(size)]


def _copied_section(section: Mapping[str, Any]) -> Dict[str, Any]:
    return {**section, "items": [dict(item) for item in section.get("items", [])]}


def replay_batch(old: SectionList, batch: Mapping[str, Any]) -> SectionList:
    """UIKit `performBatchUpdates` on `old` (protocol/README.md "Replaying a batch")."""
    sec, its = batch.get("sections", {}), batch.get("items", {})
    deleted = {start + k for start, count in sec.get("delete", []) for k in range(count)}
    moved = {m["from"]: m for m in sec.get("move", [])}
    check(not deleted & moved.keys(), "a section is both deleted and moved")
    check(all(0 <= i < len(old) for i in deleted | moved.keys()), "section delete/move out of range")
    reloads = {r["at"]: r["header"] for r in sec.get("reload", [])}
    check(all(0 <= i < len(old) for i in reloads), "section reload out of range")
    check(not reloads.keys() & (deleted | moved.keys()), "a deleted or moved section is reloaded")

    # (1)+(2) the new section list; each entry carries its old index (None: inserted)
    placed: Dict[int, Tuple[Optional[int], Dict[str, Any]]] = {}
    inserted: set[int] = set()
    for run in sec.get("insert", []):
        for k, section in enumerate(run["sections"]):
            check(run["at"] + k not in placed, f"two sections inserted at {run['at'] + k}")
            placed[run["at"] + k] = (None, _copied_section(section))
            inserted.add(run["at"] + k)
    for m in moved.values():
        check(m["to"] not in placed, f"section slot {m['to']} used twice")
        section = dict(old[m["from"]])
        if "header" in m:
            section["header"] = m["header"]
        placed[m["to"]] = (m["from"], section)
    rest: List[Tuple[Optional[int], Dict[str, Any]]] = []
    for index, section in enumerate(old):
        if index not in deleted and index not in moved:
            rest.append((index, {**section, "header": reloads[index]} if index in reloads else dict(section)))
    new = _fill(len(rest) + len(placed), placed, rest, "sections")
    old_to_new = {o: n for n, (o, _) in enumerate(new) if o is not None}

    # (3) rows, per surviving section
    gone: Dict[Tuple[int, int], str] = {}  # old path -> why it leaves its section
    for d in its.get("delete", []):
        check(d["section"] in old_to_new, f"row delete in section {d['section']}, which does not survive")
        for start, count in d["ranges"]:
            for r in range(start, start + count):
                check((d["section"], r) not in gone, f"row {[d['section'], r]} deleted twice")
                gone[(d["section"], r)] = "deleted"
    moves_in: Dict[Tuple[int, int], Dict[str, Any]] = {}
    for m in its.get("move", []):
        source, target = (m["from"][0], m["from"][1]), (m["to"][0], m["to"][1])
        check(source[0] in old_to_new and target[0] not in inserted and 0 <= target[0] < len(new),
              f"row move {m} touches a deleted/inserted section")
        check(source not in gone, f"row {list(source)} both deleted and moved")
        gone[source] = "moved"
        check(target not in moves_in, f"two rows moved to {list(target)}")
        moves_in[target] = _with_patch(m["item"], _row(old, source)) if m.get("item") else dict(_row(old, source))
    changed: Dict[Tuple[int, int], Dict[str, Any]] = {}
    for key in ("reload", "reconfigure"):
        for run in its.get(key, []):
            for r, item in _run_entries(run):
                path = (run["section"], r)
                check(path not in gone, f"row {list(path)} is {gone.get(path)} and {key}ed")
                check(path not in changed, f"row {list(path)} is reloaded/reconfigured twice")
                check(path[0] in old_to_new, f"{key} in section {path[0]}, which does not survive")
                changed[path] = _with_patch(item, _row(old, path)) if "patch" in item else dict(item)
    inserts: Dict[Tuple[int, int], Dict[str, Any]] = {}
    for run in its.get("insert", []):
        check(run["section"] not in inserted, f"row insert into inserted section {run['section']}")
        for k, item in enumerate(run["items"]):
            check((run["section"], run["at"] + k) not in inserts, "two rows inserted at one path")
            inserts[(run["section"], run["at"] + k)] = dict(item)
    check(all(p[0] in old_to_new.values() for p in list(inserts) + list(moves_in)),
          "row insert/move into a section that does not survive")
    for o, n in old_to_new.items():
        rows = old[o]["items"]
        check(all(p[1] < len(rows) for p in gone if p[0] == o), f"old row out of range in section {o}")
        check(all(p[1] < len(rows) for p in changed if p[0] == o), f"reload out of range in section {o}")
        stay = [changed.get((o, r), dict(rows[r])) for r in range(len(rows)) if (o, r) not in gone]
        arriving = [(p[1], i) for p, i in list(inserts.items()) + list(moves_in.items()) if p[0] == n]
        here = dict(arriving)
        check(len(here) == len(arriving), f"an insert and a move share a row in section {n}")
        new[n][1]["items"] = _fill(len(stay) + len(here), here, stay, f"rows of new section {n}")
    return [section for _, section in new]


def _step_range(length: int, at: int, count: int, step: Mapping[str, Any]) -> None:
    check(0 <= at and 0 <= count and at + count <= length, f"{step} out of range")


def _apply_step(sections: SectionList, step: Mapping[str, Any]) -> None:
    op = step.get("op")
    if op == "deleteItems":
        check(0 <= step["section"] < len(sections), f"{step}: no section {step['section']}")
        items = sections[step["section"]]["items"]
        _step_range(len(items), step["at"], step["count"], step)
        del items[step["at"]:step["at"] + step["count"]]
    elif op == "deleteSections":
        _step_range(len(sections), step["at"], step["count"], step)
        del sections[step["at"]:step["at"] + step["count"]]
    elif op == "moveSection":
        _step_range(len(sections), step["from"], 1, step)
        section = sections.pop(step["from"])
        _step_range(len(sections), step["to"], 0, step)
        sections.insert(step["to"], section)
    elif op == "insertSections":
        _step_range(len(sections), step["at"], 0, step)
        sections[step["at"]:step["at"]] = [_copied_section(s) for s in step["sections"]]
    elif op == "reloadSection":
        _step_range(len(sections), step["at"], 1, step)
        sections[step["at"]]["header"] = step["header"]
    elif op == "moveItem":
        item = _row(sections, step["from"])
        sections[step["from"][0]]["items"].pop(step["from"][1])
        check(0 <= step["to"][0] < len(sections), f"{step}: no section {step['to'][0]}")
        target = sections[step["to"][0]]["items"]
        _step_range(len(target), step["to"][1], 0, step)
        target.insert(step["to"][1], _with_patch(step["item"], item) if step.get("item") else dict(item))
    elif op == "insertItems":
        check(0 <= step["section"] < len(sections), f"{step}: no section {step['section']}")
        items = sections[step["section"]]["items"]
        _step_range(len(items), step["at"], 0, step)
        items[step["at"]:step["at"]] = [dict(i) for i in step["items"]]
    elif op in ("reloadItems", "reconfigureItems"):
        check(0 <= step["section"] < len(sections), f"{step}: no section {step['section']}")
        items = sections[step["section"]]["items"]
        for r, item in _run_entries(step):
            _step_range(len(items), r, 1, step)
            items[r] = _with_patch(item, items[r])
    else:
        raise ReplayError(f"unknown step {op!r}")


def replay_steps(old: SectionList, steps: Sequence[Mapping[str, Any]]) -> SectionList:
    """The sequential form: each step applies to the list the previous one left."""
    sections = [_copied_section(s) for s in old]
    for step in steps:
        try:
            _apply_step(sections, step)
        except (KeyError, TypeError, IndexError) as error:
            raise ReplayError(f"malformed step {step}: {error!r}") from None
    return sections


@dataclass
class Window:
    """A source's viewport as the frontend holds it: `rows` are flat rows `start ..< start + len(rows)`
    of a flat list of `total` rows (headers are rows); `count` is the viewport's size (near the end of
    the list fewer rows are held). Rows are the wire's dicts (`id`, `section`, `header`?, `content`?,
    `selected`?, `highlights`? or `fieldHighlights`?), with the content of `echo: "ids"` rows filled in (`Frontend.sending`)."""
    total: int = 0
    start: int = 0
    count: int = 0
    rows: List[Dict[str, Any]] = field(default_factory=list)


@dataclass
class SourceView:
    """One source as the frontend shows it. `sections` is the whole visible list while `holds_list`;
    while the source has a viewport only `window` is kept (`sections` is then empty and `holds_list`
    False until a `load`). `sent`: id -> item as the client last sent it (`Frontend.sending`)."""
    version: int = 0
    sections: SectionList = field(default_factory=list)
    selected: set[str] = field(default_factory=set)
    window: Optional[Window] = None
    holds_list: bool = True
    sent: Dict[str, Dict[str, Any]] = field(default_factory=dict)


Replayer = Callable[[SourceView, Any], SourceView]
"""A diff form: (the view before, the result's payload) -> a new view (never modifying the old one)."""


def on_sections(replay: Callable[[SectionList, Any], SectionList]) -> Replayer:
    """A form that rewrites the whole section list (`batch`, `steps`) as a `Replayer`: it needs the
    list (not only a window), and an answer in it means the source has no viewport (any more). Items
    without content get the content recorded by `Frontend.sending` (`echo: "ids"`)."""
    def replayer(view: SourceView, payload: Any) -> SourceView:
        check(view.holds_list, "a whole-list diff for a source whose model holds only a window: "
                               "load a snapshot first (Frontend.load)")
        sections = replay(view.sections, payload)
        if view.sent:  # echo "ids": items the client just sent come back without their content
            for section in sections:
                for item in section["items"]:
                    if "content" not in item and view.sent.get(item["id"], {}).get("content") is not None:
                        item["content"] = view.sent[item["id"]]["content"]
        return dataclasses.replace(view, sections=sections, window=None)
    return replayer


def _int(value: Any, what: str, minimum: int = 0) -> int:
    check(isinstance(value, int) and not isinstance(value, bool) and value >= minimum,
          f"{what} is {value!r}, not an integer >= {minimum}")
    return int(value)


def _window_rows(rows: Any, step: Mapping[str, Any],
                 sent: Mapping[str, Mapping[str, Any]]) -> List[Dict[str, Any]]:
    check(isinstance(rows, list) and len(rows) > 0, f"{step}: no rows")
    out: List[Dict[str, Any]] = []
    for row in rows:
        check(isinstance(row, dict) and isinstance(row.get("id"), str) and isinstance(row.get("section"), str),
              f"{step}: a row without id or section: {row!r}")
        row = dict(row)
        if (not row.get("header") and "content" not in row and "patch" not in row
                and sent.get(row["id"], {}).get("content") is not None):
            row["content"] = sent[row["id"]]["content"]  # echo "ids": the content this client sent
        out.append(row)
    return out


def replay_window(old: Optional[Window], payload: Mapping[str, Any],
                  sent: Optional[Mapping[str, Mapping[str, Any]]] = None) -> Window:
    """The window form (protocol/methods/viewport.md): sequential steps over the rows `old` holds
    (none when the viewport is new), checked to leave exactly `min(count, total - start)` distinct
    rows. Rows without content whose id is in `sent` (id -> item) get that item's content."""
    try:
        return _replay_window(old, payload, sent or {})
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ReplayError(f"malformed window payload: {error!r}") from None


def _replay_window(old: Optional[Window], payload: Mapping[str, Any],
                   sent: Mapping[str, Mapping[str, Any]]) -> Window:
    total, start = _int(payload["total"], "window.total"), _int(payload["start"], "window.start")
    count = _int(payload["count"], "window.count", 1)
    rows = [dict(r) for r in old.rows] if old is not None else []
    check(isinstance(payload["steps"], list), "window.steps is not a list")
    for step in payload["steps"]:
        op = step.get("op") if isinstance(step, dict) else None
        if op == "delete":
            at, n = _int(step["at"], f"{step} at"), _int(step["count"], f"{step} count", 1)
            check(at + n <= len(rows), f"{step} out of range of {len(rows)} rows")
            del rows[at:at + n]
        elif op == "insert":
            at = _int(step["at"], f"{step} at")
            check(at <= len(rows), f"{step} out of range of {len(rows)} rows")
            rows[at:at] = _window_rows(step["rows"], step, sent)
        elif op == "move":
            source, target = _int(step["from"], f"{step} from"), _int(step["to"], f"{step} to")
            check(source < len(rows) and target < len(rows), f"{step} out of range of {len(rows)} rows")
            rows.insert(target, rows.pop(source))
        elif op == "update":
            at = _int(step["at"], f"{step} at")
            new = _window_rows(step["rows"], step, sent)
            check(at + len(new) <= len(rows), f"{step} out of range of {len(rows)} rows")
            for k, row in enumerate(new):
                held = rows[at + k]
                check((held["id"], bool(held.get("header"))) == (row["id"], bool(row.get("header"))),
                      f"{step}: the update of row {at + k} ({held['id']}) names another row ({row['id']})")
                rows[at + k] = _with_patch(row, held)
        else:
            raise ReplayError(f"unknown window step {step!r}")
    expected = min(count, max(total - start, 0))
    check(len(rows) == expected, f"the window holds {len(rows)} rows after its steps, not min(count {count}, "
                                 f"total {total} - start {start}) = {expected}")
    keys = [(bool(r.get("header")), r["id"]) for r in rows]
    check(len(set(keys)) == len(keys), f"a row twice in the window: {[r['id'] for r in rows]}")
    return Window(total=total, start=start, count=count, rows=rows)


def _replay_window_view(view: SourceView, payload: Any) -> SourceView:
    if payload is None:
        # `window: null`: the viewport was removed (by `viewport`, or a change's `viewport: null` / `count: 0`,
        # which then answers no diff at all even when it changed the list, and even when there was no
        # viewport before): the list is not held until a `load` of `snapshot`
        return dataclasses.replace(view, window=None, sections=[], holds_list=False)
    window = replay_window(view.window, payload, view.sent)
    return dataclasses.replace(view, window=window, sections=[], holds_list=False)


REPLAYERS: Dict[str, Replayer] = {"batch": on_sections(replay_batch), "steps": on_sections(replay_steps),
                                  "window": _replay_window_view}
"""Diff forms by the result member that carries them."""


@dataclass(frozen=True)
class Row:
    """A visible row: a section header (`item_id` None) or an item of `section_id`."""
    section_id: str
    item_id: Optional[str]
    value: Any  # the header for header rows, the content for item rows (None when absent)
    selected: bool = False
    level: Optional[int] = None
    """Outlines (protocol/methods/outline.md): 0 for a top-level item, parent's + 1 below; None for
    header rows and in flat sources. `parent`, `has_children`, `expanded` as the daemon sent them."""
    parent: Optional[str] = None
    has_children: bool = False
    expanded: bool = False

    @property
    def is_header(self) -> bool:
        return self.item_id is None

    @property
    def outline_prefix(self) -> str:
        """Two spaces per level, then `▾ ` (expanded) or `▸ ` (collapsed) for a row with children;
        "" in flat sources."""
        if self.level is None:
            return ""
        return "  " * self.level + (("▾ " if self.expanded else "▸ ") if self.has_children else "")


class Frontend:
    """Per source: the visible sections, the version, the selected item ids."""

    def __init__(self) -> None:
        self._views: Dict[str, SourceView] = {}

    def view(self, source: str) -> SourceView:
        return self._views.setdefault(source, SourceView())

    def update(self, result: Mapping[str, Any]) -> None:
        """Replays a change result; raises ReplayError (model untouched) if it breaks the rules."""
        view = self.view(result["source"])
        forms = [name for name in REPLAYERS if name in result]
        check(len(forms) <= 1, f"a result with several diff forms: {forms}")
        new = dataclasses.replace(view)
        try:
            for name in forms:
                new = REPLAYERS[name](view, result[name])
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ReplayError(f"malformed {forms} payload: {error!r}") from None
        new.selected = self._replay_selection(new.sections if new.holds_list else None, set(view.selected),
                                              result.get("selection"))
        new.version = result["version"]
        self._views[result["source"]] = new

    @staticmethod
    def _replay_selection(sections: Optional[SectionList], selected: set[str],
                          delta: Optional[Mapping[str, Any]]) -> set[str]:
        if not delta:
            return selected
        for change in delta.get("deselected", []):
            selected.discard(change["id"])
        for change in delta.get("selected", []) + delta.get("kept", []):
            selected.add(change["id"])
        if "rows" in delta and sections is not None:  # every selected visible row: check it against the list
            expected = [[si, ri] for si, s in enumerate(sections)
                        for ri, item in enumerate(s["items"]) if item["id"] in selected]
            check([r["path"] for r in delta["rows"]] == expected,
                  f"selection.rows {delta['rows']} != selected visible rows {expected} of the model")
            for r in delta["rows"]:
                check(_row(sections, r["path"])["id"] == r["id"], f"selection row {r} names another item")
        return selected

    def load(self, snapshot: Mapping[str, Any]) -> None:
        """Replaces a source's list with a `snapshot` result (to start, to resync after a timeout, or
        after its viewport was removed). A window, if any, is kept: while the daemon still has a
        viewport its answers replay onto it (resync a window with `load_window`)."""
        view = self.view(snapshot["source"])
        self._views[snapshot["source"]] = dataclasses.replace(
            view, version=snapshot["version"], selected=set(snapshot.get("selected", [])), holds_list=True,
            sections=[{"id": s["id"], **({"header": s["header"]} if s.get("header") is not None else {}),
                       "items": [dict(i) for i in s.get("items", [])]} for s in snapshot["sections"]])

    def load_window(self, rows_result: Mapping[str, Any], count: int) -> None:
        """Replaces a source's window with a `rows` result read at the viewport's start with its `count`
        (to resync a windowed model, e.g. after a timeout)."""
        view = self.view(rows_result["source"])
        window = Window(total=rows_result["total"], start=rows_result["start"], count=count,
                        rows=[dict(r) for r in rows_result["rows"]])
        self._views[rows_result["source"]] = dataclasses.replace(
            view, version=rows_result["version"], window=window, sections=[], holds_list=False)

    def sending(self, source: str, *, sections: Optional[Iterable[Mapping[str, Any]]] = None,
                ops: Optional[Iterable[Mapping[str, Any]]] = None) -> None:
        """Records the items of an `apply` (`sections`: they replace what was recorded) or of an `edit`
        (`ops`: inserted, appended and `setContent` items), to be called before sending it, so that
        `echo: "ids"` window rows, which carry only their id, get the content this client sent."""
        view = self.view(source)
        if sections is not None:
            view.sent = {}
        for section in sections or []:
            self._remember(view, section.get("items", []))
        for op in ops or []:
            if op.get("op") in ("appendSections", "insertSections"):
                for section in op.get("sections", []):
                    self._remember(view, section.get("items", []))
            elif op.get("op") in ("appendItems", "insertItems", "setContent", "replaceChildren"):
                self._remember(view, op.get("items", []))
            elif op.get("op") == "patchContent":  # the content the patch makes of what this model holds
                held = self._held_content(view, op["id"])
                if held is not None:
                    view.sent[op["id"]] = {"id": op["id"], "content": apply_patch(held[0], op["patch"])}

    @staticmethod
    def _held_content(view: SourceView, item_id: str) -> Optional[Tuple[Any]]:
        """(content,) of an item as this model holds it (listed, in the window, else as last sent), else None."""
        for item in [i for s in view.sections for i in s["items"] if i["id"] == item_id] + [
                r for r in (view.window.rows if view.window else []) if not r.get("header") and r["id"] == item_id] + (
                [view.sent[item_id]] if item_id in view.sent else []):
            if "content" in item:
                return (item["content"],)
        return None

    @staticmethod
    def _remember(view: SourceView, items: Iterable[Any]) -> None:
        for item in items:
            entry: Dict[str, Any] = {"id": item} if isinstance(item, str) else dict(item)
            view.sent[entry["id"]] = entry
            Frontend._remember(view, entry.get("children") or [])  # outlines: nested items

    def window(self, source: str) -> Optional[Window]:
        """A copy of the source's window (`total`, `start`, `count`, `rows`), None without a viewport."""
        window = self.view(source).window
        return copy.deepcopy(window) if window is not None else None

    def forget(self, source: str) -> None:
        """After `drop`."""
        self._views.pop(source, None)

    def version(self, source: str) -> int:
        return self.view(source).version

    def selected(self, source: str) -> set[str]:
        return set(self.view(source).selected)

    def sections(self, source: str) -> SectionList:
        """A deep copy of the visible sections."""
        return copy.deepcopy(self.view(source).sections)

    def rows(self, source: str) -> List[Row]:
        """The visible rows flattened: each section's header row, then its item rows."""
        return list(self._iter_rows(self.view(source)))

    @staticmethod
    def _iter_rows(view: SourceView) -> Iterator[Row]:
        for section in view.sections:
            yield Row(section["id"], None, section.get("header"))
            for item in section["items"]:
                yield Row(section["id"], item["id"], item.get("content"), item["id"] in view.selected,
                          level=item.get("level"), parent=item.get("parent"),
                          has_children=bool(item.get("hasChildren")), expanded=bool(item.get("expanded")))

    def lines(self, source: str) -> List[str]:
        """A text rendering: `[section] header` lines, then `  * id: content` (`*` = selected); outline
        rows indented by level, with `▸`/`▾` before items that have children (`Row.outline_prefix`)."""
        return [f"[{row.section_id}] {json.dumps(row.value)}" if row.is_header
                else f"  {'*' if row.selected else ' '} {row.outline_prefix}{row.item_id}: {json.dumps(row.value)}"
                for row in self.rows(source)]


def normalized(sections: Sequence[Mapping[str, Any]]) -> SectionList:
    """Sections without selection policies and with absent == null headers (for comparisons)."""
    return [{"id": s["id"], "header": s.get("header"), "items": list(s.get("items", []))} for s in sections]
