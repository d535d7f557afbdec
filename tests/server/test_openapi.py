"""The OpenAPI document: served equals docs/openapi.json, well formed, complete.

openapi-spec-validator is not a dependency of the project (and is not added for this),
so the document is checked against a minimal structural schema, every ``$ref`` is
resolved, and every component schema is checked against the JSON Schema 2020-12
meta-schema (OpenAPI 3.1 schemas are JSON Schema 2020-12).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import jsonschema
import pytest
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route

from reference_impl.server import openapi_document

DOC_FILE = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
REGENERATE = "python -m reference_impl.server --print-openapi > docs/openapi.json"
_METHODS = ("get", "post", "put", "patch", "delete")

# Just enough of OpenAPI 3.1 to catch a malformed document without the official schema.
_MINIMAL = {
    "type": "object",
    "required": ["openapi", "info", "paths"],
    "properties": {
        "openapi": {"type": "string", "pattern": r"^3\.1\.\d+$"},
        "info": {
            "type": "object",
            "required": ["title", "version"],
            "properties": {"title": {"type": "string"}, "version": {"type": "string"}},
        },
        "paths": {
            "type": "object",
            "propertyNames": {"pattern": "^/"},
            "additionalProperties": {"$ref": "#/$defs/pathItem"},
        },
        "components": {
            "type": "object",
            "properties": {
                "schemas": {"type": "object"},
                "parameters": {"type": "object"},
                "responses": {"type": "object"},
                "securitySchemes": {"type": "object"},
            },
        },
        "security": {"type": "array", "items": {"type": "object"}},
    },
    "$defs": {
        "pathItem": {
            "type": "object",
            "propertyNames": {"enum": list(_METHODS)},
            "additionalProperties": {"$ref": "#/$defs/operation"},
        },
        "operation": {
            "type": "object",
            "required": ["operationId", "responses"],
            "properties": {
                "operationId": {"type": "string"},
                "parameters": {"type": "array", "items": {"type": "object"}},
                "requestBody": {"type": "object", "required": ["content"]},
                "responses": {
                    "type": "object",
                    "minProperties": 1,
                    "propertyNames": {"pattern": "^[1-5][0-9][0-9]$"},
                },
            },
        },
    },
}


def _refs(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                yield item
            else:
                yield from _refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _refs(item)


def _resolve(document: dict, ref: str) -> object:
    assert ref.startswith("#/"), ref
    node: object = document
    for part in ref[2:].split("/"):
        assert isinstance(node, dict) and part in node, f"unresolved $ref {ref}"
        node = node[part]
    return node


def _served_routes(routes: list[BaseRoute], prefix: str = "") -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for route in routes:
        if isinstance(route, Mount):
            found |= _served_routes(list(route.routes), prefix + route.path)
        elif isinstance(route, Route):
            found |= {(prefix + route.path, m.lower()) for m in route.methods or () if m != "HEAD"}
    return found


@pytest.mark.anyio
async def test_the_served_document_equals_the_file(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.json() == json.loads(DOC_FILE.read_text("utf-8")), (
        f"docs/openapi.json is stale; regenerate it: {REGENERATE}"
    )


def test_the_document_is_well_formed() -> None:
    document = openapi_document()
    jsonschema.Draft202012Validator(_MINIMAL).validate(document)
    for ref in _refs(document):
        _resolve(document, ref)
    for schema in document["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)
    operation_ids = [
        op["operationId"] for item in document["paths"].values() for op in item.values()
    ]
    assert len(operation_ids) == len(set(operation_ids))


def test_every_path_parameter_is_declared() -> None:
    document = openapi_document()
    for path, item in document["paths"].items():
        in_path = set(re.findall(r"\{(\w+)\}", path))
        for operation in item.values():
            params = [
                _resolve(document, p["$ref"]) if "$ref" in p else p
                for p in operation.get("parameters", [])
            ]
            declared = {p["name"] for p in params if p["in"] == "path"}
            assert declared == in_path, path
            assert all(p["required"] for p in params if p["in"] == "path")


def test_every_served_route_is_documented_and_nothing_more(app: Starlette) -> None:
    documented = {
        (path, method) for path, item in openapi_document()["paths"].items() for method in item
    }
    assert _served_routes(list(app.routes)) == documented
