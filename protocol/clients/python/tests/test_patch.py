"""Field-level updates (protocol/README.md): `apply_patch`, the frontend model applying `updates: "patch"` rows
in every form, and `ops.patch_content`, replayed against `snapshot` / `rows` of the real daemon."""
from __future__ import annotations

import contextlib
import io
import json
import random
import unittest
from typing import Any, Dict, List, Tuple

from support import PACKAGE_ROOT, daemon_argv, diffable
from diffable import Client, Echo, Frontend, PatchError, apply_patch, ops

TRANSCRIPT = PACKAGE_ROOT.parent.parent / "transcripts" / "ticker-patch-updates.transcript"


class ApplyPatchTests(unittest.TestCase):
    def test_every_op_and_the_pointer_rules(self) -> None:
        doc = {"a/b": 1, "m~n": [1, 2], "x": {"y": None}}
        out = apply_patch(doc, [{"op": "replace", "path": "/a~1b", "value": 2}, {"op": "add", "path": "/m~0n/-", "value": 3},
                                {"op": "add", "path": "/m~0n/0", "value": 0}, {"op": "remove", "path": "/x/y"},
                                {"op": "copy", "from": "/m~0n", "path": "/c"}, {"op": "move", "from": "/a~1b", "path": "/z"},
                                {"op": "test", "path": "/z", "value": 2.0}])
        self.assertEqual(out, {"m~n": [0, 1, 2, 3], "x": {}, "c": [0, 1, 2, 3], "z": 2})
        self.assertEqual(list(out), ["m~n", "x", "c", "z"])
        self.assertEqual(doc["a/b"], 1, "the document given is not modified")

    def test_failures_name_the_op(self) -> None:
        cases: List[Tuple[List[Dict[str, Any]], int]] = [([{"op": "add", "path": "/01", "value": 1}], 0), ([{"op": "replace", "path": "/-", "value": 1}], 0),
                 ([{"op": "remove", "path": "/2"}], 0), ([{"op": "test", "path": "/0", "value": 1},
                                                          {"op": "test", "path": "/0", "value": "1"}], 1),
                 ([{"op": "add", "path": "/0/~2", "value": 1}], 0), ([{"op": "move", "from": "", "path": "/0"}], 0)]
        for patch, index in cases:
            with self.subTest(patch=patch), self.assertRaises(PatchError) as caught:
                apply_patch([1, 2], patch)
            self.assertEqual(caught.exception.index, index)

    def test_the_transcripts_patches_apply_to_the_contents_before(self) -> None:
        lines = TRANSCRIPT.read_text().splitlines()
        answers = {json.loads(l[2:])["id"]: json.loads(l[2:]) for l in lines if l.startswith("< ")}
        frontend = Frontend()
        for i in (2, 3, 4, 5, 8, 9, 10):
            frontend.update(answers[i]["result"])
        window = frontend.window("ticker")
        assert window is not None
        self.assertEqual([r["content"] for r in window.rows], [r["content"] for r in answers[11]["result"]["rows"][:2]])


def _rows(rng: random.Random, n: int) -> List[Any]:
    return [{"id": f"t{i}", "content": {"symbol": f"T{i}", "price": round(rng.uniform(1, 500), 2), "volume": rng.randrange(10**6),
                                         "tags": ["a", "b"], "name": "Ticker %d Incorporated, listed" % i}} for i in range(n)]


def _patched_rows(result: Any) -> int:
    """Rows that came as a patch: items with `patch`, and the rows of patch runs (`rows` + `patches`)."""
    text = json.dumps(result)
    runs = [run for key in ("reload", "reconfigure") for run in result.get("batch", {}).get("items", {}).get(key, [])]
    runs += [step for step in result.get("steps", []) if step.get("op") in ("reloadItems", "reconfigureItems")]
    return text.count('"patch"') + sum(len(run.get("patches", [])) for run in runs)


class PatchSessionTests(unittest.TestCase):
    def test_patch_sessions_replay_to_the_daemon(self) -> None:
        client = Client(daemon_argv(), daemon_args=["--log-level", "error"])
        patched = 0
        try:
            for form in ("batch", "steps", "window"):
                rng = random.Random(32)
                source = f"ticker-{form}"
                rows = _rows(rng, 12)
                frontend = Frontend()
                frontend.update(client.apply(source, [{"id": "q", "items": rows}], updates="patch",
                                             form="steps" if form == "steps" else "batch"))
                if form == "window":
                    frontend.update(client.viewport(source, start=2, count=6))
                for tick in range(30):
                    k = rng.randrange(len(rows))
                    if tick % 2:
                        field = rng.choice(["price", "volume", "tags"])
                        value: Any = [rng.choice("xyz")] * rng.randrange(3) if field == "tags" else rng.randrange(1000)
                        op = ops.patch_content(rows[k]["id"], [{"op": "replace", "path": f"/{field}", "value": value}])
                        rows[k]["content"][field] = value
                        echoes: List[Echo] = ["ids", "full"]
                        echo = rng.choice(echoes)
                        frontend.sending(source, ops=[op])
                        result = client.edit(source, [op], updates="patch", echo=echo,
                                             form="steps" if form == "steps" else "batch")
                    else:
                        rows[k]["content"]["price"] = round(rng.uniform(1, 500), 2)
                        if tick % 6 == 0:
                            rows.insert(0, rows.pop())
                        result = client.apply(source, [{"id": "q", "items": rows}], updates="patch",
                                              form="steps" if form == "steps" else "batch")
                    patched += _patched_rows(result)
                    frontend.update(result)
                    if form == "window":
                        window = frontend.window(source)
                        assert window is not None
                        listed = client.rows(source, start=window.start, count=window.count)
                        self.assertEqual([(r["id"], r.get("content")) for r in window.rows],
                                         [(r["id"], r.get("content")) for r in listed["rows"]])
                    else:
                        truth = client.snapshot(source)
                        self.assertEqual(frontend.sections(source)[0]["items"], truth["sections"][0]["items"])
        finally:
            self.assertEqual(client.close(), 0)
        self.assertGreater(patched, 40)


class ReadmeExampleTests(unittest.TestCase):
    def test_the_field_level_example_prints_what_the_readme_says(self) -> None:
        readme = (PACKAGE_ROOT / "README.md").read_text()
        section = readme[readme.index("## Field-level updates"):]
        program = section[section.index("```python\n") + 10:section.index("```", section.index("```python\n") + 10)]
        printed = section[section.index("prints\n\n```\n") + 12:]
        printed = printed[:printed.index("```")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(program, "README.md", "exec"), {"__name__": "readme_example"})
        self.assertEqual(out.getvalue(), printed)


if __name__ == "__main__":
    unittest.main()
