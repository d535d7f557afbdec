"""JSON values an implementation sent, read without trusting their shape.

Every value in a trace is untrusted JSON: these accessors answer with an empty value
where the shape is not the one asked for, so that a check reports the problem instead of
crashing on it.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["array", "mapping", "string_values"]


def mapping(value: object) -> Mapping[str, object]:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def array(value: object) -> list[object]:
    """``value`` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def string_values(value: object) -> list[str]:
    """The string values (not the keys) inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in string_values(item)]
    if isinstance(value, list):
        return [text for item in value for text in string_values(item)]
    return []
