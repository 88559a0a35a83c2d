"""A seeded random session against a real daemon, checking the replayed model after every step.

Every round sends one random `apply` (moves within and across sections,
content, header, section and policy changes), `edit`, `select` or `search`
(substring/fuzzy, scoped, ordered, limited, with placeholders of varying id
and content, some of them invalid on purpose) in a random diff form, some with
`$/progress` asked for (it must go begin, report..., end), replays
the answer with `Frontend`, and compares the model with the daemon's
`snapshot` (sections, version, selection). Highlights must name rows of the
model. A mismatch raises `ReplayError` with the request, the response, the
model before and both snapshots.
"""
from __future__ import annotations

import collections
import json
import random
from typing import Any, Callable, Counter, Dict, List, Mapping, Optional, Sequence

from .client import Client
from .errors import RpcError
from .frontend import Frontend, ReplayError, SectionList, normalized
from .types import Progress

WORDS = "grace liam ava ruby stella jack emma olivia ethan amelia lucas noah isla mason chloe".split()
SOURCES = ("people", "fruit")
EXPECTED_REJECTIONS = (1004, 1005, -32602)  # rejected edits, selections, invalid placeholders: nothing changes


def random_snapshot(rng: random.Random, full: SectionList) -> SectionList:
    """A random successor of `full` (the daemon's whole snapshot)."""
    items = [i for s in full for i in s["items"]]
    rng.shuffle(items)
    keep = [dict(i) for i in items if rng.random() < 0.8]
    used = {i["id"] for i in items}
    for _ in range(rng.randint(0, 4)):  # new items
        item_id = f"i{rng.randrange(60)}"
        if item_id not in used:
            used.add(item_id)
            keep.append({"id": item_id})
    for item in keep:
        if "content" not in item or rng.random() < 0.2:  # content change
            r = rng.random()
            content = {"text": " ".join(rng.sample(WORDS, 2))} if r < 0.8 else (rng.choice(WORDS) if r < 0.9 else None)
            item.pop("content", None)
            if content is not None:
                item["content"] = content
    ids = [s["id"] for s in full if rng.random() < 0.85] + [f"s{rng.randrange(8)}" for _ in range(rng.randint(0, 2))]
    ids = list(dict.fromkeys(ids)) or ["s0"]
    if rng.random() < 0.4:
        rng.shuffle(ids)
    sections: SectionList = []
    for sid in ids:
        old = next((s for s in full if s["id"] == sid), {})
        section: Dict[str, Any] = {"id": sid, "items": []}
        header = old.get("header") if rng.random() < 0.8 else rng.choice([None, sid.upper(), {"title": rng.choice(WORDS)}])
        if header is not None:
            section["header"] = header
        if rng.random() < 0.2:
            section["selection"] = rng.choice(["single", "multiple", "none"])
        sections.append(section)
    home = {i["id"]: s["id"] for s in full for i in s["items"]}  # mostly keep each item in its section
    for item in sorted(keep, key=lambda _: rng.random() if rng.random() < 0.3 else 0):
        target = next((s for s in sections if s["id"] == home.get(item["id"])), None)
        if target is None or rng.random() < 0.25:
            target = rng.choice(sections)
        target["items"].append(item)
    return sections


def random_search(rng: random.Random, name: str, current: SectionList, form: str) -> Dict[str, Any]:
    texts = [i["content"]["text"] for s in current for i in s["items"] if isinstance(i.get("content"), dict)]
    text = rng.choice(texts) if texts else "x"
    start = rng.randrange(len(text))
    params: Dict[str, Any] = {"source": name, "form": form, "mode": rng.choice(["substring", "fuzzy"]),
                              "query": rng.choice(["", text[start:start + rng.randint(1, 4)], "zz", "gr", "Gr"])}
    if rng.random() < 0.5:
        params["sections"] = rng.sample([s["id"] for s in current], rng.randint(1, len(current)))
    if rng.random() < 0.3:
        params["order"] = rng.choice(["source", "score"])
    if rng.random() < 0.3:
        params["limit"] = rng.randint(0, 5)
    if rng.random() < 0.2:
        params["highlightLimit"] = rng.randint(0, 3)
    if rng.random() < 0.4:
        existing = [i["id"] for s in current for i in s["items"]]
        # mostly fresh ids (the daemon must swap one placeholder for another), sometimes an item's id (-32602)
        placeholder_id = rng.choice(existing) if existing and rng.random() < 0.1 else f"none-{rng.randrange(3)}"
        placeholder: Dict[str, Any] = {"id": placeholder_id}
        if rng.random() < 0.7:
            placeholder["content"] = {"text": rng.choice(["No results", "Nothing for that", "Empty"])}
        params["placeholder"] = placeholder
    return params


