"""The generated contract (`diffable._contract`, from protocol/schemas) and the code that uses it."""
from __future__ import annotations

import unittest
from typing import Any, Dict

from support import diffable
from diffable import errors, params, types
from diffable._contract import ERROR_CODES, METHODS, RESULTS
from diffable._contract import RESULT_TYPES as GENERATED_RESULT_TYPES

# The hand-written TypedDict of each method's result (diffable.types); a method without one (the
# daemon gained it) is typed by the generated one (`_contract.RESULT_TYPES`).
HAND_WRITTEN_RESULT_TYPES: Dict[str, Any] = {
    "apply": types.DiffResult, "edit": types.DiffResult, "expand": types.DiffResult, "collapse": types.DiffResult,
    "search": types.SearchResult, "select": types.SelectResult, "setSelectionMode": types.SelectResult,
    "selection": types.SelectionResult, "highlights": types.HighlightsResult, "viewport": types.ViewportResult,
    "rows": types.RowsResult, "snapshot": types.SnapshotResult, "outline": types.OutlineResult,
    "sources": types.SourcesResult, "drop": types.DropResult, "initialize": types.InitializeResult,
}
RESULT_TYPES: Dict[str, Any] = {**GENERATED_RESULT_TYPES, **HAND_WRITTEN_RESULT_TYPES}


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


    def test_result_types_have_the_schemas_members(self) -> None:
        """Each result TypedDict names exactly its schema's members, required exactly where the schema
        always sends them (the TypedDicts are written by hand; this keeps them from drifting)."""
        self.assertEqual(sorted(RESULT_TYPES), sorted(RESULTS))
        for method, shape in RESULTS.items():
            with self.subTest(method=method):
                typed = RESULT_TYPES[method]
                self.assertEqual(sorted(typed.__required_keys__), sorted(shape.required))
                self.assertEqual(sorted(typed.__optional_keys__), sorted(set(shape.members) - set(shape.required)))


    def test_every_request_method_has_a_function(self) -> None:
        from diffable.aio import AsyncClient
        for method, contract in METHODS.items():
            if contract.kind != "request" or method in ("initialize", "shutdown"):
                continue
            with self.subTest(method=method):
                self.assertTrue(callable(getattr(diffable.Client, params.snake(method), None)))
                self.assertTrue(callable(getattr(AsyncClient, params.snake(method), None)))


if __name__ == "__main__":
    unittest.main()
