"""Frontend replay: batch (UIKit rules, strict), steps, window (viewports), selection deltas, rendering."""
from __future__ import annotations

import copy
import json
import unittest
from typing import Any, Dict, List, Optional

from support import PACKAGE_ROOT, diffable
from diffable.frontend import REPLAYERS, SectionList, Window, on_sections, replay_batch, replay_steps, replay_window

TRANSCRIPT = PACKAGE_ROOT.parent.parent / "transcripts" / "people-picker-viewport.transcript"


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

        REPLAYERS["reversed"] = on_sections(replay_reversed)
        try:
            frontend = diffable.Frontend()
            frontend.load({"source": "s", "version": 1, "selected": [], "sections": sections(a=[], b=[])})
            frontend.update({"source": "s", "version": 2, "reversed": True})
            self.assertEqual([s["id"] for s in frontend.sections("s")], ["b", "a"])
        finally:
            del REPLAYERS["reversed"]


def row(row_id: str, section: str = "s", **extra: Any) -> Dict[str, Any]:
    return {"id": row_id, "section": section, **extra}


def window(old: Optional[Window], total: int, start: int, count: int, *steps: Dict[str, Any],
           sent: Optional[Dict[str, Dict[str, Any]]] = None) -> Window:
    return replay_window(old, {"total": total, "start": start, "count": count, "steps": list(steps)}, sent)


def held(w: Window) -> List[str]:
    return [r["id"] for r in w.rows]


