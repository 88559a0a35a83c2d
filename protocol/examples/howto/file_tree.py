#!/usr/bin/env python3
"""A file tree from a real folder, through a 12-row window with `echo: "ids"` (see file-tree.md).

    python3 protocol/examples/howto/file_tree.py [FOLDER] [--query TEXT] [--rows N]

FOLDER defaults to the checkout's Sources/. Standard library only, on the
Python client of this checkout (imported from protocol/clients/python/src:
nothing to install); the daemon is found as the client finds it
($DIFFABLE_BIN, `diffable` on PATH, the checkout's .build/release and
.build/debug builds).

It sends the folder as nested items, expands and collapses folders, moves,
deletes and adds files with `edit` (in the daemon only: nothing on disk is
touched), searches (matches come with their folders) and prints the window
after each step.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2] / "clients" / "python" / "src"))
import diffable  # noqa: E402
from diffable import ops  # noqa: E402

SOURCE = "files"
SECTION = "tree"


def tree_items(folder: Path, relative: str = "") -> List[Dict[str, Any]]:
    """The folder's entries as items, folders first, then files, each sorted by name. A folder's id
    ends with "/" and its `children` are its entries; ids are paths relative to the walked folder."""
    entries = sorted((e for e in os.scandir(folder) if not e.name.startswith(".")),
                     key=lambda e: (not e.is_dir(follow_symlinks=False), e.name))
    items: List[Dict[str, Any]] = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            items.append({"id": f"{relative}{entry.name}/", "content": {"text": f"{entry.name}/"},
                          "children": tree_items(Path(entry.path), f"{relative}{entry.name}/")})
        else:
            items.append({"id": f"{relative}{entry.name}", "content": {"text": entry.name}})
    return items


def describe(result: Mapping[str, Any]) -> str:
    """The window's steps, and how many rows it sent with and without content."""
    window = result["window"]
    if window is None:
        return "window: null"
    parts, with_content, id_only = [], 0, 0
    for step in window["steps"]:
        if step["op"] == "delete":
            parts.append(f"delete {step['count']} at {step['at']}")
        elif step["op"] == "move":
            parts.append(f"move {step['from']}->{step['to']}")
        else:
            parts.append(f"{step['op']} {len(step['rows'])} at {step['at']}")
            for row in step["rows"]:
                if "content" in row:
                    with_content += 1
                else:
                    id_only += 1
    sent = f"; rows sent: {with_content} with content, {id_only} id only" if with_content + id_only else ""
    return f"total {window['total']}, start {window['start']}: {', '.join(parts) or 'no steps'}{sent}"


def print_window(frontend: diffable.Frontend) -> None:
    window = frontend.window(SOURCE)
    assert window is not None
    for row in window.rows:
        marker = ("▾ " if row.get("expanded") else "▸ ") if row.get("hasChildren") else "  "
        text = row.get("content", {}).get("text", row["id"])
        for start, count in sorted(row.get("highlights", []), reverse=True):
            text = text[:start] + "[" + text[start:start + count] + "]" + text[start + count:]
        print(f"    {'  ' * row.get('level', 0)}{marker}{text}")


def folder_with_files(items: List[Dict[str, Any]], files: int) -> Optional[Dict[str, Any]]:
    """The first folder among `items` holding at least `files` files."""
    for item in items:
        if sum(1 for child in item.get("children", []) if "children" not in child) >= files:
            return item
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(HERE.parents[3] / "Sources"),
                        help="the folder to show (default: the checkout's Sources/)")
    parser.add_argument("--query", default="readme", help='the search (default "readme")')
    parser.add_argument("--rows", type=int, default=12, help="window height (default 12)")
    args = parser.parse_args()

    if not os.path.isdir(args.folder):
        print(f"{args.folder}: not a folder", file=sys.stderr)
        return 2
    items = tree_items(Path(args.folder))
    # the first folder holding a folder of two files or more: expanded, and a file moved out of it
    top = next((item for item in items if folder_with_files(item.get("children", []), 2)), None)
    if top is None:
        print(f"{args.folder}: needs a folder holding a folder of two files or more", file=sys.stderr)
        return 2
    sub = folder_with_files(top["children"], 2)
    assert sub is not None
    files = [item for item in sub["children"] if "children" not in item]
    moved, deleted = files[0]["id"], files[1]["id"]
    sections = [{"id": SECTION, "items": items}]
    window = {"start": 0, "count": args.rows}
    frontend = diffable.Frontend()

    def step(title: str, result: Mapping[str, Any]) -> None:
        frontend.update(result)
        print(f"== {title}\n   {describe(result)}")
        print_window(frontend)

    def edit(title: str, edit_ops: List[Dict[str, Any]]) -> None:
        frontend.sending(SOURCE, ops=edit_ops)  # echo "ids": remember the content this edit carries
        step(title, client.edit(SOURCE, edit_ops))

    # echo "ids" for the session: rows this client just sent come back without their content
    with diffable.Client(initialization_options={"echo": "ids"}) as client:
        frontend.sending(SOURCE, sections=sections)
        step(f"apply {os.path.relpath(args.folder)} ({sum(1 for _ in walk(items))} items), window of {args.rows} rows",
             client.apply(SOURCE, sections, viewport=window))
        step(f"expand {top['id']}", client.expand(SOURCE, [top["id"]]))
        step(f"expand {sub['id']}", client.expand(SOURCE, [sub["id"]]))
        where = client.outline(SOURCE, moved)
        print(f"== outline {moved}: level {where['level']}, parent {where['parent']}, path {where['path']}")
        edit(f"move {moved} into {top['id']}", [ops.move_item(moved, parent=top["id"])])
        edit(f"delete {deleted}", [ops.delete_items([deleted])])
        # a file appears: insert it where the sorted tree has it (before the first file named after it)
        new_file = {"id": f"{sub['id']}NEW.md", "content": {"text": "NEW.md"}}
        after_it = [f["id"] for f in files[2:] if f["content"]["text"] > "NEW.md"]
        edit(f"add {new_file['id']}", [ops.insert_items([new_file], before=after_it[0]) if after_it
                                       else ops.append_items([new_file], parent=sub["id"])])
        result = client.search(SOURCE, args.query)
        step(f'search "{args.query}": {result["search"]["matches"]} matches, {result["search"]["shown"]} rows shown',
             result)
        step('search "" (the expansion comes back)', client.search(SOURCE, ""))
        step(f"collapse {top['id']}", client.collapse(SOURCE, [top["id"]]))
    return 0


def walk(items: List[Dict[str, Any]]) -> Any:
    for item in items:
        yield item
        yield from walk(item.get("children", []))


if __name__ == "__main__":
    sys.exit(main())
