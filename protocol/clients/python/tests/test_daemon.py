"""The sync client against the real daemon: every typed method, typed errors, framings, cancelling."""
from __future__ import annotations

import unittest
from typing import Any, ClassVar, Dict, List

from support import daemon_argv, diffable
from diffable import Client, Frontend, ops
from diffable import params as build

PEOPLE: List[Any] = [
    {"id": "search", "items": [{"id": "bar", "content": "search bar"}]},
    {"id": "people", "header": "People", "selection": "single", "items": [
        {"id": "ava", "content": {"text": "Ava Grace"}}, {"id": "liam", "content": {"text": "Liam"}},
        {"id": "ruby", "content": {"text": "Ruby Green"}}]},
]


class DaemonTestCase(unittest.TestCase):
    client: ClassVar[Client]

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(daemon_argv(), daemon_args=["--log-level", "error"],
                            initialization_options={"supersedeSearches": False})

    @classmethod
    def tearDownClass(cls) -> None:
        cls.assert_clean_exit(cls.client.close())

    @staticmethod
    def assert_clean_exit(status: Any) -> None:
        if status != 0:
            raise AssertionError(f"daemon exit status {status}")

    def fresh(self, name: str) -> Frontend:
        """Creates source `name` from PEOPLE; a Frontend holding it."""
        frontend = Frontend()
        frontend.update(self.client.apply(name, PEOPLE))
        return frontend


