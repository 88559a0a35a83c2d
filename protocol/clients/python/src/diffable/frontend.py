"""A frontend model: what a UI shows for each source, kept by replaying diffs.

`Frontend.update(result)` applies a change result (`apply`, `edit`, `search`,
`select`, `setSelectionMode`): its diff payload, then its selection delta.
Each diff form is one replay function in `REPLAYERS` (result member name ->
function(old sections, payload) -> new sections); a new form is one more
entry. Replays are strict: a payload that breaks protocol/README.md's rules
(for `batch`, the UIKit rules) raises `ReplayError` and leaves the model as
it was.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar

from .errors import DiffableError

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
        moves_in[target] = dict(m.get("item") or _row(old, source))
    changed: Dict[Tuple[int, int], Dict[str, Any]] = {}
    for key in ("reload", "reconfigure"):
        for run in its.get(key, []):
            for k, item in enumerate(run["items"]):
                path = (run["section"], run["at"] + k)
                check(path not in gone, f"row {list(path)} is {gone.get(path)} and {key}ed")
                check(path not in changed, f"row {list(path)} is reloaded/reconfigured twice")
                check(path[0] in old_to_new, f"{key} in section {path[0]}, which does not survive")
                changed[path] = dict(item)
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
        target.insert(step["to"][1], dict(step.get("item") or item))
    elif op == "insertItems":
        check(0 <= step["section"] < len(sections), f"{step}: no section {step['section']}")
        items = sections[step["section"]]["items"]
        _step_range(len(items), step["at"], 0, step)
        items[step["at"]:step["at"]] = [dict(i) for i in step["items"]]
    elif op in ("reloadItems", "reconfigureItems"):
        check(0 <= step["section"] < len(sections), f"{step}: no section {step['section']}")
        items = sections[step["section"]]["items"]
        _step_range(len(items), step["at"], len(step["items"]), step)
        items[step["at"]:step["at"] + len(step["items"])] = [dict(i) for i in step["items"]]
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


Replayer = Callable[[SectionList, Any], SectionList]
REPLAYERS: Dict[str, Replayer] = {"batch": replay_batch, "steps": replay_steps}
"""Diff forms by the result member that carries them."""


@dataclass
class SourceView:
    """One source as the frontend shows it."""
    version: int = 0
    sections: SectionList = field(default_factory=list)
    selected: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Row:
    """A visible row: a section header (`item_id` None) or an item of `section_id`."""
    section_id: str
    item_id: Optional[str]
    value: Any  # the header for header rows, the content for item rows (None when absent)
    selected: bool = False

    @property
    def is_header(self) -> bool:
        return self.item_id is None


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
        sections = view.sections
        try:
            for name in forms:
                sections = REPLAYERS[name](view.sections, result[name])
        except (KeyError, TypeError, IndexError) as error:
            raise ReplayError(f"malformed {forms} payload: {error!r}") from None
        selected = self._replay_selection(sections, set(view.selected), result.get("selection"))
        view.sections, view.selected, view.version = sections, selected, result["version"]

    @staticmethod
    def _replay_selection(sections: SectionList, selected: set[str], delta: Optional[Mapping[str, Any]]) -> set[str]:
        if not delta:
            return selected
        for change in delta.get("deselected", []):
            selected.discard(change["id"])
        for change in delta.get("selected", []) + delta.get("kept", []):
            selected.add(change["id"])
        if "rows" in delta:  # every selected visible row, in visible order: check it against the model
            expected = [[si, ri] for si, s in enumerate(sections)
                        for ri, item in enumerate(s["items"]) if item["id"] in selected]
            check([r["path"] for r in delta["rows"]] == expected,
                  f"selection.rows {delta['rows']} != selected visible rows {expected} of the model")
            for r in delta["rows"]:
                check(_row(sections, r["path"])["id"] == r["id"], f"selection row {r} names another item")
        return selected

    def load(self, snapshot: Mapping[str, Any]) -> None:
        """Replaces a source's model with a `snapshot` result (to start, or to resync after a timeout)."""
        self._views[snapshot["source"]] = SourceView(
            version=snapshot["version"], selected=set(snapshot.get("selected", [])),
            sections=[{"id": s["id"], **({"header": s["header"]} if s.get("header") is not None else {}),
                       "items": [dict(i) for i in s.get("items", [])]} for s in snapshot["sections"]])

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
                yield Row(section["id"], item["id"], item.get("content"), item["id"] in view.selected)

    def lines(self, source: str) -> List[str]:
        """A text rendering: `[section] header` lines, then `  * id: content` (`*` = selected)."""
        return [f"[{row.section_id}] {json.dumps(row.value)}" if row.is_header
                else f"  {'*' if row.selected else ' '} {row.item_id}: {json.dumps(row.value)}"
                for row in self.rows(source)]


def normalized(sections: Sequence[Mapping[str, Any]]) -> SectionList:
    """Sections without selection policies and with absent == null headers (for comparisons)."""
    return [{"id": s["id"], "header": s.get("header"), "items": list(s.get("items", []))} for s in sections]
