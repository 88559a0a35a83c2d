"""Outlines (protocol/methods/outline.md): the project-tree transcript replayed through Frontend
(rows with level/parent, indented lines), the typed `expand`/`collapse`/`outline` methods (sync and
async) and tree `ops`, `window: null` for a change's `viewport=None` without a viewport, and the random
outline session (diffable.selftest.run_outline_session) against the real daemon.
Knobs: DIFFABLE_OUTLINE_SEED (first seed, default 21), DIFFABLE_SEEDS, DIFFABLE_ROUNDS (default 200 here)."""
from __future__ import annotations

import asyncio
import json
import unittest
from typing import Any, List

from support import PACKAGE_ROOT, daemon_argv, env_int
from diffable import AsyncClient, Client, Frontend, ReplayError, UnknownId, InvalidEdit, ops
from diffable.frontend import normalized
from diffable.selftest import run_outline_session

FIRST_SEED = env_int("DIFFABLE_OUTLINE_SEED", 21)
SEEDS = env_int("DIFFABLE_SEEDS", 3)
ROUNDS = env_int("DIFFABLE_OUTLINE_ROUNDS", env_int("DIFFABLE_ROUNDS", 200))
TRANSCRIPT = PACKAGE_ROOT.parent.parent / "transcripts" / "project-tree-outline.transcript"
TREE: List[Any] = [{"id": "files", "items": [
    {"id": "a", "content": "a/", "children": [{"id": "a/b", "content": "b/", "children": ["a/b/c"]}]},
    {"id": "r", "content": "r"}]}]


def client() -> Client:
    return Client(daemon_argv(), daemon_args=["--log-level", "error"],
                  initialization_options={"form": "steps", "supersedeSearches": False})


class TranscriptTests(unittest.TestCase):
    def test_the_project_tree_transcript_replays_into_indented_rows(self) -> None:
        frontend = Frontend()
        views: List[List[str]] = []
        for line in TRANSCRIPT.read_text().splitlines():
            if line.startswith("< "):
                result = json.loads(line[2:]).get("result")
                if isinstance(result, dict) and ("steps" in result or "batch" in result):
                    frontend.update(result)
                    views.append(frontend.lines("project"))
        self.assertEqual(views[0], ['[files] null', '    ▸ src: {"text": "src/"}', '    ▸ tests: {"text": "tests/"}',
                                    '    README: {"text": "README.md"}'])
        self.assertEqual(views[1][1:5], ['    ▾ src: {"text": "src/"}', '      src/view.swift: {"text": "view.swift"}',
                                         '      src/viewmodel.swift: {"text": "viewmodel.swift"}',
                                         '      ▸ src/store: {"text": "store/"}'])
        self.assertEqual(views[2], views[0], "collapse brings the first view back")
        self.assertEqual(views[-1], ['[files] null', '    ▾ tests: {"text": "tests/"}',
                                     '      tests/view_tests.swift: {"text": "view_tests.swift"}',
                                     '      tests/store_tests.swift: {"text": "store_tests.swift"}',
                                     '      src/viewmodel.swift: {"text": "viewmodel.swift"}', '    README: {"text": "README.md"}'])
        rows = [(r.item_id, r.level, r.parent, r.has_children, r.expanded) for r in frontend.rows("project")
                if not r.is_header]
        self.assertEqual(rows[:2], [("tests", 0, None, True, True), ("tests/view_tests.swift", 1, "tests", False, False)])


class OpsTests(unittest.TestCase):
    def test_tree_ops(self) -> None:
        self.assertEqual(ops.append_items(["x"], parent="a"), {"op": "appendItems", "items": ["x"], "parent": "a"})
        self.assertEqual(ops.move_item("x", parent="a"), {"op": "moveItem", "id": "x", "parent": "a"})
        self.assertEqual(ops.replace_children("a", [{"id": "y", "children": ["z"]}]),
                         {"op": "replaceChildren", "parent": "a", "items": [{"id": "y", "children": ["z"]}]})
        self.assertEqual(ops.expand(["a"], recursive=True), {"op": "expand", "ids": ["a"], "recursive": True})
        self.assertEqual(ops.collapse(["a"]), {"op": "collapse", "ids": ["a"]})
        with self.assertRaises(ValueError):
            ops.move_item("x", parent="a", before="b")
        with self.assertRaises(ValueError):
            ops.append_items(["x"], "s", parent="a")