class MethodTests(DaemonTestCase):
    def test_initialize_result_is_kept(self) -> None:
        info = self.client.server_info
        self.assertEqual(info["serverInfo"]["name"], "diffable")
        self.assertIn("steps", info["capabilities"]["diffForms"])

    def test_apply_edit_search_select_replayed_match_snapshot(self) -> None:
        frontend = self.fresh("m1")
        frontend.update(self.client.edit("m1", [ops.insert_items([{"id": "noah", "content": "Noah"}], after="liam"),
                                                ops.move_item("ruby", before="ava"),
                                                ops.set_content({"liam": {"text": "Liam Gray"}}, style="reconfigure")],
                                         form="steps"))
        frontend.update(self.client.select("m1", ids=["liam"]))
        result = self.client.search("m1", "gr", sections=["people"], mode="fuzzy", order="score", limit=2,
                                    placeholder={"id": "none", "content": "No results"}, highlight_limit=1)
        frontend.update(result)
        self.assertEqual(result["search"]["shown"], 2)
        self.assertEqual(len(result["highlights"]), 1)
        truth = self.client.snapshot("m1")
        self.assertEqual([s["items"] for s in frontend.sections("m1")], [s["items"] for s in truth["sections"]])
        self.assertEqual(frontend.selected("m1"), set(truth["selected"]))
        self.assertEqual(self.client.highlights("m1", 1, start=0, count=5)["highlights"][0]["path"][0], 1)
        full = self.client.snapshot("m1", full=True)
        self.assertEqual(len(full["sections"][1]["items"]), 4)
        self.assertEqual(full["sections"][1]["selection"], "single")

    def test_a_function_made_from_the_contract_calls_the_daemon(self) -> None:
        """What a method the daemon gained gets (`params.contract_functions`): here made for
        `snapshot` and `highlights`, it answers what the hand-written functions do."""
        from diffable import params
        self.fresh("m5")
        snapshot = params._contract_function("snapshot", asynchronous=False)
        self.assertEqual(snapshot(self.client, "m5", full=True), self.client.snapshot("m5", full=True))
        highlights = params._contract_function("highlights", asynchronous=False)
        self.assertEqual(highlights(self.client, "m5", 1, count=3), self.client.highlights("m5", 1, count=3))
        with self.assertRaisesRegex(TypeError, r"highlights\(\) takes 2 positional argument\(s\) \(source, section\), got 1"):
            highlights(self.client, "m5")
        with self.assertRaisesRegex(TypeError, "highlights takes no member 'rows'"):
            highlights(self.client, "m5", 1, rows=3)

    def test_selection_policies_sources_and_drop(self) -> None:
        frontend = self.fresh("m2")
        frontend.update(self.client.set_selection_mode("m2", {"search": {"mode": "multiple"}}))
        frontend.update(self.client.select("m2", ids=["bar"]))
        frontend.update(self.client.select("m2", paths=[[1, 0]]))
        state = self.client.selection("m2")
        self.assertEqual([s["id"] for s in state["selected"]], ["bar", "ava"])
        self.assertEqual(state["policies"]["search"], {"mode": "multiple", "allowsEmpty": True})
        frontend.update(self.client.select("m2", action="clear", sections=["search"]))
        self.assertEqual(frontend.selected("m2"), {"ava"})
        self.assertEqual(frontend.lines("m2")[3], '  * ava: {"text": "Ava Grace"}')
        listed = {s["source"]: s for s in self.client.sources()["sources"]}
        self.assertEqual((listed["m2"]["sections"], listed["m2"]["items"]), (2, 4))
        self.assertEqual(self.client.drop("m2"), {"source": "m2", "dropped": True})
        self.assertNotIn("m2", {s["source"] for s in self.client.sources()["sources"]})

    def test_every_optional_member_is_accepted_and_progress_arrives(self) -> None:
        events: List[diffable.Progress] = []
        self.client.apply("m3", PEOPLE, form="steps", base_version=0, progress=events.append)
        self.client.edit("m3", [ops.append_items(["zed"], section="people")], form="batch", base_version=1,
                         work_done_token=77, progress=events.append)
        self.client.search("m3", "a", sections=["people"], mode="substring", order="source", limit=3,
                           placeholder={"id": "nothing", "content": "-"}, highlight_limit=2, form="steps",
                           base_version=2, progress=events.append)
        self.client.select("m3", action="toggle", paths=[[1, 0]], base_version=3)
        self.client.select("m3", action="clear", sections=["people"])
        self.client.set_selection_mode("m3", {"people": {"mode": "multiple", "allowsEmpty": False}})
        self.client.highlights("m3", 1, start=0, count=2)
        self.client.snapshot("m3", full=True)
        # the daemon reports progress for every request that carried a workDoneToken: begin ... end
        tokens = list(dict.fromkeys(e.token for e in events))
        self.assertEqual(len(tokens), 3, events)
        self.assertEqual(tokens[1], 77)
        for token in tokens:
            kinds = [e.kind for e in events if e.token == token]
            self.assertEqual((kinds[0], kinds[-1]), ("begin", "end"), f"token {token}: {kinds}")

    def test_search_of_fields_scheme_and_tiebreak(self) -> None:
        files: List[Any] = [{"id": p, "content": {"name": p.rsplit("/", 1)[-1], "path": p}}
                            for p in ["Sources/app/Main.swift", "docs/main.md", "app/web/view.ts"]]
        self.client.apply("files", [{"id": "files", "items": files}])
        found = self.client.search("files", "app main", mode="fuzzy", fields=["name", "/path"], scheme="path",
                                   tiebreak=["length", "index"])
        self.assertEqual(found["highlights"], [{"id": "Sources/app/Main.swift", "path": [0, 0], "fields": [
            {"field": "name", "ranges": [[0, 4]]}, {"field": "/path", "ranges": [[8, 3]]}]}])
        frontend = Frontend()
        frontend.update(self.client.search("files", "view", mode="fuzzy", fields=["name"],
                                           viewport={"start": 0, "count": 5}))
        window = frontend.window("files")
        assert window is not None
        rows = window.rows
        self.assertEqual([(r["id"], r.get("fieldHighlights")) for r in rows],
                         [("app/web/view.ts", [{"field": "name", "ranges": [[0, 4]]}])])
        with self.assertRaises(diffable.InvalidParams) as caught:
            self.client.search("files", "x", fields=[])
        self.assertEqual(caught.exception.path, "params.fields")

    def test_unknown_members_are_rejected_by_the_daemon(self) -> None:
        with self.assertRaises(diffable.InvalidParams) as caught:
            self.client.request("sources", {"verbose": True})
        self.assertEqual(caught.exception.unknown, ["verbose"])

    def test_only_given_members_are_sent(self) -> None:
        self.assertEqual(build.search("s", "q", None, None, None, None, None, None, None, None),
                         {"source": "s", "query": "q"})
        self.assertEqual(build.search("s", "", ["a"], "fuzzy", "score", 0, "ph", 3, "steps", 7),
                         {"source": "s", "query": "", "sections": ["a"], "mode": "fuzzy", "order": "score",
                          "limit": 0, "placeholder": {"id": "ph"}, "highlightLimit": 3, "form": "steps",
                          "baseVersion": 7})
        self.assertEqual(build.search("s", "q", None, None, None, None, None, None, None, None, scheme="path",
                                      tiebreak=["begin"], fields=["name", "/a/b"]),
                         {"source": "s", "query": "q", "scheme": "path", "tiebreak": ["begin"],
                          "fields": ["name", "/a/b"]})
        self.assertEqual(build.select("s", None, None, None, None, None), {"source": "s"})
        self.assertEqual(build.apply("s", [], None, 0), {"source": "s", "sections": [], "baseVersion": 0})
        with self.assertRaises(ValueError):
            ops.move_item("a", before="b", after="c")


