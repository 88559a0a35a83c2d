"""Frontend replay: batch (UIKit rules, strict), steps, selection deltas, rendering."""
from __future__ import annotations

import copy
import unittest
from typing import Any, Dict, List

from support import diffable
from diffable.frontend import REPLAYERS, SectionList, replay_batch, replay_steps


def sections(**spec: List[str]) -> SectionList:
    """`sections(a=["x", "y"], b=[])` -> sections a and b with those item ids (content = id upper-cased)."""
    return [{"id": sid, "items": [{"id": iid, "content": iid.upper()} for iid in ids]} for sid, ids in spec.items()]


def ids(model: SectionList) -> Dict[str, List[str]]:
    return {s["id"]: [i["id"] for i in s["items"]] for s in model}


class BatchReplayTests(unittest.TestCase):
    def test_rows_deleted_inserted_moved_reloaded_in_one_batch(self) -> None:
        old = sections(a=["p", "q", "r", "s"], b=["t"])
        batch = {"items": {
            "delete": [{"section": 0, "ranges": [[1, 1]]}],                       # q
            "move": [{"from": [0, 3], "to": [1, 0], "item": {"id": "s", "content": "S2"}}],  # s -> b, new content
            "insert": [{"section": 0, "at": 0, "items": [{"id": "n"}]}],
            "reload": [{"section": 0, "at": 2, "items": [{"id": "r", "content": "R2"}]}],
        }}
        new = replay_batch(old, batch)
        self.assertEqual(ids(new), {"a": ["n", "p", "r"], "b": ["s", "t"]})
        self.assertEqual(new[0]["items"][2]["content"], "R2")
        self.assertEqual(new[1]["items"][0]["content"], "S2")
        self.assertEqual(ids(old), {"a": ["p", "q", "r", "s"], "b": ["t"]}, "the old list must not be modified")

    def test_sections_deleted_inserted_moved_and_header_reloaded(self) -> None:
        old = sections(a=["x"], b=["y"], c=["z"])
        old[2]["header"] = "C"
        batch = {"sections": {"delete": [[0, 1]], "move": [{"from": 2, "to": 0}],
                              "insert": [{"at": 2, "sections": [{"id": "d", "header": "D", "items": [{"id": "w"}]}]}],
                              "reload": [{"at": 1, "header": "B!"}]}}
        new = replay_batch(old, batch)
        self.assertEqual([s["id"] for s in new], ["c", "b", "d"])
        self.assertEqual([s.get("header") for s in new], ["C", "B!", "D"])
        self.assertEqual(ids(new)["d"], ["w"])

    def test_empty_batch_keeps_everything(self) -> None:
        old = sections(a=["x", "y"])
        self.assertEqual(replay_batch(old, {}), old)

    def assertRejected(self, old: SectionList, batch: Dict[str, Any], fragment: str) -> None:
        with self.assertRaises(diffable.ReplayError) as caught:
            replay_batch(old, batch)
        self.assertIn(fragment, str(caught.exception))

    def test_rejects_a_row_both_deleted_and_reloaded(self) -> None:
        self.assertRejected(sections(a=["x", "y"]), {"items": {
            "delete": [{"section": 0, "ranges": [[0, 1]]}],
            "reload": [{"section": 0, "at": 0, "items": [{"id": "x"}]}]}}, "deleted and reload")

    def test_rejects_a_row_both_deleted_and_moved(self) -> None:
        self.assertRejected(sections(a=["x", "y"]), {"items": {
            "delete": [{"section": 0, "ranges": [[0, 1]]}],
            "move": [{"from": [0, 0], "to": [0, 1]}]}}, "both deleted and moved")

    def test_rejects_row_counts_that_do_not_add_up(self) -> None:
        # one row inserted at index 5 of a section that will have 3 rows
        self.assertRejected(sections(a=["x", "y"]), {"items": {
            "insert": [{"section": 0, "at": 5, "items": [{"id": "n"}]}]}}, "slots")

    def test_rejects_a_row_operation_in_an_inserted_section(self) -> None:
        self.assertRejected(sections(a=["x"]), {
            "sections": {"insert": [{"at": 0, "sections": [{"id": "b", "items": []}]}]},
            "items": {"insert": [{"section": 0, "at": 0, "items": [{"id": "n"}]}]}}, "inserted section")

    def test_rejects_a_row_delete_in_a_deleted_section(self) -> None:
        self.assertRejected(sections(a=["x"], b=["y"]), {
            "sections": {"delete": [[0, 1]]},
            "items": {"delete": [{"section": 0, "ranges": [[0, 1]]}]}}, "does not survive")

    def test_rejects_a_section_both_deleted_and_moved(self) -> None:
        self.assertRejected(sections(a=[], b=[]), {"sections": {"delete": [[0, 1]], "move": [{"from": 0, "to": 1}]}},
                            "both deleted and moved")

    def test_rejects_out_of_range_section_delete(self) -> None:
        self.assertRejected(sections(a=[]), {"sections": {"delete": [[1, 1]]}}, "out of range")

    def test_rejects_a_reload_of_a_row_that_does_not_exist(self) -> None:
        self.assertRejected(sections(a=["x"]), {"items": {"reload": [{"section": 0, "at": 3, "items": [{"id": "q"}]}]}},
                            "out of range")