def random_edit(rng: random.Random, name: str, current: SectionList, form: str, round_number: int) -> Dict[str, Any]:
    items = [i["id"] for s in current for i in s["items"]]
    ops: List[Dict[str, Any]] = [{"op": "appendItems", "items": [f"e{round_number}"]}]
    if len(items) >= 2:
        a, b = rng.sample(items, 2)
        ops.append(rng.choice([
            {"op": "moveItem", "id": a, "before": b}, {"op": "deleteItems", "ids": [a]},
            {"op": "setContent", "items": [{"id": a, "content": {"text": rng.choice(WORDS)}}],
             **({"style": "reconfigure"} if rng.random() < 0.5 else {})}]))
    return {"source": name, "ops": ops, "form": form}


def random_select(rng: random.Random, name: str, current: SectionList) -> Dict[str, Any]:
    items = [i["id"] for s in current for i in s["items"]]
    params: Dict[str, Any] = {"source": name, "action": rng.choice(["select", "deselect", "toggle", "clear"])}
    if params["action"] != "clear" and items:
        params["ids"] = [rng.choice(items)]
    return params


def _check_against_daemon(client: Client, frontend: Frontend, name: str, what: str, before: Any,
                          result: Any) -> None:
    truth: Any = client.snapshot(name)
    view = frontend.view(name)
    if normalized(view.sections) != normalized(truth["sections"]) or view.version != truth["version"] \
            or view.selected != set(truth["selected"]):
        raise ReplayError(f"after {what}: model != daemon snapshot\n model:  v{view.version} "
                          f"{json.dumps(normalized(view.sections))} selected={sorted(view.selected)}\n"
                          f" daemon: v{truth['version']} {json.dumps(normalized(truth['sections']))} "
                          f"selected={sorted(truth['selected'])}\n model before: {json.dumps(before)}\n"
                          f" response: {json.dumps(result)}")
    for highlight in (result or {}).get("highlights", []):
        section, row = highlight["path"]
        rows = view.sections[section]["items"] if 0 <= section < len(view.sections) else []
        if not (0 <= row < len(rows) and rows[row]["id"] == highlight["id"]):
            raise ReplayError(f"after {what}: highlight {highlight} names no such row of the model")


def _check_progress(events: List[Progress], what: str) -> None:
    """LSP work-done progress of one answered request: begin, reports, end; percentages 0-100, rising."""
    kinds = [event.kind for event in events]
    if len(kinds) < 2 or kinds[0] != "begin" or kinds[-1] != "end" or "begin" in kinds[1:] or "end" in kinds[:-1]:
        raise ReplayError(f"{what}: progress {kinds} is not begin, report..., end")
    percentages = [event.percentage for event in events if event.percentage is not None]
    if percentages != sorted(percentages) or not all(0 <= p <= 100 for p in percentages):
        raise ReplayError(f"{what}: progress percentages {percentages} do not rise within 0-100")


