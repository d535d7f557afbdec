"""Load the published protocol schemas and validate messages in both directions."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from adapters.errors import SchemaViolation, SuiteError

__all__ = ["SCHEMA_FILES", "check_inbound", "check_outbound", "schema", "validator"]

SCHEMA_FILES = ("scenario", "trace", "messages")
_BASE = "urn:rttool:adapter-1:"


@cache
def _registry() -> Registry:
    registry: Registry = Registry()
    for name in SCHEMA_FILES:
        registry = registry.with_resource(_BASE + name, Resource.from_contents(schema(name)))
    return registry


@cache
def schema(name: str) -> dict[str, object]:
    """The parsed schema file ``schemas/<name>.json``."""
    text = resources.files("adapters").joinpath("schemas", f"{name}.json").read_text("utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


@cache
def validator(ref: str) -> Draft202012Validator:
    """A validator for ``ref``: ``scenario``, ``trace`` or ``messages#/$defs/<name>``.

    References are inlined once, here: resolving ``$ref`` on every validation costs more
    than the validation itself, and a trace is validated step by step.
    """
    return Draft202012Validator(_inlined(ref))


def _inlined(ref: str) -> dict[str, Any]:
    inlined = _inline({"$ref": _BASE + ref}, _BASE + ref)
    assert isinstance(inlined, dict)
    return inlined


def _inline(node: object, base: str) -> object:
    """``node`` with every ``$ref`` replaced by the schema it points at (ours are acyclic)."""
    if isinstance(node, list):
        return [_inline(item, base) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = node["$ref"]
        assert isinstance(target, str)
        uri = target if not target.startswith("#") else base.split("#", maxsplit=1)[0] + target
        resolved = _registry().resolver().lookup(uri)
        rest = {k: v for k, v in node.items() if k != "$ref"}
        inner = _inline(resolved.contents, uri)
        if rest and isinstance(inner, dict):
            extra = _inline(rest, base)
            assert isinstance(extra, dict)
            return {**inner, **extra}
        return inner
    return {
        key: _inline(value, base)
        for key, value in node.items()
        if key not in ("$defs", "$id", "$schema")
    }


@cache
def _fast(ref: str) -> Callable[[object], bool] | None:
    """A compiled validity test for ``ref`` (``jsonschema-rs``), when it is installed.

    Only the yes/no answer is taken from it: every complaint, with its JSON pointer, still
    comes from ``jsonschema``, which also decides whenever the two disagree.
    """
    try:
        import jsonschema_rs
    except ImportError:
        return None
    compiled = jsonschema_rs.validator_for(_inlined(ref))
    is_valid: Callable[[object], bool] = compiled.is_valid
    return is_valid


def _first_error(ref: str, value: object) -> ValidationError | None:
    fast = _fast(ref)
    if fast is not None:
        try:
            if fast(value):
                return None
        except (ValueError, TypeError):  # a value it cannot read: let jsonschema judge
            pass
    found: ValidationError | None = best_match(validator(ref).iter_errors(value))
    return found


def _pointer(error: ValidationError) -> str:
    return "".join(
        "/" + str(part).replace("~", "~0").replace("/", "~1") for part in error.absolute_path
    )


def check_inbound(ref: str, value: object, *, implementation: str, request: str) -> None:
    """Validate what an implementation sent; a violation is the implementation's fault."""
    error = _first_error(ref, value)
    if error is not None:
        raise SchemaViolation(
            "implementation broke the protocol schema",
            pointer=_pointer(error),
            complaint=error.message[:300],
            impl=implementation,
            request=request,
        )


def check_outbound(ref: str, value: object) -> None:
    """Validate what the suite is about to send; a violation is the suite's own fault."""
    error = _first_error(ref, value)
    if error is not None:
        raise SuiteError(
            "suite built a message that breaks the protocol schema",
            pointer=_pointer(error) or "/",
            complaint=error.message[:300],
            ref=ref,
        )
