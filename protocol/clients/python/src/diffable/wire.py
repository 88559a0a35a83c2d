"""Message framing shared by the sync and async clients.

The client writes either LSP `Content-Length` framing (default) or
newline-delimited JSON; the daemon answers in the framing it was spoken to
(protocol/README.md "Transport"). Reading is done by each client with its own
I/O (blocking file or asyncio stream) through the small parsers below.
"""
from __future__ import annotations

import json
from typing import Any, Literal, Optional, Union

Framing = Literal["content-length", "newline"]
FRAMINGS: tuple[Framing, ...] = ("content-length", "newline")

JsonObject = dict[str, Any]
Message = Union[JsonObject, list[Any]]


class FramingError(ValueError):
    """The peer wrote something that is not a message in the session's framing."""


def encode(message: Message, framing: Framing) -> bytes:
    # Compact, and non-ASCII kept as UTF-8: the daemon echoes content in compact form.
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if framing == "newline":
        return body + b"\n"  # json.dumps never writes a raw newline inside a message
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def content_length(header_lines: list[bytes]) -> int:
    """The body length named by a header block (names case-insensitive, any order)."""
    length: Optional[int] = None
    for line in header_lines:
        name, separator, value = line.decode("ascii", "replace").partition(":")
        if not separator:
            raise FramingError(f"malformed header line {line!r}")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise FramingError(f"bad Content-Length {value.strip()!r}") from None
    if length is None or length < 0:
        raise FramingError(f"header block without Content-Length: {header_lines!r}")
    return length


def decode_body(body: bytes) -> Message:
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FramingError(f"body is not UTF-8 JSON ({error}): {body[:200]!r}") from None
    if not isinstance(message, (dict, list)):
        raise FramingError(f"message is neither an object nor a batch: {body[:200]!r}")
    return message
