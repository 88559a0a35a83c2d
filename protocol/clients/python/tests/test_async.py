"""AsyncClient: the real daemon for methods and errors, the fake server for notifications and timeouts."""
from __future__ import annotations

import asyncio
import time
import unittest
from typing import Any, List

from support import daemon_argv, diffable, fake_server
from diffable import AsyncClient, Frontend, Progress, ops


class QuietAsyncTestCase(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        # debug mode (on in these tests) reports callbacks over 0.1 s, which a busy machine produces
        asyncio.get_running_loop().slow_callback_duration = 2.0


class AsyncDaemonTests(QuietAsyncTestCase):
    async def test_session_replayed_matches_snapshot(self) -> None:
        frontend = Frontend()
        async with AsyncClient(daemon_argv(), initialization_options={"form": "steps"}) as client:
            self.assertEqual(client.initialize_result and client.initialize_result["serverInfo"]["name"], "diffable")
            frontend.update(await client.apply("a", [{"id": "s", "selection": "multiple",
                                                      "items": [{"id": "x", "content": "apple"}, "y"]}]))
            frontend.update(await client.edit("a", [ops.append_items([{"id": "z", "content": "apricot"}])],
                                              form="batch"))
            frontend.update(await client.select("a", ids=["x", "z"]))
            frontend.update(await client.search("a", "ap", placeholder={"id": "empty"}))
            truth = await client.snapshot("a")
            self.assertEqual(frontend.sections("a")[0]["items"], truth["sections"][0]["items"])
            self.assertEqual(frontend.selected("a"), set(truth["selected"]))
            self.assertEqual([r["id"] for r in (await client.selection("a"))["selected"]], ["x", "z"])
            self.assertEqual((await client.sources())["sources"][0]["items"], 3)
            self.assertEqual((await client.drop("a"))["dropped"], True)
            self.assertEqual(await client.close(), 0)

    async def test_typed_errors(self) -> None:
        async with AsyncClient(daemon_argv()) as client:
            with self.assertRaises(diffable.UnknownSource):
                await client.snapshot("none")
            await client.apply("b", [{"id": "s", "items": ["x"]}])
            with self.assertRaises(diffable.InvalidEdit) as caught:
                await client.edit("b", [ops.delete_items(["x", "x"])])
            self.assertEqual(caught.exception.reason, "duplicateItem")
            with self.assertRaises(diffable.VersionConflict):
                await client.search("b", "x", base_version=9)
            # the session goes on after errors
            self.assertEqual((await client.snapshot("b"))["version"], 1)

    async def test_concurrent_requests_are_matched_by_id(self) -> None:
        async with AsyncClient(daemon_argv(), framing="newline") as client:
            await client.apply("c", [{"id": "s", "items": [f"i{n}" for n in range(50)]}])
            answers = await asyncio.gather(*(client.highlights("c", 0, start=n) for n in range(20)))
            self.assertEqual([a["version"] for a in answers], [1] * 20)
            pending = [await client.send_request("highlights", {"source": "c", "section": 0, "start": n})
                       for n in range(5)]
            self.assertEqual([(await p.result())["highlights"] for p in reversed(pending)], [[]] * 5)


class AsyncFakeServerTests(QuietAsyncTestCase):
    async def test_progress_and_notifications_sync_and_async_callbacks(self) -> None:
        events: List[Progress] = []
        logged: List[Any] = []

        async def log_later(params: Any) -> None:
            await asyncio.sleep(0)
            logged.append(params)

        async with AsyncClient(fake_server()) as client:
            client.on_notification("window/logMessage", log_later)
            result = await client.request("fake/echo", {}, progress=events.append)
            await asyncio.sleep(0.05)
        self.assertEqual([e.kind for e in events], ["begin", "report", "end"])
        self.assertEqual({e.token for e in events}, {result["params"]["workDoneToken"]})
        self.assertEqual(len(logged), 1)

    async def test_timeout_then_usable(self) -> None:
        async with AsyncClient(fake_server()) as client:
            started = time.monotonic()
            with self.assertRaises(diffable.RequestTimeout):
                await client.request("fake/sleep", {"seconds": 3.0}, timeout=0.1)
            # the timeout fired well before the answer would have come (generous: a busy machine)
            self.assertLess(time.monotonic() - started, 2.5)
            received = (await client.request("fake/received"))["messages"]
            self.assertIn("$/cancelRequest", [m.get("method") for m in received])
            self.assertEqual(await client.request("fake/echo", {"k": 1}), {"params": {"k": 1}})

    async def test_cancelling_the_task_sends_cancel_request(self) -> None:
        async with AsyncClient(fake_server()) as client:
            task = asyncio.ensure_future(client.request("fake/sleep", {"seconds": 0.3}))
            await asyncio.sleep(0.05)
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task
            received = (await client.request("fake/received"))["messages"]
            cancels = [m["params"]["id"] for m in received if m.get("method") == "$/cancelRequest"]
            sleeps = [m["id"] for m in received if m.get("method") == "fake/sleep"]
            self.assertEqual(cancels, sleeps)

    async def test_daemon_exited_and_kill_after_grace(self) -> None:
        client = await AsyncClient(fake_server()).start()
        with self.assertRaises(diffable.DaemonExited) as caught:
            await client.request("fake/die", {"code": 5, "stderr": ["async boom"]})
        self.assertEqual(caught.exception.returncode, 5)
        self.assertIn("async boom", caught.exception.stderr_tail)
        self.assertEqual(await client.close(), 5)
        stubborn = await AsyncClient(fake_server("--ignore-exit")).start()
        self.assertEqual(await stubborn.close(grace=0.3), -9)
        with self.assertRaises(diffable.ClientClosed):
            await stubborn.sources()


if __name__ == "__main__":
    unittest.main()
