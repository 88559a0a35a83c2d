"""Builders for `edit` ops (protocol/methods/edit.md), so op names and members are checked
by the type checker: `client.edit("list", [ops.insert_items(["kiwi"], before="apple")])`.

Ops that place something take exactly one of `before=` / `after=` (an id).
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Literal, Mapping, Optional

from .types import ItemIn, SectionIn

Op = Dict[str, Any]


def _position(before: Optional[str], after: Optional[str]) -> Dict[str, str]:
    if before is not None and after is None:
        return {"before": before}
    if after is not None and before is None:
        return {"after": after}
    raise ValueError("give exactly one of before= or after=")


def append_sections(sections: Iterable[SectionIn]) -> Op:
    return {"op": "appendSections", "sections": list(sections)}


def insert_sections(sections: Iterable[SectionIn], *, before: Optional[str] = None,
                    after: Optional[str] = None) -> Op:
    return {"op": "insertSections", "sections": list(sections), **_position(before, after)}


def delete_sections(ids: Iterable[str]) -> Op:
    return {"op": "deleteSections", "ids": list(ids)}


def move_section(section_id: str, *, before: Optional[str] = None, after: Optional[str] = None) -> Op:
    return {"op": "moveSection", "id": section_id, **_position(before, after)}


def reload_sections(ids: Iterable[str]) -> Op:
    return {"op": "reloadSections", "ids": list(ids)}


def set_headers(headers: Mapping[str, Any]) -> Op:
    """`{section id: header}`; a None header removes it."""
    return {"op": "setHeaders", "sections": [{"id": sid, "header": header} for sid, header in headers.items()]}


def append_items(items: Iterable[ItemIn], section: Optional[str] = None, *, parent: Optional[str] = None) -> Op:
    """To `section`, or to the last section when None; in an outline, `parent=` appends them as the last
    children of that item (not with `section`). Items may nest (`children`)."""
    if section is not None and parent is not None:
        raise ValueError("give section= or parent=, not both")
    op: Op = {"op": "appendItems", "items": list(items)}
    if section is not None:
        op["section"] = section
    if parent is not None:
        op["parent"] = parent
    return op


def replace_children(parent: str, items: Iterable[ItemIn]) -> Op:
    """Outlines: replaces the children of `parent` (their subtrees are deleted)."""
    return {"op": "replaceChildren", "parent": parent, "items": list(items)}


def expand(ids: Iterable[str], *, recursive: Optional[bool] = None) -> Op:
    """Outlines: as the `expand` method, inside an atomic edit."""
    return {"op": "expand", "ids": list(ids), **({"recursive": recursive} if recursive is not None else {})}


def collapse(ids: Iterable[str], *, recursive: Optional[bool] = None) -> Op:
    """Outlines: as the `collapse` method, inside an atomic edit."""
    return {"op": "collapse", "ids": list(ids), **({"recursive": recursive} if recursive is not None else {})}


def insert_items(items: Iterable[ItemIn], *, before: Optional[str] = None, after: Optional[str] = None) -> Op:
    return {"op": "insertItems", "items": list(items), **_position(before, after)}


def delete_items(ids: Iterable[str]) -> Op:
    return {"op": "deleteItems", "ids": list(ids)}


def delete_all_items() -> Op:
    return {"op": "deleteAllItems"}


def move_item(item_id: str, *, before: Optional[str] = None, after: Optional[str] = None,
              parent: Optional[str] = None) -> Op:
    """Next to `before`/`after` (in an outline with its subtree, re-parented), or with `parent=` to the
    end of that item's children."""
    if parent is not None:
        if before is not None or after is not None:
            raise ValueError("give one of before=, after= or parent=")
        return {"op": "moveItem", "id": item_id, "parent": parent}
    return {"op": "moveItem", "id": item_id, **_position(before, after)}


def reload_items(ids: Iterable[str]) -> Op:
    return {"op": "reloadItems", "ids": list(ids)}


def reconfigure_items(ids: Iterable[str]) -> Op:
    return {"op": "reconfigureItems", "ids": list(ids)}


def patch_content(item_id: str, patch: Iterable[Mapping[str, Any]]) -> Op:
    """An RFC 6902 patch of the item's content as the ops before it left it (protocol/README.md,
    "Field-level updates"), e.g. `[{"op": "replace", "path": "/price", "value": 101.5}]`."""
    return {"op": "patchContent", "id": item_id, "patch": [dict(op) for op in patch]}


def set_content(contents: Mapping[str, Any], style: Optional[Literal["reload", "reconfigure"]] = None) -> Op:
    """`{item id: content}`; a None content removes it. Reported as reloads unless `style="reconfigure"`."""
    op: Op = {"op": "setContent", "items": [{"id": iid, "content": content} for iid, content in contents.items()]}
    if style is not None:
        op["style"] = style
    return op
