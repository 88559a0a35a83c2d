"""Sync client behaviour the real daemon cannot show yet or on demand: notifications and progress,
timeouts, server requests, a dying daemon, a daemon that will not exit. Driven by tests/fake_server.py."""
from __future__ import annotations

import threading
import time
import unittest
from typing import Any, List

from support import diffable, fake_server
from diffable import Client, DaemonExited, Progress, RequestTimeout


class NotificationTests(unittest.TestCase):
    def test_progress_callback_gets_begin_report_end_and_token_is_sent(self) -> None:
        events: List[Progress] = []
        logs: List[Any] = []
        with Client(fake_server()) as client:
            client.on_notification("window/logMessage", logs.append)
            result = client.request("fake/echo", {"x": 1}, progress=events.append)
        token = result["params"]["workDoneToken"]
        self.assertEqual(result["params"]["x"], 1)
        self.assertEqual([(e.token, e.kind) for e in events], [(token, "begin"), (token, "report"), (token, "end")])
        self.assertEqual((events[0].title, events[0].percentage), ("Echoing", 0))
        self.assertEqual((events[1].percentage, events[1].message), (50, "half way"))
        self.assertEqual(events[2].message, "done")
        self.assertEqual(logs, [{"type": 3, "message": f"echo with token {token}"}])

    def test_work_done_token_without_callback_goes_to_on_notification(self) -> None:
        seen: List[Any] = []
        everything: List[Any] = []
        with Client(fake_server()) as client:
            client.on_notification("$/progress", seen.append)
            unsubscribe = client.on_notification("*", everything.append)
            result = client.request("fake/echo", {}, work_done_token="mine")
            unsubscribe()
            client.request("fake/echo", {}, work_done_token="later")
        self.assertEqual(result["params"], {"workDoneToken": "mine"})
        self.assertEqual([p["value"]["kind"] for p in seen], ["begin", "report", "end"] * 2)
        self.assertEqual({p["token"] for p in seen}, {"mine", "later"})
        self.assertEqual([m["method"] for m in everything], ["$/progress"] * 2 + ["window/logMessage", "$/progress"])

    def test_no_progress_asked_means_no_work_done_token_sent(self) -> None:
        with Client(fake_server()) as client:
            self.assertEqual(client.request("fake/echo", {"a": None}), {"params": {"a": None}})

    def test_a_raising_callback_does_not_stop_the_client(self) -> None:
        def broken(_: Any) -> None:
            raise ValueError("callback bug")

        with Client(fake_server()) as client, self.assertLogs("diffable", "ERROR"):
            client.on_notification("custom/thing", broken)
            client.request("fake/notify", {"method": "custom/thing", "params": {"n": 1}})
            self.assertEqual(client.request("fake/echo", {"still": "alive"}), {"params": {"still": "alive"}})

    def test_a_callback_cannot_wait_for_a_response(self) -> None:
        errors: List[BaseException] = []

        def waits(_: Any) -> None:
            try:
                client.sources()
            except RuntimeError as error:
                errors.append(error)

        with Client(fake_server()) as client:
            client.on_notification("custom/thing", waits)
            client.request("fake/notify", {"method": "custom/thing"})
        self.assertEqual(len(errors), 1)
        self.assertIn("reader thread", str(errors[0]))

    def test_requests_from_the_server_are_answered(self) -> None:
        with Client(fake_server()) as client:
            created = client.request("fake/serverRequest", {"method": "window/workDoneProgress/create"})["reply"]
            unknown = client.request("fake/serverRequest", {"method": "workspace/configuration"})["reply"]
        self.assertEqual(created, {"jsonrpc": "2.0", "id": "from-server", "result": None})
        self.assertEqual(unknown["error"]["code"], -32601)


class TimeoutTests(unittest.TestCase):
    def test_timeout_raises_cancels_and_the_client_stays_usable(self) -> None:
        with Client(fake_server(), timeout=5) as client:
            started = time.monotonic()
            with self.assertRaises(RequestTimeout) as caught:
                client.request("fake/sleep", {"seconds": 3.0}, timeout=0.2)
            # the timeout fired well before the answer would have come (generous: a busy machine)
            self.assertLess(time.monotonic() - started, 2.5)
            self.assertIsInstance(caught.exception, TimeoutError)
            self.assertEqual(caught.exception.method, "fake/sleep")
            # the late answer of the sleep arrives first and must be discarded, not taken for this one
            messages = client.request("fake/received")["messages"]
            cancels = [m for m in messages if m.get("method") == "$/cancelRequest"]
            self.assertEqual(cancels, [{"jsonrpc": "2.0", "method": "$/cancelRequest",
                                        "params": {"id": caught.exception.request_id}}])
            self.assertEqual(client.request("fake/echo", {"n": 2}), {"params": {"n": 2}})

    def test_client_default_timeout_applies(self) -> None:
        with Client(fake_server(), timeout=0.2) as client:
            with self.assertRaises(RequestTimeout):
                client.request("fake/sleep", {"seconds": 3.0})

    def test_pipelined_requests_are_matched_by_id(self) -> None:
        with Client(fake_server()) as client:
            first = client.send_request("fake/sleep", {"seconds": 0.1})
            second = client.send_request("fake/echo", {"n": 2})
            self.assertEqual(second.result(), {"params": {"n": 2}})
            self.assertTrue(first.done())
            self.assertEqual(first.result(), {"slept": 0.1})


class DyingDaemonTests(unittest.TestCase):
    def test_daemon_exit_raises_with_the_stderr_tail_and_status(self) -> None:
        client = Client(fake_server())
        try:
            with self.assertRaises(DaemonExited) as caught:
                client.request("fake/die", {"code": 7, "stderr": ["fatal: out of frobs", "bye"]})
            self.assertEqual(caught.exception.returncode, 7)
            self.assertIn("fatal: out of frobs\nbye", caught.exception.stderr_tail)
            self.assertIn("fatal: out of frobs", str(caught.exception))
            with self.assertRaises(DaemonExited):  # later requests fail the same way, at once
                client.sources()
        finally:
            self.assertEqual(client.close(), 7)

    def test_dying_during_initialize(self) -> None:
        with self.assertRaises(DaemonExited) as caught:
            Client(fake_server("--die-on-initialize"))
        self.assertEqual(caught.exception.returncode, 3)
        self.assertIn("cannot open the frobnicator", caught.exception.stderr_tail)

    def test_close_kills_a_daemon_that_does_not_exit(self) -> None:
        client = Client(fake_server("--ignore-exit"))
        started = time.monotonic()
        status = client.close(grace=0.5)
        self.assertLess(time.monotonic() - started, 3)
        self.assertEqual(status, -9)  # SIGKILL
        with self.assertRaises(diffable.ClientClosed):
            client.sources()

    def test_close_is_idempotent_and_clean(self) -> None:
        client = Client(fake_server())
        self.assertEqual(client.close(), 0)
        self.assertEqual(client.close(), 0)

    def test_threads_end_with_the_client(self) -> None:
        before = threading.active_count()
        with Client(fake_server()) as client:
            client.request("fake/echo", {})
        self.assertEqual(threading.active_count(), before)


if __name__ == "__main__":
    unittest.main()
