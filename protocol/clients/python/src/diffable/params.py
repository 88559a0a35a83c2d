"""Params of every method, built from Python arguments.

Only members the spec documents are sent, in its camelCase spelling, and
`None` arguments are left out: the daemon rejects unknown members of
`params` with -32602, and an absent member means "the default" everywhere in
the protocol. Both clients build their requests here, so the sync and async
APIs cannot drift apart.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

from ._contract import METHODS
from .types import (DiffForm, Echo, Updates, InitializationOptions, ItemIn, Path, SearchMode, SearchOrder,
                    SearchScheme, SearchTiebreak, SectionIn, SelectAction, SelectionPolicy, ViewportIn)

Params = Dict[str, Any]


class _Unset:
    """The default of `viewport=`: None is a value there (it removes the viewport), so "not given"
    needs its own marker."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def camel(name: str) -> str:
    """`base_version` -> `baseVersion`: the spec's spelling of a snake_case argument."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def members(method: str, viewport: Optional[ViewportIn] = UNSET, **arguments: Any) -> Params:
    """`method`'s params from snake_case arguments, each under the member name the contract
    (`_contract.METHODS`, generated from protocol/schemas) lists for it. A None argument is left
    out unless its member is required; `viewport` is left out when UNSET and sent as null when None
    (it removes the viewport). A member the contract does not list is a bug of this package: TypeError."""
    contract = METHODS[method]
    params: Params = {}
    for name, value in arguments.items():
        key = camel(name)
        if key not in contract.params:
            raise TypeError(f"{method} takes no member {key!r} (protocol/schemas/{method}.schema.json)")
        if value is not None or key in contract.required:
            params[key] = value
    if viewport is not UNSET:
        if "viewport" not in contract.params:
            raise TypeError(f"{method} takes no member 'viewport' (protocol/schemas/{method}.schema.json)")
        params["viewport"] = dict(viewport) if viewport is not None else None
    return params


def _list(values: Optional[Iterable[Any]]) -> Optional[List[Any]]:
    return list(values) if values is not None else None


def initialize(options: Optional[InitializationOptions]) -> Params:
    return members("initialize", initialization_options=dict(options) if options is not None else None)


def apply(source: str, sections: Iterable[SectionIn], form: Optional[DiffForm],
          base_version: Optional[int], viewport: Optional[ViewportIn] = UNSET,
          echo: Optional[Echo] = None, updates: Optional[Updates] = None) -> Params:
    return members("apply", viewport, source=source, sections=list(sections), base_version=base_version, form=form,
                   echo=echo, updates=updates)


def edit(source: str, ops: Iterable[Mapping[str, Any]], form: Optional[DiffForm],
         base_version: Optional[int], viewport: Optional[ViewportIn] = UNSET,
         echo: Optional[Echo] = None, updates: Optional[Updates] = None) -> Params:
    return members("edit", viewport, source=source, ops=[dict(op) for op in ops], base_version=base_version,
                   form=form, echo=echo, updates=updates)


def select(source: str, action: Optional[SelectAction], ids: Optional[Sequence[str]],
           paths: Optional[Sequence[Path]], sections: Optional[Sequence[str]],
           base_version: Optional[int]) -> Params:
    return members("select", source=source, action=action, ids=_list(ids),
                   paths=[list(p) for p in paths] if paths is not None else None,
                   sections=_list(sections), base_version=base_version)


def set_selection_mode(source: str, sections: Mapping[str, SelectionPolicy]) -> Params:
    return members("setSelectionMode", source=source,
                   sections={name: dict(policy) for name, policy in sections.items()})


def source_only(source: str, method: str = "selection") -> Params:
    """`selection`, `drop`."""
    return members(method, source=source)


def search(source: str, query: str, sections: Optional[Sequence[str]], mode: Optional[SearchMode],
           order: Optional[SearchOrder], limit: Optional[int], placeholder: Optional[ItemIn],
           highlight_limit: Optional[int], form: Optional[DiffForm], base_version: Optional[int],
           viewport: Optional[ViewportIn] = UNSET, scheme: Optional[SearchScheme] = None,
           tiebreak: Optional[Sequence[SearchTiebreak]] = None, fields: Optional[Sequence[str]] = None,
           progressive: Optional[bool] = None) -> Params:
    if isinstance(placeholder, str):  # the spec says "an item": both spellings of one are accepted
        placeholder = {"id": placeholder}
    return members("search", viewport, source=source, query=query, sections=_list(sections), mode=mode, order=order,
                   limit=limit, scheme=scheme, tiebreak=_list(tiebreak), fields=_list(fields),
                   placeholder=dict(placeholder) if placeholder is not None else None,
                   highlight_limit=highlight_limit, form=form, base_version=base_version, progressive=progressive)


def highlights(source: str, section: int, start: Optional[int], count: Optional[int]) -> Params:
    return members("highlights", source=source, section=section, start=start, count=count)


def snapshot(source: str, full: Optional[bool]) -> Params:
    return members("snapshot", source=source, full=full)


def viewport(source: str, start: Optional[int], count: Optional[int], method: str = "viewport") -> Params:
    """`viewport` and `rows` (absent `count`: `viewport` removes the window, `rows` reads 100)."""
    return members(method, source=source, start=start, count=count)


def outline_change(source: str, ids: Sequence[str], recursive: Optional[bool], form: Optional[DiffForm],
                   base_version: Optional[int], method: str = "expand") -> Params:
    """`expand` and `collapse`."""
    if isinstance(ids, str):
        raise TypeError("ids: a sequence of ids, not one string")
    return members(method, source=source, ids=list(ids), recursive=recursive, form=form, base_version=base_version)


def outline(source: str, item_id: str) -> Params:
    return members("outline", source=source, id=item_id)


def snake(name: str) -> str:
    """`setSelectionMode` -> `set_selection_mode`: a method's or member's Python spelling."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def contract_functions(owner: type, *, asynchronous: bool) -> None:
    """Gives `owner` (Client, AsyncClient) a function for every request method of the contract it
    has none of its own for, so a method the daemon gained is callable as `client.<method>(…)` at
    once: its required members positional in the schema's order, the others as keyword arguments
    (snake_case), and `timeout`; the answer is the result as decoded."""
    for method, contract in METHODS.items():
        if contract.kind != "request" or method in ("initialize", "shutdown") or hasattr(owner, snake(method)):
            continue
        setattr(owner, snake(method), _contract_function(method, asynchronous))


def _contract_function(method: str, asynchronous: bool) -> Any:
    positional = [member for member in METHODS[method].required if member != "workDoneToken"]

    def arguments(args: Sequence[Any], options: Dict[str, Any]) -> Params:
        if len(args) != len(positional):
            raise TypeError(f"{snake(method)}() takes {len(positional)} positional argument(s) "
                            f"({', '.join(positional) or 'none'}), got {len(args)}")
        return members(method, **{snake(name): value for name, value in zip(positional, args)}, **options)

    if asynchronous:
        async def call_async(self: Any, *args: Any, timeout: Optional[float] = None, **options: Any) -> Any:
            return await self.request(method, arguments(args, options), timeout=timeout)
        function: Any = call_async
    else:
        def call(self: Any, *args: Any, timeout: Optional[float] = None, **options: Any) -> Any:
            return self.request(method, arguments(args, options), timeout=timeout)
        function = call
    function.__name__ = function.__qualname__ = snake(method)
    function.__doc__ = (f"`{method}` ({', '.join(positional)} positional; see protocol/schemas/{method}.schema.json): "
                        "a function made from the contract, answering the result as decoded.")
    return function

