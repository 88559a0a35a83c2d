"""The generated contract (`diffable._contract`, from protocol/schemas) and the code that uses it."""
from __future__ import annotations

import unittest

from support import diffable
from diffable import errors, params
from diffable._contract import ERROR_CODES, METHODS


class ContractTests(unittest.TestCase):
    def test_every_error_code_has_its_exception(self) -> None:
        for name, code in ERROR_CODES.items():
            with self.subTest(name=name):
                cls = getattr(errors, name)
                self.assertIs(diffable.RpcError.from_response({"code": code, "message": "m"}).__class__, cls)
                self.assertIn(name, diffable.__all__)

    def test_params_members_are_the_contracts(self) -> None:
        self.assertEqual(params.camel("highlight_limit"), "highlightLimit")
        self.assertEqual(params.members("search", source="s", query="q", highlight_limit=None), {"source": "s", "query": "q"})
        self.assertEqual(params.members("snapshot", source=None), {"source": None})  # required: always sent
        with self.assertRaisesRegex(TypeError, "snapshot takes no member 'fullText'"):
            params.members("snapshot", source="s", full_text=True)
        with self.assertRaisesRegex(TypeError, "rows takes no member 'viewport'"):
            params.members("rows", {"count": 1}, source="s")
        self.assertEqual(METHODS["apply"].required, ("source", "sections"))


if __name__ == "__main__":
    unittest.main()