class WindowReplayTests(unittest.TestCase):
    def test_every_step_kind_in_sequence(self) -> None:
        w = window(None, 10, 2, 4, {"op": "insert", "at": 0, "rows": [row("a"), row("b"), row("c"), row("d")]})
        self.assertEqual((held(w), w.total, w.start, w.count), (["a", "b", "c", "d"], 10, 2, 4))
        w2 = window(w, 11, 3, 4,
                    {"op": "delete", "at": 1, "count": 2},                   # a d
                    {"op": "insert", "at": 1, "rows": [row("n", content="N"), row("h", header=True)]},  # a n h d
                    {"op": "move", "from": 0, "to": 3},                      # n h d a
                    {"op": "update", "at": 2, "rows": [row("d", "t", content="D", selected=True,
                                                           highlights=[[0, 1]])]})
        self.assertEqual(held(w2), ["n", "h", "d", "a"])
        self.assertEqual(w2.rows[2], row("d", "t", content="D", selected=True, highlights=[[0, 1]]))
        self.assertEqual((w2.total, w2.start), (11, 3))
        self.assertEqual(held(w), ["a", "b", "c", "d"], "the old window must not be modified")

    def test_near_the_end_the_window_holds_fewer_rows(self) -> None:
        w = window(None, 5, 3, 4, {"op": "insert", "at": 0, "rows": [row("x"), row("y")]})
        self.assertEqual(held(w), ["x", "y"])
        self.assertEqual(held(window(w, 5, 3, 4)), ["x", "y"], "no steps: only total and start may change")
        empty = window(w, 2, 3, 4, {"op": "delete", "at": 0, "count": 2})
        self.assertEqual((held(empty), empty.total), ([], 2))

    def test_echo_ids_rows_get_the_content_this_client_sent(self) -> None:
        sent: Dict[str, Dict[str, Any]] = {"a": {"id": "a", "content": {"text": "A"}}, "b": {"id": "b"},
                                           "list": {"id": "list", "content": 1}}
        w = window(None, 4, 0, 4, {"op": "insert", "at": 0, "rows": [
            row("list", header=True), row("a"), row("b"), row("c", content="C")]}, sent=sent)
        self.assertEqual(w.rows, [row("list", header=True), row("a", content={"text": "A"}), row("b"),
                                  row("c", content="C")])
        w = window(w, 4, 0, 4, {"op": "update", "at": 1, "rows": [row("a", selected=True)]}, sent=sent)
        self.assertEqual(w.rows[1], row("a", content={"text": "A"}, selected=True))

    def assertRejected(self, old: Optional[Window], payload: Dict[str, Any], fragment: str) -> None:
        with self.assertRaises(diffable.ReplayError) as caught:
            replay_window(old, payload)
        self.assertIn(fragment, str(caught.exception))

    def test_rejects_invalid_steps(self) -> None:
        three = window(None, 3, 0, 3, {"op": "insert", "at": 0, "rows": [row("a"), row("b"), row("c")]})

        def payload(*steps: Dict[str, Any], total: int = 3, start: int = 0, count: int = 3) -> Dict[str, Any]:
            return {"total": total, "start": start, "count": count, "steps": list(steps)}
        cases = [
            (payload({"op": "delete", "at": 2, "count": 2}), "out of range"),
            (payload({"op": "delete", "at": 0, "count": 0}), "count"),
            (payload({"op": "delete", "at": -1, "count": 1}), "at"),
            (payload({"op": "insert", "at": 4, "rows": [row("n")]}, {"op": "delete", "at": 0, "count": 1}),
             "out of range"),
            (payload({"op": "insert", "at": 0, "rows": []}, {"op": "delete", "at": 0, "count": 1}), "no rows"),
            (payload({"op": "insert", "at": 0, "rows": [{"id": "n"}]}), "without id or section"),
            (payload({"op": "move", "from": 3, "to": 0}), "out of range"),
            (payload({"op": "move", "from": 0, "to": 3}), "out of range"),
            (payload({"op": "move", "from": True, "to": 0}), "not an integer"),
            (payload({"op": "update", "at": 1, "rows": [row("c")]}), "names another row"),
            (payload({"op": "update", "at": 0, "rows": [row("a", header=True)]}), "names another row"),
            (payload({"op": "update", "at": 2, "rows": [row("c"), row("d")]}), "out of range"),
            (payload({"op": "replace", "at": 0}), "unknown window step"),
            (payload({"op": "delete", "at": 0, "count": 1}), "holds 2 rows"),  # count 3 of total 3: 3 rows
            (payload(total=10, start=9), "holds 3 rows"),                    # only one row is left from 9
            (payload({"op": "insert", "at": 0, "rows": [row("b")]}, {"op": "delete", "at": 3, "count": 1}),
             "twice"),
            (payload(count=0), "window.count"),
            ({"total": 3, "start": 0, "count": 3}, "steps"),
        ]
        for bad, fragment in cases:
            with self.subTest(payload=bad):
                self.assertRejected(three, bad, fragment)
        self.assertEqual(held(three), ["a", "b", "c"])

    def test_the_transcript_replays_to_the_rows_the_daemon_answers(self) -> None:
        """protocol/transcripts/people-picker-viewport.transcript: every window answer replays, and the
        replayed windows are the rows of the list the transcript describes."""
        frontend = diffable.Frontend()
        answers = [json.loads(line[2:]) for line in TRANSCRIPT.read_text().splitlines() if line.startswith("< ")]
        windows: Dict[int, Optional[Window]] = {}
        for answer in answers:
            result = answer.get("result")
            if isinstance(result, dict) and "window" in result:
                frontend.update(result)
                windows[answer["id"]] = frontend.window("people")
        self.assertEqual(sorted(windows), [2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
        w3, w4 = windows[3], windows[4]
        assert w3 is not None and w4 is not None
        self.assertEqual(held(w3), ["addedList", "search-bar", "list", "ava-grace", "grace-elizabeth", "chloe-grace"])
        self.assertEqual([r.get("highlights") for r in w4.rows[3:]], [[[4, 2]], [[0, 2]], [[6, 2]]])
        w8, w9 = windows[8], windows[9]
        assert w8 is not None and w9 is not None
        self.assertEqual((w8.start, w8.total, held(w8)[0], held(w8)[-1]), (11, 22, "ethan-james", "jackson-lee"))
        self.assertEqual((w9.start, w9.total, w9.rows), (10, 21, w8.rows))  # an edit above: only start moves
        w10 = windows[10]
        assert w10 is not None
        self.assertEqual(held(w10)[:4], ["addedList", "grace-elizabeth", "search-bar", "list"])
        self.assertIsNone(windows[12])
        self.assertEqual(frontend.version("people"), 5)


class FrontendWindowTests(unittest.TestCase):
    def windowed(self) -> diffable.Frontend:
        frontend = diffable.Frontend()
        frontend.update({"source": "s", "version": 1, "window": {"total": 5, "start": 0, "count": 2, "steps": [
            {"op": "insert", "at": 0, "rows": [row("s", header=True, content="S"), row("x")]}]}})
        return frontend

    def test_a_window_answer_replaces_the_list_model(self) -> None:
        frontend = diffable.Frontend()
        frontend.load({"source": "s", "version": 4, "selected": [], "sections": sections(s=["x", "y"])})
        frontend.update({"source": "s", "version": 4, "window": {"total": 3, "start": 1, "count": 5, "steps": [
            {"op": "insert", "at": 0, "rows": [row("x", content="X"), row("y", content="Y")]}]}})
        w = frontend.window("s")
        assert w is not None
        self.assertEqual((w.total, w.start, held(w)), (3, 1, ["x", "y"]))
        self.assertEqual(frontend.sections("s"), [])
        with self.assertRaises(diffable.ReplayError) as caught:  # the whole list is not held any more
            frontend.update({"source": "s", "version": 5, "batch": {}})
        self.assertIn("load a snapshot", str(caught.exception))
        self.assertEqual(frontend.version("s"), 4)

    def test_window_null_removes_the_window_and_a_snapshot_brings_the_list_back(self) -> None:
        frontend = self.windowed()
        frontend.update({"source": "s", "version": 1, "window": None})
        self.assertIsNone(frontend.window("s"))
        frontend.load({"source": "s", "version": 1, "selected": [], "sections": sections(s=["x"])})
        frontend.update({"source": "s", "version": 2, "steps": [
            {"op": "insertItems", "section": 0, "at": 1, "items": [{"id": "y"}]}]})
        self.assertEqual(ids(frontend.sections("s")), {"s": ["x", "y"]})
        frontend.update({"source": "s", "version": 2, "window": {"total": 3, "start": 0, "count": 1, "steps": [
            {"op": "insert", "at": 0, "rows": [row("s", header=True)]}]}})  # a new viewport starts empty
        self.assertEqual([r["id"] for r in (frontend.window("s") or Window()).rows], ["s"])

    def test_a_batch_after_a_load_clears_a_window_the_request_removed(self) -> None:
        frontend = self.windowed()  # e.g. search(viewport=None): the answer is a batch of the whole list
        frontend.load({"source": "s", "version": 1, "selected": [], "sections": sections(s=["x"])})
        frontend.update({"source": "s", "version": 2, "batch": {}})
        self.assertIsNone(frontend.window("s"))

    def test_selection_deltas_in_the_window_form(self) -> None:
        frontend = self.windowed()
        frontend.update({"source": "s", "version": 2, "selection": {  # rows: paths in the whole list, not checked
            "selected": [{"id": "x", "path": [0, 0]}], "rows": [{"id": "x", "path": [0, 0]}]},
            "window": {"total": 5, "start": 0, "count": 2, "steps": [
                {"op": "update", "at": 1, "rows": [row("x", selected=True)]}]}})
        self.assertEqual(frontend.selected("s"), {"x"})
        self.assertTrue((frontend.window("s") or Window()).rows[1]["selected"])

    def test_a_rejected_window_leaves_the_model_untouched(self) -> None:
        frontend = self.windowed()
        before = frontend.window("s")
        with self.assertRaises(diffable.ReplayError):
            frontend.update({"source": "s", "version": 2, "window": {"total": 5, "start": 0, "count": 2, "steps": [
                {"op": "delete", "at": 0, "count": 1}]}})
        with self.assertRaises(diffable.ReplayError):  # malformed: a step without `at`
            frontend.update({"source": "s", "version": 2, "window": {"total": 5, "start": 0, "count": 2, "steps": [
                {"op": "update", "rows": [row("x")]}]}})
        self.assertEqual((frontend.window("s"), frontend.version("s")), (before, 1))

    def test_sending_records_contents_for_echo_ids(self) -> None:
        frontend = diffable.Frontend()
        frontend.sending("s", sections=[{"id": "s", "items": ["a", {"id": "b", "content": "B"}]}])
        frontend.sending("s", ops=[diffable.ops.append_items([{"id": "c", "content": "C"}]),
                                   diffable.ops.set_content({"b": "B2"}),
                                   diffable.ops.append_sections([{"id": "t", "items": [{"id": "d", "content": 4}]}])])
        frontend.update({"source": "s", "version": 1, "window": {"total": 5, "start": 0, "count": 5, "steps": [
            {"op": "insert", "at": 0, "rows": [row("a"), row("b"), row("c"), row("t", "t", header=True), row("d", "t")]}]}})
        self.assertEqual([r.get("content") for r in (frontend.window("s") or Window()).rows], [None, "B2", "C", None, 4])
        frontend.sending("s", sections=[{"id": "s", "items": ["z"]}])  # an apply replaces what was recorded
        self.assertEqual(set(frontend.view("s").sent), {"z"})

    def test_load_window_from_a_rows_answer(self) -> None:
        frontend = self.windowed()
        frontend.load_window({"source": "s", "version": 7, "total": 9, "start": 8, "rows": [row("q", content=1)]}, 3)
        w = frontend.window("s")
        assert w is not None
        self.assertEqual((w.total, w.start, w.count, held(w), frontend.version("s")), (9, 8, 3, ["q"], 7))
        frontend.update({"source": "s", "version": 8, "window": {"total": 10, "start": 8, "count": 3, "steps": [
            {"op": "insert", "at": 1, "rows": [row("r")]}]}})
        self.assertEqual(held(frontend.window("s") or Window()), ["q", "r"])


if __name__ == "__main__":
    unittest.main()
