"""A user's program, annotated with the names `diffable` exports. tests/test_typed_use.py copies it
out of the checkout, checks it with `mypy --strict` against the installed wheel and runs it; a name
missing from `diffable.__all__` fails that check."""
from __future__ import annotations

import asyncio
import warnings
from typing import Dict, List, Optional

import diffable
from diffable import (AsyncClient, Client, DaemonVersionWarning, DiffableError, DiffResult, Frontend, Highlight,
                      InitializationOptions, ItemIn, NotificationCallback, Op, OutlineResult, Progress,
                      ProgressCallback, RpcError, Row, SearchResult, SectionIn, SelectResult, SnapshotResult,
                      SourcesResult, TreeItem, UnknownSource, ViewportIn, Window, ops)


def people(names: List[str]) -> List[SectionIn]:
    items: List[ItemIn] = [{"id": name.lower(), "content": {"text": name}} for name in names]
    return [{"id": "list", "header": "People", "selection": "multiple", "items": items}]


def tree() -> List[SectionIn]:
    src: TreeItem = {"id": "src", "content": "src", "expanded": True, "children": ["main.swift"]}
    return [{"id": "files", "items": [src, "README.md"]}]


def label(row: Row) -> str:
    if row.is_header:
        return f"[{row.value or row.section_id}]"
    text = row.value.get("text") if isinstance(row.value, dict) else row.value
    return ("* " if row.selected else "  ") + row.outline_prefix + str(text if text is not None else row.item_id)


def drawn(frontend: Frontend, source: str) -> List[str]:
    rows: List[Row] = frontend.rows(source)
    return [label(row) for row in rows]


def ranges(result: SearchResult) -> Dict[str, List[List[int]]]:
    highlights: List[Highlight] = result["highlights"]
    return {highlight["id"]: highlight["ranges"] for highlight in highlights}


def session(client: Client, frontend: Frontend) -> List[str]:
    seen: List[str] = []
    on_progress: ProgressCallback = lambda progress: seen.append(progress.kind)
    applied: DiffResult = client.apply("people", people(["Grace", "Ava", "Liam"]), progress=on_progress)
    frontend.update(applied)
    insert: Op = ops.insert_items([{"id": "gregor", "content": {"text": "Gregor"}}], after="grace")
    frontend.update(client.edit("people", [insert]))
    found: SearchResult = client.search("people", "gr")
    frontend.update(found)
    picked: SelectResult = client.select("people", ids=["grace"])
    frontend.update(picked)
    snapshot: SnapshotResult = client.snapshot("people")
    listed: SourcesResult = client.sources()
    missing: Optional[str] = None
    try:
        client.snapshot("nobody")
    except UnknownSource as error:
        missing = error.source
    frontend.update(client.apply("files", tree()))
    where: OutlineResult = client.outline("files", "main.swift")
    return [*drawn(frontend, "people"), f"matches {ranges(found)}", f"version {snapshot['version']}",
            f"sources {[info['source'] for info in listed['sources']]}", f"unknown {missing}",
            f"progress {seen[0] if seen else 'none'}", *drawn(frontend, "files"), f"main.swift level {where['level']}"]


async def windowed(options: InitializationOptions) -> Optional[Window]:
    frontend = Frontend()
    window: ViewportIn = {"start": 0, "count": 2}
    logged: List[object] = []
    log: NotificationCallback = logged.append
    async with AsyncClient(initialization_options=options) as client:
        client.on_notification("window/logMessage", log)
        frontend.update(await client.apply("people", people(["Ava", "Liam", "Noah"]), viewport=window))
    return frontend.window("people")


def main() -> None:
    warnings.simplefilter("error", DaemonVersionWarning)  # a daemon of another MAJOR.MINOR stops the program
    try:
        with Client(initialization_options={"form": "steps"}) as client:
            print("\n".join(session(client, Frontend())))
        shown = asyncio.run(windowed({"form": "batch"}))
        print(f"window {shown.total if shown else 0} rows, showing {[row['id'] for row in shown.rows] if shown else []}")
    except RpcError as error:
        print(f"the daemon said {error.code}: {error.message}")
    except DiffableError as error:
        print(f"diffable {diffable.__version__}: {error}")


if __name__ == "__main__":
    main()
