"""Viewports against the real daemon: the typed `viewport`/`rows` methods and `viewport=`/`echo=`
arguments (sync and async), and the random session with a viewport (diffable.selftest.run_window_session):
after every step the replayed window must equal the daemon's `rows` at the same start and count.
Knobs as for test_random_session: DIFFABLE_SEED, DIFFABLE_SEEDS, DIFFABLE_ROUNDS."""
from __future__ import annotations

import asyncio
import unittest
from typing import Any, Dict, List, cast

from support import daemon_argv, env_int
from diffable import AsyncClient, Client, Frontend, params
from diffable.selftest import run_window_session
from diffable.types import InitializationOptions, SectionIn

FIRST_SEED = env_int("DIFFABLE_SEED", 1)
SEEDS = env_int("DIFFABLE_SEEDS", 3)
ROUNDS = env_int("DIFFABLE_ROUNDS", 300)

PEOPLE: List[SectionIn] = [{"id": "people", "header": "People", "items": [{"id": f"p{k}", "content": {"text": f"Person {k}"}}
                                                         for k in range(30)]}]


def client(**options: Any) -> Client:
    return Client(daemon_argv(), daemon_args=["--log-level", "error"],
                  initialization_options=cast(InitializationOptions, {"supersedeSearches": False, **options}))


class ParamsTests(unittest.TestCase):
    def test_viewport_and_echo_are_sent_only_when_given(self) -> None:
        self.assertEqual(params.apply("s", [], None, None), {"source": "s", "sections": []})
        self.assertEqual(params.apply("s", [], None, None, {"start": 3, "count": 4}, "ids"),
                         {"source": "s", "sections": [], "viewport": {"start": 3, "count": 4}, "echo": "ids"})
        self.assertEqual(params.edit("s", [], None, None, None), {"source": "s", "ops": [], "viewport": None})
        self.assertEqual(params.search("s", "q", None, None, None, None, None, None, None, None),
                         {"source": "s", "query": "q"})
        self.assertEqual(params.search("s", "q", None, None, None, None, None, None, None, None, {"count": 0}),
                         {"source": "s", "query": "q", "viewport": {"count": 0}})
        self.assertEqual(params.viewport("s", None, None), {"source": "s"})
        self.assertEqual(params.viewport("s", 0, 5), {"source": "s", "start": 0, "count": 5})


class ViewportMethodTests(unittest.TestCase):
    def test_sync_methods_and_the_frontend_window(self) -> None:
        frontend = Frontend()
        with client() as c:
            frontend.sending("people", sections=PEOPLE)
            first = c.apply("people", PEOPLE, viewport={"start": 0, "count": 5}, echo="ids")
            self.assertNotIn("batch", first)
            frontend.update(first)
            window = frontend.window("people")
            assert window is not None
            self.assertEqual((window.total, window.start, window.count), (31, 0, 5))
            self.assertEqual([r["id"] for r in window.rows], ["people", "p0", "p1", "p2", "p3"])
            self.assertEqual(window.rows[1]["content"], {"text": "Person 0"}, "echo ids: content from sending()")
            frontend.update(c.viewport("people", start=20, count=5))
            rows = c.rows("people", start=20, count=5)
            window = frontend.window("people")
            assert window is not None
            self.assertEqual((rows["total"], rows["start"], rows["rows"]), (window.total, window.start, window.rows))
            self.assertEqual(window.rows[0]["id"], "p19")
            searched = c.search("people", "Person 2", viewport={"start": 0, "count": 3})
            frontend.update(searched)
            window = frontend.window("people")
            assert window is not None
            self.assertEqual([r["id"] for r in window.rows], ["people", "p2", "p20"])
            self.assertEqual(window.rows[1]["highlights"], [[0, 8]])
            removed = c.viewport("people", count=0)
            self.assertIsNone(removed["window"])
            frontend.update(removed)
            self.assertIsNone(frontend.window("people"))
            self.assertIn("batch", c.search("people", ""))  # the whole-list form again

    def test_async_methods(self) -> None:
        async def run() -> Dict[str, Any]:
            async with AsyncClient(daemon_argv(), daemon_args=["--log-level", "error"]) as c:
                applied = await c.apply("people", PEOPLE, viewport={"start": 2, "count": 2}, echo="full")
                scrolled = await c.viewport("people", start=3, count=2)
                rows = await c.rows("people", start=3, count=2)
                edited = await c.edit("people", [{"op": "deleteItems", "ids": ["p0"]}], viewport=None)
                return {"applied": applied, "scrolled": scrolled, "rows": rows, "edited": edited}
        got = asyncio.run(run())
        self.assertEqual(got["applied"]["window"]["steps"][0]["rows"][0],
                         {"id": "p1", "section": "people", "content": {"text": "Person 1"}})
        self.assertEqual(got["scrolled"]["window"]["steps"], [{"op": "delete", "at": 0, "count": 1},
                                                              {"op": "insert", "at": 1, "rows": [
                                                                  {"id": "p3", "section": "people",
                                                                   "content": {"text": "Person 3"}}]}])
        self.assertEqual([r["id"] for r in got["rows"]["rows"]], ["p2", "p3"])
        self.assertIsNone(got["edited"]["window"])  # viewport=None sends null: removed with the edit


