"""Reading and checking request bodies and query parameters.

Every problem is a :class:`~reference_impl.errors.Refusal` with status 400 (413 for a
body over the limit) whose ``field`` detail names what was wrong, as a dotted path
(``workflow.tools[0].name``); a body that is not JSON at all names no field.  A body is
held to the nesting limit every JSON value rttool reads is held to
(``adapters.limits``), and its text must be Unicode a database can store (no lone
surrogates).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import jsonschema
from starlette.requests import Request

from adapters.limits import TooDeep, loads
from reference_impl.artifacts import Bounds
from reference_impl.errors import Refusal
from reference_impl.workflow import PORT_DEFAULTS, ToolSpec, Workflow

__all__ = [
    "API_BODY_LIMIT",
    "HARNESS_BODY_LIMIT",
    "MAX_LIMIT",
    "bad",
    "dotted",
    "object_body",
    "optional_string",
    "parse_limit",
    "parse_workflow",
    "read_json",
    "required_string",
]

#: Largest accepted body on ``/api`` (a message, an answer, a workflow).
API_BODY_LIMIT = 1024 * 1024
#: Largest accepted body on ``/rttool`` (a whole scenario).
HARNESS_BODY_LIMIT = 16 * 1024 * 1024
#: Largest page the message poll serves.
MAX_LIMIT = 1000
_TOOL_KEYS = ("name", "read_only", "input_schema", "gate", "expose_artifacts_port")
_BOUND_KEYS = ("payload_bytes", "run_artifacts", "run_bytes", "held_artifacts")


def bad(field: str, message: str, code: str = "invalid_field") -> Refusal:
    """A 400 refusal naming ``field``."""
    return Refusal(code, message, status=400, field=field)


#: A field path longer than this is shortened in an error (a deep body makes a long one).
_FIELD_CHARS = 300


def dotted(path: list[object]) -> str:
    """A path of keys and indexes as a dotted field (``workflow.tools[0].name``)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    if len(out) > _FIELD_CHARS:
        out = f"{out[:150]}…{out[-100:]}"
    return out


def _pointer_path(pointer: str) -> list[object]:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    return [int(p) if p.isascii() and p.isdigit() else p for p in parts]


def _broken_text(value: object) -> list[object] | None:
    """The path of the first key or string that holds a lone surrogate, if any."""
    stack: list[tuple[list[object], object]] = [([], value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if not _storable(item):
                return path
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                if not _storable(key):
                    return path
                stack.append(([*path, key], child))
        elif isinstance(item, list):
            stack.extend(
                ([*path, index], child) for index, child in reversed(list(enumerate(item)))
            )
    return None


def _storable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def read_json(request: Request, *, limit: int) -> object:
    """The request's JSON body (``None`` when it is empty), read at most ``limit`` bytes."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refusal("body_too_large", f"the body exceeds {limit} bytes", status=413)
    if not data.strip():
        return None
    try:
        value = loads(bytes(data))
    except TooDeep as err:
        raise Refusal(
            "too_deep", err.complaint, status=400, field=dotted(_pointer_path(err.pointer))
        ) from err
    except ValueError as err:
        raise Refusal("malformed_json", f"the body is not JSON: {err}"[:200], status=400) from err
    broken = _broken_text(value)
    if broken is not None:
        raise Refusal(
            "invalid_text",
            "text holds a lone surrogate, which is not Unicode text",
            status=400,
            field=dotted(broken) or None,
        )
    return value


def object_body(
    value: object, *, allowed: Collection[str], prefix: str = "", empty_ok: bool = False
) -> Mapping[str, object]:
    """``value`` as a JSON object whose keys are all in ``allowed``."""
    if value is None and empty_ok:
        return {}
    if not isinstance(value, dict):
        if prefix:
            raise bad(prefix.rstrip("."), "must be a JSON object")
        raise Refusal("invalid_body", "the body must be a JSON object", status=400)
    for key in value:
        if key not in allowed:
            raise bad(f"{prefix}{key}", f"unknown field {key!r}", code="unknown_field")
    return value


def required_string(body: Mapping[str, object], name: str, *, max_length: int) -> str:
    """A required string field."""
    if name not in body:
        raise bad(name, f"{name} is required", code="missing_field")
    value = optional_string(body, name, max_length=max_length)
    assert value is not None
    return value


def optional_string(body: Mapping[str, object], name: str, *, max_length: int) -> str | None:
    """An optional string field (``None`` when absent)."""
    value = body.get(name)
    if name not in body:
        return None
    if not isinstance(value, str):
        raise bad(name, f"{name} must be a string")
    if len(value) > max_length:
        raise bad(name, f"{name} is longer than {max_length} characters")
    return value


def parse_limit(text: str | None, default: int) -> int:
    """The poll's page size: digits, between 1 and :data:`MAX_LIMIT`."""
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_LIMIT:
        raise bad("limit", f"limit must be an integer from 1 to {MAX_LIMIT}")
    return int(text)


def _flag(value: Mapping[str, object], key: str, where: str) -> bool:
    flag = value.get(key, False)
    if not isinstance(flag, bool):
        raise bad(where, "must be true or false")
    return flag


def _tool(value: object, where: str) -> ToolSpec:
    body = object_body(value, allowed=_TOOL_KEYS, prefix=f"{where}.")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise bad(f"{where}.name", "must be a non-empty string")
    schema = body.get("input_schema", {"type": "object"})
    if not isinstance(schema, dict | bool):
        raise bad(f"{where}.input_schema", "must be a JSON Schema (an object or a boolean)")
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as err:
        raise bad(f"{where}.input_schema", f"not a valid JSON Schema: {err.message}"[:200]) from err
    except RecursionError as err:  # within the body's limit, yet too deep for the checker
        raise bad(f"{where}.input_schema", "nests too deep to be checked") from err
    return ToolSpec(
        name=name,
        read_only=_flag(body, "read_only", f"{where}.read_only"),
        input_schema=schema,
        gate=_flag(body, "gate", f"{where}.gate"),
        expose_artifacts_port=_flag(
            body, "expose_artifacts_port", f"{where}.expose_artifacts_port"
        ),
    )


def _bounds(value: object) -> Bounds:
    body = object_body(value, allowed=_BOUND_KEYS, prefix="workflow.bounds.", empty_ok=True)
    defaults = Bounds()
    chosen: dict[str, int] = {}
    for key in _BOUND_KEYS:
        given = body.get(key, getattr(defaults, key))
        if isinstance(given, bool) or not isinstance(given, int) or given < 1:
            raise bad(f"workflow.bounds.{key}", "must be a positive integer")
        chosen[key] = given
    return Bounds(**chosen)


def parse_workflow(value: object) -> Workflow:
    """A workflow in :meth:`Workflow.to_json` form (every key but ``tools`` optional)."""
    body = object_body(value, allowed=("tools", "expose", "bounds"), prefix="workflow.")
    raw_tools = body.get("tools", [])
    if not isinstance(raw_tools, list):
        raise bad("workflow.tools", "must be a list")
    tools = tuple(_tool(raw, f"workflow.tools[{i}]") for i, raw in enumerate(raw_tools))
    names = [tool.name for tool in tools]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise bad(f"workflow.tools[{index}].name", f"duplicate tool name {name!r}")
    expose = object_body(
        body.get("expose"), allowed=tuple(PORT_DEFAULTS), prefix="workflow.expose.", empty_ok=True
    )
    choices = {port: _flag(expose, port, f"workflow.expose.{port}") for port in expose}
    return Workflow(tools=tools, expose=choices, bounds=_bounds(body.get("bounds")))
