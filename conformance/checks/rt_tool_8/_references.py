"""The arguments a call sent, read for the character references RT-TOOL-8 ¶4 and ¶5 speak
of: where a string holds one, how deep it sits, whether it is escaped twice, whether a
key holds one, and where text holds none."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping

__all__ = [
    "Arguments",
    "escaped_twice",
    "key_with_reference",
    "plain_text",
    "reference_at",
]

#: ``(declared types, sent arguments)`` of one call.
Arguments = tuple[Mapping[str, object], Mapping[str, object]]

#: A named, decimal or hexadecimal character reference, with its semicolon.
_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def _referenced(text: str) -> bool:
    """Whether ``text`` holds a character reference that decodes to something else."""
    return any(html.unescape(found) != found for found in _REFERENCE.findall(text))


def _leaves(value: object, depth: int = 0) -> Iterator[tuple[str, int]]:
    """Every string leaf below an argument, with its depth (0: the argument itself)."""
    if isinstance(value, str):
        yield value, depth
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _leaves(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, depth + 1)


def _keys(value: object) -> Iterator[str]:
    """Every key of every map in an argument."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def reference_at(nested: bool) -> Callable[[Arguments], bool]:
    """A string leaf holding a character reference: an argument's own value, or a leaf
    nested in a list or map below it."""

    def holds(one: Arguments) -> bool:
        return any(
            (depth > 0) is nested and _referenced(text)
            for value in one[1].values()
            for text, depth in _leaves(value)
        )

    return holds


def escaped_twice(one: Arguments) -> bool:
    """A string leaf that still holds a reference once its references are decoded once."""
    return any(
        _referenced(text) and _referenced(html.unescape(text))
        for value in one[1].values()
        for text, _ in _leaves(value)
    )


def key_with_reference(one: Arguments) -> bool:
    """A key of a map inside the arguments holding a character reference."""
    return any(_referenced(key) for key in _keys(dict(one[1])))


def plain_text(one: Arguments) -> bool:
    """A string leaf holding no character reference."""
    return any(not _referenced(text) for value in one[1].values() for text, _ in _leaves(value))