class MethodTests(unittest.TestCase):
    def test_expand_collapse_outline_and_tree_edits(self) -> None:
        frontend = Frontend()
        with client() as c:
            frontend.update(c.apply("t", TREE))
            self.assertEqual(frontend.lines("t"), ['[files] null', '    ▸ a: "a/"', '    r: "r"'])
            frontend.update(c.expand("t", ["a"], recursive=True))
            self.assertEqual(frontend.lines("t"), ['[files] null', '    ▾ a: "a/"', '      ▾ a/b: "b/"',
                                                   '        a/b/c: null', '    r: "r"'])
            self.assertEqual(dict(c.outline("t", "a/b/c")), {
                "source": "t", "version": 2, "id": "a/b/c", "parent": "a/b", "level": 2, "children": 0,
                "hasChildren": False, "expanded": False, "visible": True, "path": [0, 2]})
            frontend.update(c.collapse("t", ["a"], form="batch"))
            hidden = c.outline("t", "a/b")
            self.assertEqual((hidden["expanded"], hidden["visible"], hidden["path"]), (True, False, None))
            with self.assertRaises(UnknownId):
                c.expand("t", ["a", "nope"])
            with self.assertRaises(UnknownId):
                c.outline("t", "nope")
            with self.assertRaises(InvalidEdit) as caught:
                c.edit("t", [ops.move_item("a", parent="a/b/c")])
            self.assertEqual(caught.exception.reason, "cycle")
            frontend.update(c.edit("t", [ops.replace_children("a", [{"id": "a/x", "content": "x"}]), ops.expand(["a"]),
                                         ops.append_items(["a/x/y"], parent="a/x")]))
            self.assertEqual(normalized(frontend.sections("t")), normalized(c.snapshot("t")["sections"]))
            self.assertEqual(frontend.lines("t"), ['[files] null', '    ▾ a: "a/"', '      ▸ a/x: "x"', '    r: "r"'])
            full = c.snapshot("t", full=True)
            self.assertEqual(full["sections"][0]["items"][0], {"id": "a", "content": "a/", "expanded": True, "children": [
                {"id": "a/x", "content": "x", "expanded": False, "children": [{"id": "a/x/y"}]}]})

    def test_async_methods(self) -> None:
        async def main() -> None:
            async with AsyncClient(daemon_argv(), daemon_args=["--log-level", "error"],
                                   initialization_options={"form": "steps"}) as c:
                frontend = Frontend()
                frontend.update(await c.apply("t", TREE))
                frontend.update(await c.expand("t", ["a"]))
                frontend.update(await c.collapse("t", ["a"], recursive=True))
                frontend.update(await c.expand("t", ["a"]))
                self.assertEqual(frontend.lines("t"), ['[files] null', '    ▾ a: "a/"', '      ▸ a/b: "b/"', '    r: "r"'])
                self.assertEqual((await c.outline("t", "a/b"))["path"], [0, 1])
                with self.assertRaises(UnknownId):
                    await c.collapse("t", ["nope"])
        asyncio.run(main())

    def test_a_change_with_viewport_none_answers_window_null_and_the_model_reloads(self) -> None:
        frontend = Frontend()
        with client() as c:
            frontend.update(c.apply("t", TREE))
            answer = c.edit("t", [ops.expand(["a"])], viewport=None)  # no viewport before: window null all the same
            self.assertEqual(answer.get("window", "absent"), None)
            frontend.update(answer)
            self.assertFalse(frontend.view("t").holds_list, "the list changed without a diff: not held")
            with self.assertRaises(ReplayError):
                frontend.update(c.collapse("t", ["a"]))
            frontend.load(c.snapshot("t"))
            frontend.update(c.expand("t", ["a"]))
            self.assertEqual(normalized(frontend.sections("t")), normalized(c.snapshot("t")["sections"]))


class OutlineSessionTests(unittest.TestCase):
    def test_random_outline_sessions(self) -> None:
        for seed in range(FIRST_SEED, FIRST_SEED + SEEDS):
            with self.subTest(seed=seed):
                with Client(daemon_argv(), daemon_args=["--log-level", "error"],
                            initialization_options={"supersedeSearches": False,
                                                    **({"echo": "ids"} if seed % 2 else {})}) as c:
                    counts = run_outline_session(c, seed, ROUNDS)
                for kind in ("apply", "expand", "collapse", "edit", "search", "select", "moves", "rejected 1004 cycle",
                             "turned flat", "nested again"):
                    self.assertGreater(counts[kind], 0, f"seed {seed}: no {kind}: {dict(counts)}")


if __name__ == "__main__":
    unittest.main()
