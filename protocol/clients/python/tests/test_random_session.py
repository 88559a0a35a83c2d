"""The random session: seeded requests against the real daemon, the replayed model checked against
`snapshot` after every step (diffable.selftest). Knobs: DIFFABLE_SEED (first seed, default 1),
DIFFABLE_SEEDS (how many seeds, default 3), DIFFABLE_ROUNDS (rounds per seed, default 300)."""
from __future__ import annotations

import subprocess
import sys
import unittest

from support import PACKAGE_ROOT, daemon_argv, env_int
from diffable import Client
from diffable.selftest import run_session

FIRST_SEED = env_int("DIFFABLE_SEED", 1)
SEEDS = env_int("DIFFABLE_SEEDS", 3)
ROUNDS = env_int("DIFFABLE_ROUNDS", 300)


class RandomSessionTests(unittest.TestCase):
    def run_seed(self, seed: int, framing: str) -> None:
        with Client(daemon_argv(), daemon_args=["--log-level", "error"], framing=framing,  # type: ignore[arg-type]
                    initialization_options={"supersedeSearches": False}) as client:
            counts = run_session(client, seed, ROUNDS)
            self.assertEqual(client.close(), 0)
        # the session must have exercised every kind of request, not only applies
        for kind in ("apply", "search", "select", "edit", "with progress"):
            self.assertGreater(counts[kind], 0, f"seed {seed}: no {kind} ran: {dict(counts)}")

    def test_random_sessions(self) -> None:
        for seed in range(FIRST_SEED, FIRST_SEED + SEEDS):
            with self.subTest(seed=seed):
                self.run_seed(seed, "newline" if seed % 2 == 0 else "content-length")


class CompatibilityScriptTests(unittest.TestCase):
    """protocol/clients/python/diffable_client.py as Tests/EndToEndTests/ClientTests.swift calls it."""

    def run_script(self, *args: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([sys.executable, str(PACKAGE_ROOT / "diffable_client.py"), *args],
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)

    def test_selftest_with_seed_and_rounds(self) -> None:
        done = self.run_script("--selftest", daemon_argv()[0], "--seed", str(FIRST_SEED), "--rounds", "60")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn(f"selftest seed {FIRST_SEED}: 60 rounds OK", done.stdout)

    def test_quickstart_example(self) -> None:
        done = self.run_script(daemon_argv()[0])
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("closed: {\"text\": \"We're sorry!", done.stdout)
        self.assertIn("daemon exit 0", done.stdout)


if __name__ == "__main__":
    unittest.main()
