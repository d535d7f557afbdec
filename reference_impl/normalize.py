"""RT-TOOL-8: reconcile a model's tool arguments with the tool's declared input schema.

Two independent repairs.  A string argument is decoded as JSON only where the schema
declares that parameter ``array`` or ``object``, the string parses, and the parsed shape
matches the declaration.  Independently, every string leaf has its HTML character
references decoded until the value stops changing (bounded by ``max_passes``).  Keys are
never touched, and text without a character reference comes back unchanged.

JSON decoding runs first, then entity decoding on every leaf of the result; the rule
does not order the two, and no example depends on the order (see docs/reference-runtime.md).
"""

from __future__ import annotations

import html
from collections.abc import Mapping

from adapters.limits import TooDeep, loads

__all__ = ["DEFAULT_MAX_PASSES", "Normalizer"]

DEFAULT_MAX_PASSES = 10


def _declared_types(schema: object, name: str) -> set[str]:
    if not isinstance(schema, Mapping):
        return set()
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return set()
    declared = properties.get(name)
    if not isinstance(declared, Mapping):
        return set()
    kind = declared.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {item for item in kind if isinstance(item, str)}
    return set()


class Normalizer:
    """Applies RT-TOOL-8; subclassed by mutants that break one clause."""

    def __init__(self, max_passes: int = DEFAULT_MAX_PASSES) -> None:
        self.max_passes = max_passes

    def normalize(self, args: object, schema: object) -> object:
        """The arguments the tool will receive."""
        if isinstance(args, Mapping):
            decoded = {
                key: self.decode_json(value, _declared_types(schema, key))
                for key, value in args.items()
            }
            return self.decode_leaves(decoded)
        return self.decode_leaves(args)

    def decode_json(self, value: object, declared: set[str]) -> object:
        """Decode a JSON string only when all three conditions hold."""
        if not isinstance(value, str) or "string" in declared:
            return value
        wanted = declared & {"array", "object"}
        if not wanted:
            return value
        try:
            parsed = self.parse_json(value)
        except (ValueError, TooDeep):
            return value
        if isinstance(parsed, list) and "array" in wanted:
            return parsed
        if isinstance(parsed, dict) and "object" in wanted:
            return parsed
        return value

    def parse_json(self, text: str) -> object:
        """``text`` parsed as strict JSON, held to the protocol's nesting limit (deeper is
        not decoded, as not JSON); raises ``ValueError`` or ``TooDeep`` for text that does
        not parse, which is passed through unmodified (RT-TOOL-8 ¶2-3)."""
        return loads(text)

    def decode_leaves(self, value: object) -> object:
        """Decode character references on every string leaf; keys stay as they are."""
        if isinstance(value, str):
            return self.decode_text(value)
        if isinstance(value, Mapping):
            return {key: self.decode_leaves(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.decode_leaves(item) for item in value]
        return value

    def decode_text(self, text: str) -> str:
        """Unescape until stable, at most ``max_passes`` times."""
        if "&" not in text:
            return text
        for _ in range(self.max_passes):
            decoded = self.unescape(text)
            if decoded == text:
                break
            text = decoded
        return text

    def unescape(self, text: str) -> str:
        """One pass of character-reference decoding: HTML's (RT-TOOL-8 ¶4)."""
        return html.unescape(text)