def run_session(client: Client, seed: int, rounds: int,
                log: Optional[Callable[[str], None]] = None) -> Counter[str]:
    """Plays `rounds` random requests; returns how many of each kind ran (and how many were rejected).
    The client should be initialized with `supersedeSearches: False` (it sends one request at a time
    anyway, so nothing is superseded either way)."""
    rng = random.Random(seed)
    frontend = Frontend()
    counts: Counter[str] = collections.Counter()
    full: Dict[str, SectionList] = {}
    for n in range(rounds):
        name = rng.choice(SOURCES)
        current = full.get(name, [])
        kind = rng.choice(["apply"] * 5 + ["search"] * 3 + ["select", "edit"]) if current else "apply"
        form = rng.choice(["batch", "steps"])
        params: Dict[str, Any]
        if kind == "apply":
            params = {"source": name, "sections": random_snapshot(rng, current), "form": form}
        elif kind == "search":
            params = random_search(rng, name, current, form)
        elif kind == "select":
            params = random_select(rng, name, current)
        else:
            params = random_edit(rng, name, current, form, n)
        before, result = json.loads(json.dumps(normalized(frontend.view(name).sections))), None
        events: List[Progress] = []
        wants_progress = kind in ("apply", "edit", "search") and rng.random() < 0.3
        try:
            result = client.request(kind, params, progress=events.append if wants_progress else None)
            frontend.update(result)
            counts[kind] += 1
            if wants_progress:
                _check_progress(events, f"round {n}: {kind}")
                counts["with progress"] += 1
        except RpcError as error:
            if error.code not in EXPECTED_REJECTIONS:
                raise ReplayError(f"round {n}: {kind} {json.dumps(params)} failed: {error}") from None
            counts["rejected"] += 1
        what = f"round {n}: {kind} {json.dumps(params)}"
        if log is not None:
            log(what)
        _check_against_daemon(client, frontend, name, what, before, result)
        full[name] = [dict(section) for section in client.snapshot(name, full=True)["sections"]]
    return counts


# -- with a viewport -------------------------------------------------------------------------------

def _flat_total(sections: Sequence[Mapping[str, Any]]) -> int:
    """Rows of the flat list: each section's header row (when it has a header) and its items."""
    return sum((section.get("header") is not None) + len(section.get("items", [])) for section in sections)


def _check_window(client: Client, frontend: Frontend, name: str, what: str, before: Any, result: Any) -> None:
    """The replayed window against the daemon's `rows` at the same start and count (rows, total,
    version), and the selection against `snapshot`; without a window, the whole model as in
    `run_session`."""
    view = frontend.view(name)
    if view.window is None:
        _check_against_daemon(client, frontend, name, what, before, result)
        return
    window = view.window
    truth: Any = client.rows(name, start=window.start, count=window.count)
    snapshot: Any = client.snapshot(name)
    problems = []
    if (truth["version"], truth["total"], truth["start"]) != (view.version, window.total, window.start):
        problems.append(f"version/total/start: model v{view.version} {window.total}/{window.start}, "
                        f"daemon v{truth['version']} {truth['total']}/{truth['start']}")
    if truth["rows"] != window.rows:
        problems.append(f"rows:\n  model:  {json.dumps(window.rows)}\n  daemon: {json.dumps(truth['rows'])}")
    if _flat_total(snapshot["sections"]) != truth["total"]:
        problems.append(f"rows.total {truth['total']} != the snapshot's {_flat_total(snapshot['sections'])} flat rows")
    if view.selected != set(snapshot["selected"]):
        problems.append(f"selected: model {sorted(view.selected)}, daemon {sorted(snapshot['selected'])}")
    if problems:
        raise ReplayError(f"after {what}: window (start {window.start}, count {window.count}) != the daemon's\n "
                          + "\n ".join(problems) + f"\n window before: {json.dumps(before)}\n"
                          f" response: {json.dumps(result)}")


