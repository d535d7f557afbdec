"""Encode requests and decode replies for the byte-carrying transports (stdio, HTTP).

Both transports carry the same thing: one JSON object per message, UTF-8.  A request is
encoded as ASCII-only JSON on one line, so that no line splitter on the other side
(whatever it treats as a line end) can cut it.  A reply must be one JSON object;
anything else is the implementation's fault and is reported with a short, escaped
excerpt of what arrived.
"""

from __future__ import annotations

import json

from adapters.errors import BadJson, SchemaViolation, SuiteError
from adapters.limits import DuplicateKey, TooDeep, loads
from adapters.protocol import Message

__all__ = ["EXCERPT_CHARS", "decode_reply", "encode_request", "excerpt"]

#: How much of a bad reply an error message quotes.
EXCERPT_CHARS = 120


def encode_request(message: Message) -> bytes:
    """``message`` as compact, ASCII-only JSON (no trailing newline)."""
    try:
        text = json.dumps(message, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as err:
        # The driver validates what it sends, so this is the suite's own bug.
        raise SuiteError("suite built a message that is not JSON", reason=str(err)[:200]) from err
    return text.encode("ascii")


def excerpt(data: bytes | str, limit: int = EXCERPT_CHARS) -> str:
    """The first ``limit`` characters of ``data``, decoded leniently.

    The result is escaped when rendered in an error message (see ``adapters.errors``).
    """
    if isinstance(data, bytes):
        # Decode a little more than needed: a UTF-8 character is at most four bytes.
        data = data[: limit * 4].decode("utf-8", errors="replace")
    return data[:limit]


def decode_reply(data: bytes, *, impl: str, **details: object) -> Message:
    """Parse one reply; :class:`BadJson` unless it is a JSON object.

    ``NaN``, ``Infinity`` and numbers too large to be finite, which Python's parser
    would accept, are refused: they are not JSON and another implementation's client
    would choke on them.  A reply nested deeper than ``adapters.limits.MAX_DEPTH``, or
    an object in it that gives a key twice, breaks the protocol
    (:class:`SchemaViolation`, with the JSON pointer).
    """
    try:
        decoded: object = loads(data, unique_keys=True)
    except (TooDeep, DuplicateKey) as err:
        raise SchemaViolation(
            "implementation reply breaks the protocol",
            pointer=err.pointer,
            complaint=err.complaint,
            impl=impl,
            **details,
        ) from err
    except ValueError as err:
        # UnicodeDecodeError and JSONDecodeError are both ValueErrors.
        raise BadJson(
            "implementation replied with something that is not JSON",
            impl=impl,
            **details,
            reason=str(err)[:120],
            start=excerpt(data),
        ) from err
    if not isinstance(decoded, dict):
        raise BadJson(
            "implementation reply is not a JSON object",
            impl=impl,
            **details,
            got=type(decoded).__name__,
            start=excerpt(data),
        )
    return decoded