class StepsReplayTests(unittest.TestCase):
    def test_every_step_kind_in_sequence(self) -> None:
        old = sections(a=["p", "q", "r"], b=["s"])
        steps: List[Dict[str, Any]] = [
            {"op": "deleteItems", "section": 0, "at": 1, "count": 1},            # a: p r
            {"op": "moveSection", "from": 1, "to": 0},                           # b, a
            {"op": "insertSections", "at": 2, "sections": [{"id": "c", "items": [{"id": "t"}]}]},
            {"op": "reloadSection", "at": 0, "header": "B"},
            {"op": "moveItem", "from": [1, 1], "to": [0, 0]},                    # r -> b[0]
            {"op": "insertItems", "section": 1, "at": 1, "items": [{"id": "n"}]},
            {"op": "reloadItems", "section": 1, "at": 0, "items": [{"id": "p", "content": "P2"}]},
            {"op": "deleteSections", "at": 2, "count": 1},
        ]
        new = replay_steps(old, steps)
        self.assertEqual(ids(new), {"b": ["r", "s"], "a": ["p", "n"]})
        self.assertEqual(new[0]["header"], "B")
        self.assertEqual(new[1]["items"][0]["content"], "P2")

    def test_rejects_out_of_range_and_unknown_steps(self) -> None:
        old = sections(a=["x"])
        for bad in ({"op": "deleteItems", "section": 0, "at": 0, "count": 2},
                    {"op": "insertItems", "section": 0, "at": 3, "items": []},
                    {"op": "moveItem", "from": [0, 1], "to": [0, 0]},
                    {"op": "deleteSections", "at": 1, "count": 1},
                    {"op": "frobnicate"}):
            with self.subTest(step=bad), self.assertRaises(diffable.ReplayError):
                replay_steps(old, [bad])
        self.assertEqual(ids(old), {"a": ["x"]})


class FrontendModelTests(unittest.TestCase):
    def test_update_selection_rows_lines_and_version(self) -> None:
        frontend = diffable.Frontend()
        frontend.update({"source": "s", "version": 1, "batch": {"sections": {"insert": [
            {"at": 0, "sections": [{"id": "a", "header": "A", "items": [{"id": "x", "content": {"text": "X"}},
                                                                         {"id": "y"}]}]}]}}})
        frontend.update({"source": "s", "version": 2, "selection": {
            "selected": [{"id": "y", "path": [0, 1]}], "rows": [{"id": "y", "path": [0, 1]}]}})
        self.assertEqual(frontend.version("s"), 2)
        self.assertEqual(frontend.selected("s"), {"y"})
        self.assertEqual(frontend.lines("s"), ['[a] "A"', '    x: {"text": "X"}', "  * y: null"])
        rows = frontend.rows("s")
        self.assertTrue(rows[0].is_header)
        self.assertEqual([(r.item_id, r.selected) for r in rows[1:]], [("x", False), ("y", True)])

    def test_a_rejected_update_leaves_the_model_untouched(self) -> None:
        frontend = diffable.Frontend()
        frontend.load({"source": "s", "version": 4, "selected": [], "sections": sections(a=["x"])})
        before = frontend.sections("s")
        with self.assertRaises(diffable.ReplayError):
            frontend.update({"source": "s", "version": 5, "batch": {"items": {"delete": [{"section": 0, "ranges": [[0, 2]]}]}}})
        with self.assertRaises(diffable.ReplayError):  # selection.rows that disagree with the model
            frontend.update({"source": "s", "version": 5, "selection": {"rows": [{"id": "x", "path": [0, 0]}]}})
        self.assertEqual(frontend.sections("s"), before)
        self.assertEqual((frontend.version("s"), frontend.selected("s")), (4, set()))

    def test_a_new_form_is_one_registered_function(self) -> None:
        def replay_reversed(old: SectionList, payload: Any) -> SectionList:  # a made-up form, only for this test
            return list(reversed(copy.deepcopy(old))) if payload else old

        REPLAYERS["reversed"] = replay_reversed
        try:
            frontend = diffable.Frontend()
            frontend.load({"source": "s", "version": 1, "selected": [], "sections": sections(a=[], b=[])})
            frontend.update({"source": "s", "version": 2, "reversed": True})
            self.assertEqual([s["id"] for s in frontend.sections("s")], ["b", "a"])
        finally:
            del REPLAYERS["reversed"]


if __name__ == "__main__":
    unittest.main()