class EchoIdsTests(unittest.TestCase):
    """echo "ids" leaves out only what this client sent: section header rows and a search placeholder
    always carry their content (both were left out by the daemon before 10f566f / 0b5e42e)."""

    def test_header_rows_carry_their_content(self) -> None:
        with client() as c:
            result = c.apply("s", [{"id": "s", "header": "S", "items": [{"id": "a", "content": "A"}]}],
                             viewport={"start": 0, "count": 5}, echo="ids")
            rows = result["window"]["steps"][0]["rows"]  # type: ignore[index]
            self.assertEqual(rows, [{"id": "s", "section": "s", "header": True, "content": "S"},
                                    {"id": "a", "section": "s"}])

    def test_a_placeholder_brought_by_an_apply_carries_its_content(self) -> None:
        with client() as c:
            c.apply("p", [{"id": "s", "items": [{"id": "c", "content": "cherry"}]}], viewport={"start": 0, "count": 5})
            c.search("p", "ch", placeholder={"id": "none-0", "content": "No results"})
            result = c.apply("p", [{"id": "s", "items": [{"id": "a", "content": "apple"}]}], echo="ids")
            steps = result["window"]["steps"]  # type: ignore[index]
            self.assertEqual(steps[-1], {"op": "insert", "at": 0, "rows": [
                {"id": "none-0", "section": "s", "content": "No results"}]})


class RandomWindowSessionTests(unittest.TestCase):
    def run_seeds(self, echo: str, **kwargs: Any) -> None:
        for seed in range(FIRST_SEED, FIRST_SEED + SEEDS):
            with self.subTest(seed=seed), client(echo=echo) as c:
                counts = run_window_session(c, seed, ROUNDS, **kwargs)
                print(f"\n  window session seed {seed} (echo {echo}): {dict(sorted(counts.items()))}", end=" ")
                for kind in ("apply", "edit", "select", "search", "scroll", "unview", "with viewport",
                             "viewport removed by a change", "window answers"):
                    self.assertGreater(counts[kind], 0, f"seed {seed}: no {kind}: {dict(counts)}")

    def test_random_window_sessions_echo_full(self) -> None:
        """Strict: nothing tolerated."""
        self.run_seeds("full", echoes=("full",))

    def test_random_window_sessions_echo_ids(self) -> None:
        """echo "ids" as the session default and per request (rows without content filled by sending())."""
        self.run_seeds("ids", echoes=("ids", "full"))


if __name__ == "__main__":
    unittest.main()
