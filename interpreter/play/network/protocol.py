"""The wire format between a table's host and its clients: length-prefixed JSON objects.

Each message is a 4-byte big-endian length, then that many bytes of UTF-8 JSON holding one object
with a text `type`. The length is checked before anything is read: a peer announcing more than the
reader accepts is refused at once, so a 100 MB header costs nothing. A message whose body does not
arrive in time, or that is not such an object, is a ProtocolError: the reader drops the peer.
"""

from __future__ import annotations

import asyncio
import json
import struct
from typing import Any

VERSION = 2
HEADER = struct.Struct(">I")
# What a client may send is tiny (a code, an option id); what the host sends holds a screen.
MAX_FROM_CLIENT = 16 * 1024
MAX_FROM_HOST = 4 * 1024 * 1024
# Once a message has begun, the rest of it must follow within this many seconds.
BODY_TIMEOUT = 10.0


class ProtocolError(Exception):
    """The peer sent something that is not a message of this protocol; the text says what, on one line."""


class Closed(Exception):
    """The peer closed the connection between two messages."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as bytes on the wire."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return HEADER.pack(len(body)) + body


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"'{name}' is not allowed")


def decode(body: bytes) -> dict[str, Any]:
    """The message in `body`; ProtocolError when it is not a JSON object with a text `type`."""
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ProtocolError(f"not a message ({type(err).__name__})") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("not a message (an object with a text 'type' is expected)")
    return data


async def read_message(reader: asyncio.StreamReader, limit: int, timeout: float | None = None,
                       body_timeout: float = BODY_TIMEOUT) -> dict[str, Any]:
    """The next message, waiting at most `timeout` seconds for it to begin (None: forever).

    Raises Closed at a clean end between messages, ProtocolError for anything else that is wrong
    (too long, cut short, late, not JSON), asyncio.TimeoutError when nothing began in time.
    """
    try:
        head = await asyncio.wait_for(reader.readexactly(HEADER.size), timeout)
    except asyncio.IncompleteReadError as err:
        if err.partial:
            raise ProtocolError("connection closed inside a message") from None
        raise Closed() from None
    (size,) = HEADER.unpack(head)
    if size > limit:
        raise ProtocolError(f"a message of {size} bytes announced, {limit} at most")
    try:
        body = await asyncio.wait_for(reader.readexactly(size), body_timeout)
    except asyncio.IncompleteReadError:
        raise ProtocolError("connection closed inside a message") from None
    except asyncio.TimeoutError:
        raise ProtocolError(f"a message was not finished within {body_timeout:g} s") from None
    return decode(body)


def text_field(message: dict[str, Any], key: str, limit: int = 200) -> str | None:
    """A text field of a received message, or None when it is missing, not text or too long."""
    value = message.get(key)
    return value if isinstance(value, str) and len(value) <= limit else None


def int_field(message: dict[str, Any], key: str) -> int | None:
    """A whole-number field of a received message, or None."""
    value = message.get(key)
    return value if type(value) is int else None