def run_window_session(client: Client, seed: int, rounds: int, log: Optional[Callable[[str], None]] = None,
                       echoes: Sequence[str] = ("ids", "full")) -> Counter[str]:
    """`run_session` with viewports: random `apply` and `edit` (some with an `echo` from `echoes`), `select` and
    `search`, most with a `viewport` member (a new window, or null / `count: 0` removing it), scrolls
    (`viewport` method, sometimes past the end) and removals (`viewport` with `count: 0`). After every
    step the replayed window must equal the daemon's `rows` at the same start and count (and `total`),
    or, without a viewport, the whole model its `snapshot`. Returns the counts of what ran."""
    rng = random.Random(seed)
    frontend = Frontend()
    counts: Counter[str] = collections.Counter()
    name = "people"
    full: SectionList = []
    for n in range(rounds):
        view = frontend.view(name)
        windowed = view.window is not None
        if not full:
            kind = "apply"
        else:
            kind = rng.choice(["apply"] * 3 + ["edit"] * 2 + ["select"] * 2 + ["search"] * 3 + ["scroll"] * 3
                              + (["unview"] if windowed else ["scroll"]))
        visible = _flat_total(client.snapshot(name)["sections"]) if full else 0

        def random_viewport() -> Dict[str, Any]:
            return {"start": rng.randint(0, visible + 2), "count": rng.choice([1, 2, 3, 5, 8, 13, 40])}

        form = rng.choice(["batch", "steps"])
        params: Dict[str, Any]
        if kind == "apply":
            params = {"source": name, "sections": random_snapshot(rng, full), "form": form}
        elif kind == "edit":
            params = random_edit(rng, name, full, form, n)
        elif kind == "select":
            params = random_select(rng, name, full)
        elif kind == "search":
            params = random_search(rng, name, full, form)
        elif kind == "scroll":
            params = {"source": name, **random_viewport()}
        else:
            params = {"source": name, "count": 0}
        if kind in ("apply", "edit", "search"):
            r = rng.random()
            if r < 0.45 or not full:
                params["viewport"] = random_viewport()
                counts["with viewport"] += 1
            elif r < 0.55:  # also without a window: the answer is `window: null` all the same
                params["viewport"] = rng.choice([None, {"start": 0, "count": 0}, {"count": 0}])
                counts["viewport removed by a change"] += 1
        if kind in ("apply", "edit") and rng.random() < 0.6:
            params["echo"] = rng.choice(list(echoes))
            counts[f"echo {params['echo']}"] += 1
        before = [dict(r) for r in view.window.rows] if view.window is not None else normalized(view.sections)
        method = "viewport" if kind in ("scroll", "unview") else kind
        if kind == "apply":
            frontend.sending(name, sections=params["sections"])
        elif kind == "edit":
            frontend.sending(name, ops=params["ops"])
        what = f"round {n}: {method} {json.dumps(params)}"
        result = None
        try:
            result = client.request(method, params)
            frontend.update(result)
            counts[kind] += 1
            if "window" in result:
                counts["window answers"] += 1
            if result.get("window", {}) is None:  # the viewport is gone (`window: null`): take the whole list
                frontend.load(client.snapshot(name))
        except RpcError as error:
            if error.code not in EXPECTED_REJECTIONS:
                raise ReplayError(f"{what} failed: {error}") from None
            counts["rejected"] += 1
        if log is not None:
            log(what)
        _check_window(client, frontend, name, what, before, result)
        full = [dict(section) for section in client.snapshot(name, full=True)["sections"]]
    return counts


# -- outlines (protocol/methods/outline.md) --------------------------------------------------------

OUTLINE_WORDS = "src view model store cache tests readme docs main util grace ava éva zoë".split()


