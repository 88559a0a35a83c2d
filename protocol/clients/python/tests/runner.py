"""Runs every tests/test_*.py and prints `N passed, M failed` last. A skipped test counts as failed:
a test that cannot run must say so. Exit status 0 only when nothing failed.

    python3 tests/runner.py [PATTERN]     (PATTERN: a test module glob, default test*.py)
"""
from __future__ import annotations

import sys
import time
import unittest
from pathlib import Path
from typing import Any, Optional, Set, cast

HERE = Path(__file__).resolve().parent


class CountingResult(unittest.TextTestResult):
    """Ids of the tests that ran, and of those that failed, errored or were skipped (a subtest counts
    for its test; a setUpClass error counts as one failure of its own)."""

    ran: Set[str]
    bad: Set[str]

    def startTestRun(self) -> None:
        super().startTestRun()
        self.ran, self.bad = set(), set()

    def startTest(self, test: unittest.TestCase) -> None:
        super().startTest(test)
        self.ran.add(test.id())

    def addError(self, test: unittest.TestCase, err: object) -> None:
        super().addError(test, err)  # type: ignore[arg-type]
        self.bad.add(test.id())

    def addFailure(self, test: unittest.TestCase, err: object) -> None:
        super().addFailure(test, err)  # type: ignore[arg-type]
        self.bad.add(test.id())

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        super().addSkip(test, reason)
        self.bad.add(test.id())

    def addUnexpectedSuccess(self, test: unittest.TestCase) -> None:
        super().addUnexpectedSuccess(test)
        self.bad.add(test.id())

    def addSubTest(self, test: unittest.TestCase, subtest: unittest.TestCase, err: Optional[object]) -> None:
        super().addSubTest(test, subtest, err)  # type: ignore[arg-type]
        if err is not None:
            self.bad.add(test.id())


def main() -> int:
    pattern = sys.argv[1] if len(sys.argv) > 1 else "test*.py"
    sys.path.insert(0, str(HERE))
    suite = unittest.defaultTestLoader.discover(str(HERE), pattern=pattern, top_level_dir=str(HERE))
    started = time.monotonic()
    runner = unittest.TextTestRunner(resultclass=cast(Any, CountingResult),  # typeshed wants a narrower factory
                                     verbosity=2, stream=sys.stdout)
    result = runner.run(suite)
    assert isinstance(result, CountingResult)
    passed, failed = len(result.ran - result.bad), len(result.bad)
    if not result.ran:
        print("no test ran")
        failed += 1
    print(f"unittest: {passed} passed, {failed} failed in {time.monotonic() - started:.1f} s")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
