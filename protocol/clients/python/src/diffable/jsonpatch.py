"""RFC 6902 JSON Patch, applied to parsed JSON, as the daemon applies it (protocol/README.md, "Field-level
updates"): what `updates: "patch"` rows carry, and what `ops.patch_content` sends.

Pointers (RFC 6901): "" is the whole value; else "/"-separated tokens with `~1` = "/" and `~0` = "~";
array indices are "0" or digits without a leading zero; "-" is the end of an array (for `add`). Python
dicts cannot repeat a name, so a member `add` replaces in place when the name exists (dicts keep their
order) and appends otherwise, as the daemon does. `test` compares by value (1 == 1.0; dicts unordered).
Iterative: no recursion, whatever the depth."""
from __future__ import annotations

import copy
from typing import Any, List, Mapping, Sequence, Tuple

from .errors import DiffableError


class PatchError(DiffableError):
    """A patch that does not apply: `index` is the failing op's index in the patch."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"patch op {index}: {message}")
        self.index = index


def parse_pointer(pointer: str) -> List[str]:
    """The unescaped tokens of a pointer; ValueError when it is not one."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"{pointer!r} is not a JSON Pointer (it must be \"\" or start with /)")
    tokens = []
    for raw in pointer[1:].split("/"):
        rest = raw.replace("~0", "").replace("~1", "")
        if "~" in rest:
            raise ValueError(f"{pointer!r}: ~ must be ~0 or ~1")
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tokens


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _index(token: str, length: int, end_ok: bool) -> int:
    if token == "-" and end_ok:
        return length
    if not (token == "0" or (token[:1] in "123456789" and token != "" and token.isdigit() and token.isascii())):
        raise ValueError(f"{token!r} is not an array index")
    index = int(token)
    if index > length or (index == length and not end_ok):
        raise ValueError(f"index {index} is out of range ({length} elements)")
    return index


def _get(doc: Any, tokens: Sequence[str]) -> Any:
    for token in tokens:
        if isinstance(doc, dict):
            if token not in doc:
                raise ValueError(f"no member {token!r}")
            doc = doc[token]
        elif isinstance(doc, list):
            doc = doc[_index(token, len(doc), False)]
        else:
            raise ValueError(f"{token!r}: not inside an object or array")
    return doc


def _parent(doc: Any, tokens: Sequence[str]) -> Tuple[Any, str]:
    parent = _get(doc, tokens[:-1])
    if not isinstance(parent, (dict, list)):
        raise ValueError("the parent is neither an object nor an array")
    return parent, tokens[-1]


def _add(doc: Any, tokens: Sequence[str], value: Any) -> Any:
    if not tokens:
        return value
    parent, last = _parent(doc, tokens)
    if isinstance(parent, dict):
        parent[last] = value
    else:
        parent.insert(_index(last, len(parent), True), value)
    return doc


def _remove(doc: Any, tokens: Sequence[str]) -> Tuple[Any, Any]:
    if not tokens:
        raise ValueError("the whole value cannot be removed")
    parent, last = _parent(doc, tokens)
    if isinstance(parent, dict):
        if last not in parent:
            raise ValueError(f"no member {last!r}")
        return doc, parent.pop(last)
    return doc, parent.pop(_index(last, len(parent), False))


def equal(a: Any, b: Any) -> bool:
    """RFC 6902 `test` equality: numbers by value (not bools), dicts unordered, lists in order."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if isinstance(x, bool) or isinstance(y, bool):
            if x is not y:
                return False
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if x != y:
                return False
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            pending.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y))
        elif type(x) is not type(y) or x != y:
            return False
    return True


def apply_patch(document: Any, patch: Sequence[Mapping[str, Any]]) -> Any:
    """`document` (not modified) with the ops applied in order; PatchError names the failing op."""
    doc = copy.deepcopy(document)
    for index, op in enumerate(patch):
        try:
            name, path = op["op"], parse_pointer(op["path"])
            if name == "add":
                doc = _add(doc, path, copy.deepcopy(op["value"]))
            elif name == "remove":
                doc, _ = _remove(doc, path)
            elif name == "replace":
                _get(doc, path)
                if path and isinstance(_parent(doc, path)[0], list):
                    parent, last = _parent(doc, path)
                    parent[_index(last, len(parent), False)] = copy.deepcopy(op["value"])
                else:
                    doc = _add(doc, path, copy.deepcopy(op["value"]))
            elif name in ("move", "copy"):
                source = parse_pointer(op["from"])
                value = copy.deepcopy(_get(doc, source))
                if name == "move":
                    if len(source) < len(path) and path[:len(source)] == source:
                        raise ValueError("a value cannot move into its own child")
                    if source == path:
                        continue
                    doc, value = _remove(doc, source)
                doc = _add(doc, path, value)
            elif name == "test":
                if not equal(_get(doc, path), op["value"]):
                    raise ValueError(f"test failed at {op['path']!r}")
            else:
                raise ValueError(f"unknown op {name!r}")
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise PatchError(index, str(error)) from None
    return doc
