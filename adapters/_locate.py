"""Where, in JSON text that failed to load, the problem is: the first container nested
past a depth, or the first key an object gives twice, as a JSON pointer.

Used only after the parser has failed (it stops far below any useful depth, and does not
say where a key repeats), so its cost, linear in the text, is paid only then.
"""

from __future__ import annotations

import json
import re

__all__ = ["json_pointer", "locate"]


def json_pointer(parts: list[object] | tuple[object, ...]) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indexes."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


# A JSON string (with its escapes) or one structural character; numbers and literals
# need no token to locate a container or a key.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]', re.DOTALL)


class _Frame:
    __slots__ = ("is_object", "keys", "position")

    def __init__(self, is_object: bool) -> None:
        self.is_object = is_object
        self.position: object = "" if is_object else 0
        self.keys: set[str] = set()


class _Scan:
    """Locates, in JSON text that failed to load, the first container past the limit or
    the first key given twice, as ``(pointer, key)``.  Linear in the text, and only
    ever run after a failure."""

    def __init__(self, text: str) -> None:
        self._text = text

    def first(self, *, limit: int | None, duplicates: bool) -> tuple[str, str] | None:
        frames: list[_Frame] = []
        last = ""
        for match in _TOKEN.finditer(self._text):
            token = match.group()
            mark = token[0]
            if mark == '"':
                last = token
            elif mark in "[{":
                if limit is not None and len(frames) >= limit:
                    return json_pointer([frame.position for frame in frames]), ""
                frames.append(_Frame(mark == "{"))
            elif mark in "]}":
                if frames:
                    frames.pop()
            elif not frames:
                continue
            elif mark == ":" and frames[-1].is_object:
                key = _string(last)
                frames[-1].position = key
                if duplicates and key in frames[-1].keys:
                    return json_pointer([frame.position for frame in frames]), key
                frames[-1].keys.add(key)
            elif mark == "," and not frames[-1].is_object:
                position = frames[-1].position
                frames[-1].position = position + 1 if isinstance(position, int) else 0
        return None


def _string(token: str) -> str:
    try:
        decoded = json.loads(token)
    except ValueError:
        return token[1:-1]
    return decoded if isinstance(decoded, str) else token[1:-1]


def locate(
    text: str, *, deeper_than: int | None = None, duplicates: bool = False
) -> tuple[str, str] | None:
    """``(pointer, key)`` of the first container nested deeper than ``deeper_than``, or
    of the first key given twice in one object (``duplicates``); ``None`` if neither."""
    return _Scan(text).first(limit=deeper_than, duplicates=duplicates)
