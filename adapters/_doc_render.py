"""Markdown for one schema definition: its description, a table of its fields, its examples.

The protocol reference (``docs/protocol.md``) is made of these; :mod:`adapters.protocol_doc`
places them.  Everything shown comes from the schema: ``description`` for meanings,
``default`` for what a field left out means, ``examples`` for the JSON examples, and the
validation keywords for the types and bounds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

__all__ = ["ROOT", "anchor", "compact_json", "render_definition"]

#: The name a generated block uses for a schema file's top-level object.
ROOT = "root"
#: How wide an example's JSON may run before it is spread over several lines.
_WIDTH = 100
_PREFIX = "urn:rttool:adapter-1:"
#: A description's mention of a section of the page it is rendered on.
_ON_THIS_PAGE = re.compile(r"docs/protocol\.md#([a-z0-9-]+)")


def anchor(schema_name: str, definition: str) -> str:
    """The HTML id of a definition's section: ``trace-run``; ``trace`` for the root."""
    return schema_name if definition == ROOT else f"{schema_name}-{definition}"


def compact_json(value: object, indent: int = 0, lead: int = 0) -> str:
    """``value`` as JSON, each array or object on one line where it fits in the width
    (``lead``: how many characters precede it on its first line, after the indent)."""
    inline = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(inline) <= _WIDTH or not isinstance(value, dict | list) or not value:
        return inline
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = json.dumps(key, ensure_ascii=False) + ": "
            items.append(pad + head + compact_json(item, indent + 2, len(head)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact_json(item, indent + 2) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _link(ref: str, schema_name: str) -> str:
    """A ``$ref`` as a Markdown link to the section of the definition it names."""
    if ref.startswith("#/$defs/"):
        target, definition = schema_name, ref.removeprefix("#/$defs/")
    else:
        target, _, fragment = ref.removeprefix(_PREFIX).partition("#")
        definition = fragment.removeprefix("/$defs/") if fragment else ROOT
    shown = target if definition == ROOT else definition
    return f"[`{shown}`](#{anchor(target, definition)})"


def _code(value: object) -> str:
    """A JSON value in a code span: a string bare, anything else as JSON."""
    return f"`{value}`" if isinstance(value, str) else f"`{json.dumps(value)}`"


def _range(low: object, high: object, unit: str) -> str:
    if low is not None and high is not None:
        return f", {low} to {high}{unit}"
    if low == 1 and unit:
        return ", not empty"
    if low is not None:
        return f", at least {low}{unit}"
    return f", at most {high}{unit}" if high is not None else ""


def _array(schema: Mapping[str, object], schema_name: str) -> str:
    items = schema.get("items", True)
    text = "array" if items is True else f"array of {type_text(items, schema_name)}"
    text += _range(schema.get("minItems"), schema.get("maxItems"), " items")
    return text + (", no duplicates" if schema.get("uniqueItems") else "")


def _object(schema: Mapping[str, object], schema_name: str) -> str:
    if "properties" in schema:
        return "object"
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping):
        return f"map of string to {type_text(extra, schema_name)}"
    return "empty object `{}`" if schema.get("maxProperties") == 0 else "object"


def type_text(schema: object, schema_name: str) -> str:
    """What values ``schema`` accepts, in words, with links to the definitions it names."""
    if not isinstance(schema, Mapping):
        return "any JSON" if schema is True else "nothing"
    if "$ref" in schema:
        return _link(str(schema["$ref"]), schema_name)
    if "const" in schema:
        return _code(schema["const"])
    if "enum" in schema:
        values = schema["enum"]
        assert isinstance(values, list)
        return "one of " + ", ".join(_code(value) for value in values)
    if "oneOf" in schema:
        choices = schema["oneOf"]
        assert isinstance(choices, list)
        return "one of " + ", ".join(type_text(choice, schema_name) for choice in choices)
    declared = schema.get("type")
    kinds = declared if isinstance(declared, list) else [declared] if declared else []
    words = []
    for kind in kinds:
        if kind == "string":
            low, high = schema.get("minLength"), schema.get("maxLength")
            words.append("string" + _range(low, high, " characters"))
        elif kind == "integer":
            words.append("integer" + _range(schema.get("minimum"), schema.get("maximum"), ""))
        elif kind == "array":
            words.append(_array(schema, schema_name))
        elif kind == "object":
            words.append(_object(schema, schema_name))
        else:
            words.append(str(kind))
    return ", or ".join(words) if words else "any JSON"


def _linked(text: str) -> str:
    """``text`` with each mention of a section of this page made a link to it."""
    return _ON_THIS_PAGE.sub(lambda found: f"[{found[0]}](#{found[1]})", text)


def _cell(text: str) -> str:
    return _linked(text).replace("|", "\\|").replace("\n", " ")


def _rows(schema: Mapping[str, object], schema_name: str, prefix: str) -> list[str]:
    """Table rows for the fields of ``schema``, nested fields after their parent."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return []
    required = schema.get("required", [])
    assert isinstance(required, list)
    rows: list[str] = []
    for name, body in properties.items():
        field = body if isinstance(body, Mapping) else {}
        meaning = str(field.get("description", ""))
        if "default" in field:
            meaning += f" Default: {_code(field['default'])}."
        needed = "required" if name in required else "optional"
        shown = type_text(field, schema_name)
        rows.append(f"| `{prefix}{name}` | {needed} | {_cell(shown)} | {_cell(meaning)} |")
        rows += _rows(field, schema_name, f"{prefix}{name}.")
        items = field.get("items")
        if isinstance(items, Mapping):
            rows += _rows(items, schema_name, f"{prefix}{name}[].")
    return rows


def render_definition(schema_name: str, definition: str, schema: Mapping[str, object]) -> str:
    """The Markdown section of one definition (``ROOT`` for the file's top-level object)."""
    title = f"`{schema_name}.json`" if definition == ROOT else f"`{definition}`"
    pointer = "" if definition == ROOT else f"#/$defs/{definition}"
    out = [
        f'<a id="{anchor(schema_name, definition)}"></a>',
        f"### {title}",
        "",
        f"Schema: `{schema_name}.json{pointer}`.",
        "",
    ]
    if "description" in schema:
        out += [_linked(str(schema["description"])), ""]
    rows = _rows(schema, schema_name, "")
    if rows:
        out += ["| field | required | type | meaning |", "| --- | --- | --- | --- |", *rows, ""]
    if "oneOf" in schema or not rows:
        out += [f"Type: {type_text(schema, schema_name)}.", ""]
    examples = schema.get("examples", [])
    assert isinstance(examples, Sequence)
    if examples:
        out += ["Example:" if len(examples) == 1 else "Examples:", ""]
        for example in examples:
            out += ["```json", compact_json(example), "```", ""]
    return "\n".join(out)
