"""Progressive search against the real daemon (protocol/methods/search.md, "Progressive answers"):
with `progressiveBudget: 0` every eligible search answers partially, then refines with a
`searchRefined` notification. A Frontend fed every answer and refinement in arrival order ends
with exactly the window a client without `progressive` shows, which is `snapshot`'s first rows;
a keystroke sent before the refinement arrived applies cleanly on the partial window."""
from __future__ import annotations

import asyncio
import random
import unittest
from typing import Any, List, Optional, cast

from support import daemon_argv
from diffable import AsyncClient, Client, Frontend, params
from diffable.types import InitializationOptions, ItemIn, SearchResult, SectionIn, ViewportIn

COUNT = 20000  # more than the daemon's sample (8,192 texts), so a partial answer differs from the exact one
WORDS = ["src", "lib", "view", "grid", "main", "swift", "readme", "conf", "init", "py", "test", "core", "app"]
ROWS = 12
VIEWPORT: ViewportIn = {"start": 0, "count": ROWS}
QUERY = "main.py"


def paths(seed: int = 1) -> List[SectionIn]:
    rng = random.Random(seed)
    items: List[ItemIn] = [{"id": str(k), "content": "/".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5))) + f"{k}.txt"}
             for k in range(COUNT)]
    return [{"id": "files", "items": items}]


def client(**options: Any) -> Client:
    return Client(daemon_argv(), daemon_args=["--log-level", "error"], timeout=120,
                  initialization_options=cast(InitializationOptions, {"supersedeSearches": False, **options}))


def exact_ids(query: str) -> List[str]:
    """The window a client without `progressive` shows for `query`, checked against `snapshot`."""
    frontend = Frontend()
    with client() as c:
        frontend.update(c.apply("files", paths(), viewport=VIEWPORT))
        frontend.update(c.search("files", query, mode="fuzzy", order="score"))
        window = frontend.window("files")
        assert window is not None
        ids = [r["id"] for r in window.rows]
        snapshot = c.snapshot("files")
        first = [i["id"] for i in snapshot["sections"][0]["items"][:ROWS]]
    assert ids == first, (ids, first)
    return ids


def ids(frontend: Frontend) -> List[str]:
    window = frontend.window("files")
    assert window is not None
    return [r["id"] for r in window.rows]


class ProgressiveTests(unittest.TestCase):
    exact: List[str] = []

    @classmethod
    def setUpClass(cls) -> None:
        cls.exact = exact_ids(QUERY)

    def test_params(self) -> None:
        self.assertEqual(params.search("s", "q", None, None, None, None, None, None, None, None, progressive=True),
                         {"source": "s", "query": "q", "progressive": True})
        self.assertEqual(params.initialize({"progressiveBudget": 0}), {"initializationOptions": {"progressiveBudget": 0}})

    def test_typing_key_by_key_ends_on_the_exact_window(self) -> None:
        frontend = Frontend()
        notified: List[Any] = []
        with client(progressiveBudget=0) as c:
            c.on_notification("searchRefined", notified.append)
            frontend.update(c.apply("files", paths(), viewport=VIEWPORT))
            partials = refinements = 0
            for k in range(1, len(QUERY) + 1):
                answer = c.search("files", QUERY[:k], mode="fuzzy", order="score", progressive=True)
                frontend.update(answer)
                if answer["search"].get("partial"):
                    partials += 1
                    refined = c.refinement("files")
                    self.assertIsNotNone(refined, QUERY[:k])
                    assert refined is not None
                    self.assertNotIn("partial", refined["search"])
                    self.assertEqual(refined["search"]["query"], QUERY[:k])
                    frontend.update(refined)
                    refinements += 1
                else:
                    self.assertIsNone(c.refinement("files"))
            self.assertEqual(ids(frontend), self.exact)
            self.assertGreater(partials, 0, "progressiveBudget 0 answered nothing partially")
            self.assertEqual(len(notified), refinements, "every searchRefined also reached on_notification")
            snapshot = c.snapshot("files")
            self.assertEqual(ids(frontend), [i["id"] for i in snapshot["sections"][0]["items"][:ROWS]])

    def test_the_next_keystroke_before_the_refinement(self) -> None:
        """Two searches sent back to back: the first refinement is either sent before the second answer
        (then applied first) or dropped by it (None); either way the second answer applies on what the
        frontend holds, and its own refinement ends on the exact window."""
        frontend = Frontend()
        with client(progressiveBudget=0) as c:
            frontend.update(c.apply("files", paths(), viewport=VIEWPORT))
            for k in range(1, len(QUERY) - 1, 2):
                first = c.send_request("search", params.search("files", QUERY[:k], None, "fuzzy", "score", None, None,
                                                               None, None, None, progressive=True))
                second = c.send_request("search", params.search("files", QUERY[:k + 1], None, "fuzzy", "score", None,
                                                                None, None, None, None, progressive=True))
                for pending in (first, second):
                    frontend.update(cast(SearchResult, pending.result()))
                    refined = pending.refinement()
                    if refined is not None:
                        frontend.update(refined)
            answer = c.search("files", QUERY, mode="fuzzy", order="score", progressive=True)
            frontend.update(answer)
            refined = c.refinement("files")
            if refined is not None:
                frontend.update(refined)
            self.assertEqual(ids(frontend), self.exact)

    def test_without_progressive_nothing_is_partial(self) -> None:
        with client(progressiveBudget=0) as c:
            c.apply("files", paths(), viewport=VIEWPORT)
            answer = c.search("files", "ma", mode="fuzzy", order="score")
            self.assertNotIn("partial", answer["search"])
            self.assertIsNone(c.refinement("files"))
            self.assertIsNone(c.refinement("no such source"))

    def test_async_client(self) -> None:
        async def run() -> List[str]:
            frontend = Frontend()
            async with AsyncClient(daemon_argv(), daemon_args=["--log-level", "error"], timeout=120,
                                   initialization_options={"supersedeSearches": False, "progressiveBudget": 0}) as c:
                frontend.update(await c.apply("files", paths(), viewport=VIEWPORT))
                partial = False
                for k in range(1, len(QUERY) + 1):
                    answer = await c.search("files", QUERY[:k], mode="fuzzy", order="score", progressive=True)
                    frontend.update(answer)
                    partial = partial or bool(answer["search"].get("partial"))
                    refined: Optional[SearchResult] = await c.refinement("files")
                    if refined is not None:
                        frontend.update(refined)
                self.assertTrue(partial)
            return ids(frontend)
        self.assertEqual(asyncio.run(run()), self.exact)


if __name__ == "__main__":
    unittest.main()
