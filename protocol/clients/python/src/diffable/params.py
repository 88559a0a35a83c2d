"""Params of every method, built from Python arguments.

Only members the spec documents are sent, in its camelCase spelling, and
`None` arguments are left out: the daemon rejects unknown members of
`params` with -32602, and an absent member means "the default" everywhere in
the protocol. Both clients build their requests here, so the sync and async
APIs cannot drift apart.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Mapping, Optional, Sequence

from .types import (DiffForm, Echo, Updates, InitializationOptions, ItemIn, Path, SearchMode, SearchOrder,
                    SearchScheme, SearchTiebreak, SectionIn, SelectAction, SelectionPolicy, ViewportIn)

Params = Dict[str, Any]


def present(**members: Any) -> Params:
    """The members whose value is not None."""
    return {name: value for name, value in members.items() if value is not None}


class _Unset:
    """The default of `viewport=`: None is a value there (it removes the viewport), so "not given"
    needs its own marker."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def viewport_member(viewport: Optional[ViewportIn]) -> Params:
    """`{"viewport": ...}` when given (None is sent as null: it removes the viewport), else nothing."""
    if viewport is UNSET:
        return {}
    return {"viewport": dict(viewport) if viewport is not None else None}


def initialize(options: Optional[InitializationOptions]) -> Params:
    return present(initializationOptions=dict(options) if options is not None else None)


def apply(source: str, sections: Iterable[SectionIn], form: Optional[DiffForm],
          base_version: Optional[int], viewport: Optional[ViewportIn] = UNSET,
          echo: Optional[Echo] = None, updates: Optional[Updates] = None) -> Params:
    return {"source": source, "sections": list(sections),
            **present(baseVersion=base_version, form=form, echo=echo, updates=updates), **viewport_member(viewport)}


def edit(source: str, ops: Iterable[Mapping[str, Any]], form: Optional[DiffForm],
         base_version: Optional[int], viewport: Optional[ViewportIn] = UNSET,
         echo: Optional[Echo] = None, updates: Optional[Updates] = None) -> Params:
    return {"source": source, "ops": [dict(op) for op in ops],
            **present(baseVersion=base_version, form=form, echo=echo, updates=updates), **viewport_member(viewport)}


def select(source: str, action: Optional[SelectAction], ids: Optional[Sequence[str]],
           paths: Optional[Sequence[Path]], sections: Optional[Sequence[str]],
           base_version: Optional[int]) -> Params:
    return {"source": source, **present(
        action=action, ids=list(ids) if ids is not None else None,
        paths=[list(p) for p in paths] if paths is not None else None,
        sections=list(sections) if sections is not None else None, baseVersion=base_version)}


def set_selection_mode(source: str, sections: Mapping[str, SelectionPolicy]) -> Params:
    return {"source": source, "sections": {name: dict(policy) for name, policy in sections.items()}}


def source_only(source: str) -> Params:
    """`selection`, `drop`."""
    return {"source": source}


def search(source: str, query: str, sections: Optional[Sequence[str]], mode: Optional[SearchMode],
           order: Optional[SearchOrder], limit: Optional[int], placeholder: Optional[ItemIn],
           highlight_limit: Optional[int], form: Optional[DiffForm], base_version: Optional[int],
           viewport: Optional[ViewportIn] = UNSET, scheme: Optional[SearchScheme] = None,
           tiebreak: Optional[Sequence[SearchTiebreak]] = None, fields: Optional[Sequence[str]] = None) -> Params:
    if isinstance(placeholder, str):  # the spec says "an item": both spellings of one are accepted
        placeholder = {"id": placeholder}
    return {"source": source, "query": query, **present(
        sections=list(sections) if sections is not None else None, mode=mode, order=order, limit=limit,
        scheme=scheme, tiebreak=list(tiebreak) if tiebreak is not None else None,
        fields=list(fields) if fields is not None else None,
        placeholder=dict(placeholder) if placeholder is not None else None,
        highlightLimit=highlight_limit, form=form, baseVersion=base_version), **viewport_member(viewport)}


def highlights(source: str, section: int, start: Optional[int], count: Optional[int]) -> Params:
    return {"source": source, "section": section, **present(start=start, count=count)}


def snapshot(source: str, full: Optional[bool]) -> Params:
    return {"source": source, **present(full=full)}


def viewport(source: str, start: Optional[int], count: Optional[int]) -> Params:
    """`viewport` and `rows` (absent `count`: `viewport` removes the window, `rows` reads 100)."""
    return {"source": source, **present(start=start, count=count)}


def outline_change(source: str, ids: Sequence[str], recursive: Optional[bool], form: Optional[DiffForm],
                   base_version: Optional[int]) -> Params:
    """`expand` and `collapse`."""
    if isinstance(ids, str):
        raise TypeError("ids: a sequence of ids, not one string")
    return {"source": source, "ids": list(ids), **present(recursive=recursive, form=form, baseVersion=base_version)}


def outline(source: str, item_id: str) -> Params:
    return {"source": source, "id": item_id}
