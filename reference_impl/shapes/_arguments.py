"""Shapes of how a runtime repairs (or does not repair) a model's tool arguments
(RT-TOOL-8)."""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.behaviour import Components
from reference_impl.normalize import Normalizer
from reference_impl.passes import ToolNode
from reference_impl.shapes._model import Shape

__all__ = ["SHAPES"]

#: The literals a lenient runtime reads as booleans and null, whatever the schema says.
LITERALS: Mapping[str, object] = {
    "true": True,
    "True": True,
    "false": False,
    "False": False,
    "null": None,
    "None": None,
}


class _CoercesLiterals(Normalizer):
    """After the rule's two repairs, reads an argument that is exactly one of
    :data:`LITERALS` as the boolean or null it spells, whatever type the parameter is
    declared."""

    def normalize(self, args: object, schema: object) -> object:
        repaired = super().normalize(args, schema)
        if not isinstance(repaired, Mapping):
            return repaired
        return {
            key: LITERALS[value] if isinstance(value, str) and value in LITERALS else value
            for key, value in repaired.items()
        }


class _NoJsonDecoding(Normalizer):
    """Never decodes a JSON text, whatever the schema declares (references still are)."""

    def decode_json(self, value: object, declared: set[str]) -> object:
        return value


class _NoReferenceDecoding(Normalizer):
    """Never decodes a character reference (JSON texts still are, where the schema says)."""

    def decode_text(self, text: str) -> str:
        return text


def _normalizer(normalizer: type[Normalizer]) -> Components:
    return Components(node=ToolNode(normalizer=normalizer()))


_NOT_RECONCILED = (
    "LangGraph",
    "PydanticAI",
    "ADK (each hands a tool the arguments as the model sent them)",
)

SHAPES: tuple[Shape, ...] = (
    Shape(
        "string-literals-coerced",
        "gap",
        'an argument that is exactly "true", "false", "null" (or "True", "False", "None") '
        "reaches the tool as a boolean or null, even for a parameter declared string",
        (),
        ("RT-TOOL-8#c3",),
        'breaks "A parameter declared `string` is never decoded, and a parsed value of the '
        "wrong shape is never substituted; an argument that fails any of the three is "
        'passed through unmodified" (RT-TOOL-8 ¶3): "true" is a string the schema does not '
        "declare array or object, so it must reach the tool unmodified. (¶2's \"only where "
        'all three hold" and ¶5\'s "text containing no character reference is returned '
        'unchanged" say the same of this value; ¶3 is the clause that forbids it)',
        lambda: _normalizer(_CoercesLiterals),
    ),
    Shape(
        "no-json-text-decoding",
        "gap",
        "a JSON text sent for a parameter declared array or object reaches the tool as the "
        "string it is; character references are still decoded",
        _NOT_RECONCILED,
        ("RT-TOOL-8#c2",),
        'breaks "A string argument is decoded as JSON only where all three hold: the schema '
        "declares that parameter `array` or `object`, the string parses as JSON, and the "
        'parsed shape matches" (RT-TOOL-8 ¶2), read with the rule\'s example ("What reaches '
        'the tool")',
        lambda: _normalizer(_NoJsonDecoding),
    ),
    Shape(
        "no-reference-decoding",
        "gap",
        "character references in an argument reach the tool as they were sent; JSON texts "
        "are still decoded where the schema says",
        _NOT_RECONCILED,
        ("RT-TOOL-8#c4",),
        'breaks "every string leaf of an argument has its HTML character references '
        'decoded, repeated until the value stops changing" (RT-TOOL-8 ¶4)',
        lambda: _normalizer(_NoReferenceDecoding),
    ),
)