class TypedErrorTests(DaemonTestCase):
    def assert_error(self, error: diffable.RpcError, cls: type, code: int) -> None:
        self.assertIsInstance(error, cls)
        self.assertEqual(error.code, code)
        self.assertTrue(error.message)

    def test_invalid_params_has_the_path(self) -> None:
        self.fresh("e0")
        with self.assertRaises(diffable.InvalidParams) as caught:
            self.client.search("e0", "q", limit=-1)
        self.assert_error(caught.exception, diffable.InvalidParams, -32602)
        self.assertEqual(caught.exception.path, "params.limit")
        self.assertEqual(caught.exception.method, "search")

    def test_invalid_snapshot_lists_problems(self) -> None:
        with self.assertRaises(diffable.InvalidParams) as caught:
            self.client.apply("e1", [{"id": "a", "items": ["x", "x"]}])
        self.assertTrue(caught.exception.problems)
        self.assertIn("x", str(caught.exception.problems))

    def test_unknown_source(self) -> None:
        with self.assertRaises(diffable.UnknownSource) as caught:
            self.client.snapshot("no-such-source")
        self.assertEqual(caught.exception.source, "no-such-source")
        self.assertEqual(caught.exception.code, 1001)

    def test_version_conflict(self) -> None:
        self.fresh("e2")
        with self.assertRaises(diffable.VersionConflict) as caught:
            self.client.apply("e2", [], base_version=7)
        self.assertEqual(caught.exception.current_version, 1)

    def test_unknown_id_and_invalid_edit_and_selection_rejected(self) -> None:
        self.fresh("e3")
        with self.assertRaises(diffable.UnknownId) as unknown:
            self.client.select("e3", ids=["nobody"])
        self.assertEqual(unknown.exception.code, 1003)
        with self.assertRaises(diffable.InvalidEdit) as edit:
            self.client.edit("e3", [ops.append_items(["new"]), ops.move_item("nope", after="ava")])
        self.assertEqual((edit.exception.op_index, edit.exception.reason), (1, "unknownItem"))
        with self.assertRaises(diffable.SelectionRejected) as rejected:
            self.client.select("e3", ids=["bar"])  # the search section's policy is none
        self.assertEqual(rejected.exception.code, 1005)
        self.assertEqual(self.client.snapshot("e3")["version"], 1, "errors change nothing")

    def test_method_not_found_and_generic_request(self) -> None:
        with self.assertRaises(diffable.MethodNotFound) as caught:
            self.client.request("frobnicate", {})
        self.assertEqual(caught.exception.data, {"method": "frobnicate"})
        self.assertIn("sources", self.client.request("sources"))

    def test_superseded_search_is_request_cancelled(self) -> None:
        big = [{"id": "all", "items": [{"id": f"i{n}", "content": f"item {n}"} for n in range(100_000)]}]
        with Client(daemon_argv()) as client:  # supersedeSearches on (the default)
            busy = client.send_request("apply", {"source": "big", "sections": big})
            first = client.send_request("search", {"source": "big", "query": "item 1"})
            second = client.send_request("search", {"source": "big", "query": "item 12"})
            busy.result()
            with self.assertRaises(diffable.RequestCancelled) as caught:
                first.result()
            self.assertEqual(caught.exception.superseded_by, second.id)
            self.assertEqual(second.result()["search"]["query"], "item 12")

    def test_cancel_before_it_runs(self) -> None:
        big = [{"id": "all", "items": [f"i{n}" for n in range(200_000)]}]
        with Client(daemon_argv()) as client:
            busy = client.send_request("apply", {"source": "big", "sections": big})
            doomed = client.send_request("sources")
            client.cancel(doomed.id)
            busy.result()
            with self.assertRaises(diffable.RequestCancelled):
                doomed.result()
            self.assertEqual(client.sources()["sources"][0]["items"], 200_000)

    def test_after_shutdown_requests_are_invalid(self) -> None:
        with Client(daemon_argv()) as client:
            self.assertIsNone(client.request("shutdown"))
            with self.assertRaises(diffable.InvalidRequest):
                client.sources()
            self.assertEqual(client.close(), 0)


class FramingTests(unittest.TestCase):
    def test_newline_framing_session(self) -> None:
        with Client(daemon_argv(), framing="newline", initialization_options={"form": "steps"}) as client:
            result: Dict[str, Any] = dict(client.apply("n", PEOPLE))
            self.assertIn("steps", result)
            frontend = Frontend()
            frontend.update(result)
            self.assertEqual(len(frontend.rows("n")), 6)
            self.assertEqual(client.close(), 0)


if __name__ == "__main__":
    unittest.main()
