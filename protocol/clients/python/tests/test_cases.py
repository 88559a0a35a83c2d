"""The shared replay cases (protocol/cases/, recorded from the daemon by protocol/tools/record-cases): the
`Frontend` replays each case's batch, steps and window payloads onto its old state and must reach its new one."""
from __future__ import annotations

import json
import unittest
from pathlib import Path
from typing import Any, Dict, List

from support import PACKAGE_ROOT, diffable
from diffable import Frontend
from diffable.frontend import normalized

CASES = PACKAGE_ROOT.parent.parent / "cases"


def load_cases() -> List[Dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(CASES.glob("*.json"))]


class SharedCaseTests(unittest.TestCase):
    def test_there_are_cases(self) -> None:
        self.assertGreaterEqual(len(load_cases()), 10, f"no shared replay cases in {CASES}")

    def test_batch_and_steps_reach_the_new_snapshot(self) -> None:
        for case in load_cases():
            for form in ("batch", "steps"):
                with self.subTest(case=case["name"], form=form):
                    frontend = Frontend()
                    frontend.load({"source": "s", "version": 1, "sections": case["old"]["sections"]})
                    frontend.update({"source": "s", "version": 2, form: case[form]})
                    self.assertEqual(normalized(frontend.sections("s")), normalized(case["new"]["sections"]))

    def test_window_reaches_the_new_rows(self) -> None:
        windowed = [case for case in load_cases() if "window" in case]
        self.assertGreater(len(windowed), 0)
        for case in windowed:
            window = case["window"]
            with self.subTest(case=case["name"]):
                frontend = Frontend()
                frontend.load_window({"source": "s", "version": 1, "total": len(window["old"]),
                                      "start": window["start"], "rows": window["old"]}, window["count"])
                frontend.update({"source": "s", "version": 2, "window": window["payload"]})
                held = frontend.window("s")
                assert held is not None
                self.assertEqual(held.rows, window["new"])
                self.assertEqual(held.total, window["payload"]["total"])


if __name__ == "__main__":
    unittest.main()
