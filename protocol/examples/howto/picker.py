#!/usr/bin/env python3
"""A fuzzy picker over a million rows, through a 50-row viewport (see picker.md).

    python3 protocol/examples/howto/picker.py [--rows N] [--no-declare]

Standard library only, on the Python client of this checkout (imported from
protocol/clients/python/src: nothing to install). The daemon is found as the
client finds it: $DIFFABLE_BIN, `diffable` on PATH, then the checkout's
.build/release and .build/debug builds.

It sends N generated file paths with a 50-row viewport, declares the search
field (an empty query), types a few keys, scrolls, shows the placeholder and
compares `order` and `limit`, printing what each answer did to the 50 rows.
`--no-declare` skips the declaration, to see what the first key costs then.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "src"))
import diffable  # noqa: E402

SOURCE = "files"
SECTION = "results"
WINDOW = {"start": 0, "count": 50}
PLACEHOLDER = {"id": "no-match", "content": {"text": "No matching files"}}

DIRS = ["src", "lib", "tests", "docs", "tools", "web", "app", "core"]
WORDS = ["view", "model", "search", "index", "window", "store", "render", "parse", "cache", "layout",
         "event", "query", "table", "color", "theme", "input", "output", "stream", "token", "graph"]
EXTS = ["swift", "py", "js", "md", "json", "c", "h", "ts"]


def generated_paths(count: int) -> List[str]:
    """`count` file paths such as `web/render/token_graph_512.ts`, the same on every run."""
    rng = random.Random(2024)
    return [f"{rng.choice(DIRS)}/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.choice(WORDS)}_{n}."
            f"{rng.choice(EXTS)}" for n in range(count)]


def marked(row: Mapping[str, Any]) -> str:
    """The row's text with its match highlights in brackets (offsets are Python string indices)."""
    text = row.get("content", {}).get("text", row["id"])
    for start, count in sorted(row.get("highlights", []), reverse=True):
        text = text[:start] + "[" + text[start:start + count] + "]" + text[start + count:]
    return text


def steps_summary(result: Mapping[str, Any]) -> str:
    """What the window steps did to the rows held, per kind: `delete 41, move 3, insert 41, update 9`."""
    window = result.get("window")
    if not window or not window["steps"]:
        return "no steps"
    rows: Dict[str, int] = {}
    for step in window["steps"]:
        rows[step["op"]] = rows.get(step["op"], 0) + step.get("count", len(step.get("rows", [])) or 1)
    return ", ".join(f"{op} {n}" for op, n in rows.items())


def show(label: str, result: Mapping[str, Any], frontend: diffable.Frontend, seconds: float,
         top: int = 3) -> None:
    frontend.update(result)
    window = frontend.window(SOURCE)
    assert window is not None
    counts = result.get("search")
    found = f"{counts['matches']} matches, " if counts else ""
    print(f"{label:<24} {seconds * 1000:7.1f} ms  {found}total {window.total}, "
          f"rows {window.start}-{window.start + len(window.rows) - 1}; {steps_summary(result)}")
    for row in window.rows[:top]:
        print(f"{'':26}{marked(row)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="how many paths (default 1,000,000)")
    parser.add_argument("--no-declare", action="store_true", help="do not declare the search field")
    args = parser.parse_args()

    paths = generated_paths(args.rows)
    sections = [{"id": SECTION, "items": [{"id": f"f{n}", "content": {"text": p}} for n, p in enumerate(paths)]}]
    frontend = diffable.Frontend()

    def search(query: str, **options: Any) -> Dict[str, Any]:
        """One keystroke: the field's query, scope, mode and placeholder, and the window back at the top."""
        return dict(client.search(SOURCE, query, sections=[SECTION], mode="fuzzy", placeholder=PLACEHOLDER,
                                  viewport=WINDOW, **options))

    def timed(call: Any, *a: Any, **k: Any) -> Any:
        began = time.perf_counter()
        result = call(*a, **k)
        return result, time.perf_counter() - began

    with diffable.Client(timeout=120) as client:
        print(f"daemon: {client.argv[0]}")
        result, took = timed(client.apply, SOURCE, sections, viewport=WINDOW)
        show(f"apply {args.rows} rows", result, frontend, took)
        size = len(json.dumps(result, separators=(",", ":")))
        print(f"{'':26}(the result is {size} bytes of JSON: the window's rows only)")
        del sections, paths  # the daemon holds the list; this process keeps only the window's rows

        if not args.no_declare:
            # The search bar is drawn: declare the field with its scope, mode and placeholder.
            result, took = timed(search, "")
            show('declare: search ""', result, frontend, took, top=0)
        time.sleep(1.0)  # the person reads the screen; the index is built meanwhile

        for query, label in [("w", ""), ("wi", ""), ("win", ""), ("wind", ""), ("win", " (Backspace)")]:
            time.sleep(0.15)  # keys typed 150 ms apart
            result, took = timed(search, query)
            show(f'search "{query}"{label}', result, frontend, took)

        result, took = timed(client.viewport, SOURCE, start=50, count=50)
        show("scroll to row 50", result, frontend, took)

        result, took = timed(search, "windqz")
        show('search "windqz"', result, frontend, took, top=1)

        result, took = timed(search, "win", order="source")
        show('"win", order source', result, frontend, took)

        result, took = timed(search, "win", limit=10)
        show('"win", limit 10', result, frontend, took)

        result, took = timed(search, "")
        show('search "" (clear)', result, frontend, took)
    return 0


if __name__ == "__main__":
    sys.exit(main())