def _outline_content(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.6:
        return {"text": f"{rng.choice(OUTLINE_WORDS)} {rng.choice(OUTLINE_WORDS)}"}
    return rng.choice(OUTLINE_WORDS) if roll < 0.85 else None


def random_tree_items(rng: random.Random, fresh: Callable[[], str], depth: int, most: int,
                      nest: bool = True) -> List[Any]:
    """Random items, nested up to 3 levels (`children`, sometimes `expanded`); ids from `fresh`.
    `nest=False`: leaves only (a flat source, or flat items added to one)."""
    items: List[Any] = []
    for _ in range(rng.randint(1 if depth == 0 else 0, most)):
        item_id, content = fresh(), _outline_content(rng)
        item: Dict[str, Any] = {"id": item_id, **({"content": content} if content is not None else {})}
        if nest and depth < 3 and rng.random() < 0.45:
            item["children"] = random_tree_items(rng, fresh, depth + 1, 3)
            if rng.random() < 0.5:
                item["expanded"] = rng.random() < 0.7
        elif content is None and rng.random() < 0.5:
            items.append(item_id)
            continue
        items.append(item)
    return items


def tree_nodes(sections: Sequence[Mapping[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """id -> {section, parent, level, children (ids), expanded} of a `snapshot(full=True)`, in tree order."""
    nodes: Dict[str, Dict[str, Any]] = {}

    def walk(items: Sequence[Any], section: str, parent: Optional[str], level: int) -> None:
        for raw in items:
            item = {"id": raw} if isinstance(raw, str) else raw
            children = item.get("children") or []
            nodes[item["id"]] = {"section": section, "parent": parent, "level": level,
                                 "children": [c if isinstance(c, str) else c["id"] for c in children],
                                 "expanded": bool(item.get("expanded"))}
            walk(children, section, item["id"], level + 1)
    for section in sections:
        walk(section.get("items", []), section["id"], None, 0)
    return nodes


def is_nested(sections: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a tree (`snapshot(full=True)` sections) has nested items: without any, the source is flat."""
    return any(node["children"] for node in tree_nodes(sections).values())


def visible_from_tree(sections: Sequence[Mapping[str, Any]]) -> SectionList:
    """The visible rows the spec derives from a tree without a search: children only under expanded
    items, each row with `level`, `parent`, `hasChildren`, `expanded` (none of them in a flat source)."""
    nested = is_nested(sections)

    def walk(items: Sequence[Any], level: int, parent: Optional[str], into: List[Dict[str, Any]]) -> None:
        for raw in items:
            item = {"id": raw} if isinstance(raw, str) else raw
            children = item.get("children") or []
            row: Dict[str, Any] = {"id": item["id"]}
            if "content" in item:
                row["content"] = item["content"]
            if not nested:
                into.append(row)
                continue
            row["level"] = level
            if parent is not None:
                row["parent"] = parent
            if children:
                row["hasChildren"] = True
                if item.get("expanded"):
                    row["expanded"] = True
            into.append(row)
            if children and item.get("expanded"):
                walk(children, level + 1, item["id"], into)
    out: SectionList = []
    for section in sections:
        rows: List[Dict[str, Any]] = []
        walk(section.get("items", []), 0, None, rows)
        out.append({"id": section["id"], "header": section.get("header"), "items": rows})
    return out


def random_outline_edit(rng: random.Random, fresh: Callable[[], str],
                        nodes: Mapping[str, Mapping[str, Any]]) -> List[Dict[str, Any]]:
    """1-3 tree ops; some name unknown ids or move an item into its own subtree (1004)."""
    ids = list(nodes)
    folders = [i for i in ids if nodes[i]["children"]]

    def any_id() -> str:  # the tree may be empty (everything deleted)
        return "nope" if not ids or rng.random() < 0.04 else rng.choice(ids)

    def some() -> str:
        return rng.choice(ids) if ids else "nope"

    def nest() -> bool:  # flat new items keep a flat source flat (deletes and replaceChildren flatten a nested one)
        return rng.random() >= 0.3

    def position() -> Dict[str, str]:
        return {rng.choice(["before", "after"]): any_id()}

    ops: List[Dict[str, Any]] = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["appendParent", "appendParent", "appendSection", "insert", "delete", "move", "move",
                           "moveParent", "moveParent", "replaceChildren", "expand", "collapse", "setContent",
                           "reload"])
        new = random_tree_items(rng, fresh, 1, 2, nest()) + [fresh()]
        if kind == "appendParent":
            ops.append({"op": "appendItems", "parent": any_id(), "items": new})
        elif kind == "appendSection":
            ops.append({"op": "appendItems", "section": "s0", "items": new})
        elif kind == "insert":
            ops.append({"op": "insertItems", "items": new, **position()})
        elif kind == "delete" and ids:
            top_folders = [i for i in folders if nodes[i]["parent"] is None]
            if top_folders and rng.random() < 0.3:  # every item with children: the source turns flat
                ops.append({"op": "deleteItems", "ids": top_folders})
            else:
                ops.append({"op": "deleteItems", "ids": rng.sample(ids, min(len(ids), rng.randint(1, 2)))})
        elif kind == "move":
            ops.append({"op": "moveItem", "id": some(), **position()})
        elif kind == "moveParent" and folders and rng.random() < 0.25:  # into its own subtree: a cycle
            folder = rng.choice(folders)
            ops.append({"op": "moveItem", "id": folder, "parent": rng.choice(nodes[folder]["children"])})
        elif kind == "moveParent":
            ops.append({"op": "moveItem", "id": some(), "parent": any_id()})
        elif kind == "replaceChildren":
            ops.append({"op": "replaceChildren", "parent": some(), "items": random_tree_items(rng, fresh, 1, 3, nest())})
        elif kind in ("expand", "collapse"):
            op: Dict[str, Any] = {"op": kind, "ids": rng.sample(ids, min(len(ids), rng.randint(1, 3)))}
            if rng.random() < 0.4:
                op["recursive"] = rng.random() < 0.7
            ops.append(op)
        elif kind == "setContent":
            ops.append({"op": "setContent", "items": [{"id": some(), "content": _outline_content(rng)}]})
        else:
            ops.append({"op": "reloadItems", "ids": [any_id()]})
    return ops


def run_outline_session(client: Client, seed: int, rounds: int,
                        log: Optional[Callable[[str], None]] = None) -> Counter[str]:
    """A random session on a source that turns flat and nested again: `apply` of random trees (ids
    kept, moved, re-nested, new; a quarter of them flat),
    `expand`/`collapse` (recursive or not, some of unknown ids), tree `edit`s (`random_outline_edit`),
    `search` (substring/fuzzy, scoped, cleared) and `select`, each in a random diff form. After every
    step the model must equal the daemon's `snapshot` (visible rows with `level`/`parent`/`hasChildren`/
    `expanded`); those rows must be the expanded part of `snapshot(full=True)` (during a search: every
    row at its tree level, after its parent); `outline` of two ids must agree with the tree and with
    where the model shows them. Returns the counts of what ran."""
    rng = random.Random(seed)
    frontend = Frontend()
    counts: Counter[str] = collections.Counter()
    name = "tree"
    serial = iter(range(10 ** 9))

    def fresh() -> str:
        return f"n{seed}_{next(serial)}"

    tree: List[Dict[str, Any]] = []
    nested = False
    searching = False
    for n in range(rounds):
        nodes = tree_nodes(tree)
        kind = "apply" if n == 0 else rng.choice(
            ["apply", "expand", "expand", "collapse", "collapse", "edit", "edit", "edit", "edit", "search", "search",
             "select"])
        params: Dict[str, Any] = {"source": name}
        sent_before = dict(frontend.view(name).sent)  # a rejected apply/edit changed nothing: forget what it sent
        form = rng.choice(["batch", "steps", None])
        if form is not None and kind != "select":
            params["form"] = form
        if kind == "apply":
            old = list(nodes)
            rng.shuffle(old)
            flat = rng.random() < 0.25  # a quarter of the applies are flat: the source turns flat (and nested again later)

            def reuse() -> str:
                return old.pop() if old and rng.random() < 0.6 else fresh()
            sections = []
            for s in range(rng.randint(1, 3)):
                items = random_tree_items(rng, reuse, 0, 4, nest=not flat)
                sections.append({"id": f"s{s}", **({"header": f"S{s}"} if rng.random() < 0.3 else {}),
                                 "selection": "multiple", "items": items})
            params["sections"] = sections
            frontend.sending(name, sections=sections)
        elif kind in ("expand", "collapse"):
            folders = [i for i in nodes if nodes[i]["children"]]
            pool = folders if folders and rng.random() < 0.8 else list(nodes)
            params["ids"] = rng.sample(pool, min(len(pool), rng.randint(1, 3))) + (["nope"] if rng.random() < 0.05 else [])
            if rng.random() < 0.4:
                params["recursive"] = rng.random() < 0.7
        elif kind == "edit":
            params["ops"] = random_outline_edit(rng, fresh, nodes)
            frontend.sending(name, ops=params["ops"])
        elif kind == "search":
            word = rng.choice(OUTLINE_WORDS)
            start = rng.randint(0, max(0, len(word) - 2))
            params.update(query="" if rng.random() < 0.3 else word[start:start + rng.randint(1, 3)],
                          mode=rng.choice(["substring", "fuzzy"]))
            if rng.random() < 0.3:
                params["order"] = "score"
            if rng.random() < 0.25:
                params["sections"] = [rng.choice(tree)["id"]]
        else:
            params.update(action=rng.choice(["select", "toggle", "deselect"]),
                          ids=rng.sample(list(nodes), min(len(nodes), rng.randint(1, 2))))
        if kind in ("apply", "edit") and rng.random() < 0.3:
            params["echo"] = rng.choice(["ids", "full"])
        what = f"seed {seed} round {n}: {kind} {json.dumps(params)}"
        before = normalized(frontend.view(name).sections)
        result: Any = None
        try:
            result = client.request(kind, params)
        except RpcError as error:
            if error.code not in (1003, 1004):
                raise ReplayError(f"{what} failed: {error}") from None
            reason = error.data.get("reason") if isinstance(error.data, dict) else None
            counts[f"rejected {error.code}" + (f" {reason}" if reason else "")] += 1
            frontend.view(name).sent = sent_before
        if result is not None:
            frontend.update(result)
            counts[kind] += 1
            if kind == "search":
                searching = result["search"]["query"] != ""
            if "move" in result.get("batch", {}).get("items", {}) or any(
                    s.get("op") == "moveItem" for s in result.get("steps", [])):
                counts["moves"] += 1
        if log is not None:
            log(what)
        snapshot: Any = client.snapshot(name)
        full: Any = client.snapshot(name, full=True)
        problems = []
        model = normalized(frontend.view(name).sections)
        if model != normalized(snapshot["sections"]) or frontend.version(name) != snapshot["version"]:
            problems.append(f"model v{frontend.version(name)} {json.dumps(model)}\n daemon v{snapshot['version']} "
                            f"{json.dumps(normalized(snapshot['sections']))}")
        if frontend.selected(name) != set(snapshot["selected"]):
            problems.append(f"selected: model {sorted(frontend.selected(name))}, daemon {sorted(snapshot['selected'])}")
        facts = tree_nodes(full["sections"])
        now_nested = is_nested(full["sections"])
        if not searching and normalized(snapshot["sections"]) != visible_from_tree(full["sections"]):
            problems.append(f"the visible rows are not the expanded part of the tree\n rows: "
                            f"{json.dumps(normalized(snapshot['sections']))}\n tree: {json.dumps(full['sections'])}")
        for section in snapshot["sections"] if searching else []:
            shown: set[str] = set()
            for row in section["items"]:
                node = facts.get(row["id"])
                if node is None:
                    continue
                if not now_nested:
                    if any(key in row for key in ("level", "parent", "hasChildren", "expanded")):
                        problems.append(f"search row {row} has outline members in a flat source")
                    continue
                got = (row.get("level"), row.get("parent"), bool(row.get("hasChildren")), bool(row.get("expanded")))
                want = (node["level"], node["parent"], bool(node["children"]), bool(node["children"]) and node["expanded"])
                if got != want or (node["parent"] is not None and node["parent"] not in shown):
                    problems.append(f"search row {row} != the tree's {node} (or shown before its parent)")
                shown.add(row["id"])
        paths = {item["id"]: [si, ri] for si, s in enumerate(frontend.view(name).sections)
                 for ri, item in enumerate(s["items"])}
        levels = {row.item_id: row.level for row in frontend.rows(name) if not row.is_header}
        for item_id in rng.sample(sorted(facts), min(2, len(facts))):
            node = facts[item_id]
            got_outline = dict(client.outline(name, item_id))
            want_outline = {"source": name, "version": snapshot["version"], "id": item_id, "parent": node["parent"],
                            "level": node["level"], "children": len(node["children"]),
                            "hasChildren": bool(node["children"]),
                            "expanded": bool(node["children"]) and node["expanded"],
                            "visible": item_id in paths, "path": paths.get(item_id)}
            if got_outline != want_outline:
                problems.append(f"outline {item_id}: {got_outline} != {want_outline}")
            if item_id in levels and levels[item_id] != (node["level"] if now_nested else None):
                problems.append(f"Frontend.rows level of {item_id}: {levels[item_id]} != {node['level']}")
        if problems:
            raise ReplayError(f"after {what}:\n " + "\n ".join(problems) + f"\n model before: {json.dumps(before)}"
                              f"\n response: {json.dumps(result)}")
        if n > 0 and now_nested != nested:
            counts["nested again" if now_nested else "turned flat"] += 1
        nested = now_nested
        tree = [dict(section) for section in full["sections"]]
    return counts
