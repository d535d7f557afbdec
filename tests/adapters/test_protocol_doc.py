"""The protocol reference (docs/protocol.md) is what the schemas say, and the schemas say
enough: every field described, every record with a valid example, every default the one
the suite's model applies."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from adapters import handshake as hs
from adapters import scenario as sc
from adapters._doc_render import type_text
from adapters.codec import from_json, schema, to_json, validator
from adapters.protocol_doc import END, ProtocolDocError, main, regenerate
from adapters.trace import PassRecord, StepError, StepRecord

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
FILES = ("messages", "scenario", "trace")
REGENERATE = "python -m adapters.protocol_doc"


def _objects(
    node: object, at: str, *, into_defs: bool = True
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every object schema with ``properties`` under ``node``, with its JSON pointer (the
    definitions' too, unless ``into_defs`` is false)."""
    if isinstance(node, Mapping):
        if isinstance(node.get("properties"), Mapping):
            yield at, node
        for key, value in node.items():
            if key != "examples" and (into_defs or key != "$defs"):
                yield from _objects(value, f"{at}/{key}", into_defs=into_defs)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _objects(value, f"{at}/{index}", into_defs=into_defs)


def _defs(name: str) -> Mapping[str, Any]:
    """The definitions of schema file ``name``."""
    found = schema(name)["$defs"]
    assert isinstance(found, Mapping)
    return found


def _definitions() -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """``(ref, name, definition)`` for every definition, and each file's root object."""
    for name in FILES:
        document = schema(name)
        if "properties" in document:
            yield name, f"{name}.json", document
        for definition, body in _defs(name).items():
            yield f"{name}#/$defs/{definition}", f"{name}.json#{definition}", body


# ------------------------------------------------------------------- the page


def test_the_page_is_what_the_schemas_make() -> None:
    page = PAGE.read_text("utf-8")
    assert regenerate(page) == page, f"docs/protocol.md is out of date: run {REGENERATE}"


def test_the_page_names_the_command_that_regenerates_it() -> None:
    assert REGENERATE in PAGE.read_text("utf-8")


def test_regenerating_keeps_the_prose_and_replaces_the_blocks() -> None:
    page = PAGE.read_text("utf-8")
    opener = "<!-- generated from trace.json: error -->"
    stale = page.replace(opener, f"{opener}\nstale text", 1)
    prose = page.replace("## The error object", "## The error object, edited by hand", 1)
    assert "stale text" not in regenerate(stale)
    assert "edited by hand" in regenerate(prose)
    assert regenerate(stale) == page


@pytest.mark.parametrize(
    ("edit", "complaint"),
    [
        (("trace.json: error -->", "trace.json: error nowhere -->"), "does not have"),
        (("trace.json: error -->", "trace.json: -->"), "exactly once"),
        (("trace.json: error -->", "trace.json: error run -->"), "exactly once"),
        (("trace.json: error -->", "traces.json: error -->"), "unknown schema"),
    ],
)
def test_markers_that_do_not_fit_the_schemas_are_refused(
    edit: tuple[str, str], complaint: str
) -> None:
    page = PAGE.read_text("utf-8").replace(*edit)
    with pytest.raises(ProtocolDocError, match=complaint):
        regenerate(page)


def test_an_unclosed_block_is_refused() -> None:
    page = PAGE.read_text("utf-8")
    last = page.rindex(END)
    with pytest.raises(ProtocolDocError, match="never closed"):
        regenerate(page[:last] + page[last + len(END) :])


def test_the_command_checks_and_rewrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "protocol.md"
    page.write_text(PAGE.read_text("utf-8").replace("### `run`", "### stale", 1), "utf-8")
    assert main([str(page), "--check"]) == 1
    assert REGENERATE in capsys.readouterr().err
    assert main([str(page)]) == 0
    assert page.read_text("utf-8") == PAGE.read_text("utf-8")
    assert main([str(page), "--check"]) == 0
    assert main([str(tmp_path / "missing.md")]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_types_are_said_in_words() -> None:
    assert type_text({"type": ["integer", "null"], "minimum": 1, "maximum": 9}, "x") == (
        "integer, 1 to 9, or null"
    )
    assert type_text({"type": "array", "items": {"$ref": "#/$defs/run"}}, "trace") == (
        "array of [`run`](#trace-run)"
    )
    assert type_text({"$ref": "urn:rttool:adapter-1:scenario"}, "messages") == (
        "[`scenario`](#scenario)"
    )
    assert type_text(True, "x") == "any JSON"


# ------------------------------------------------------------------- the schemas


def test_every_schema_property_has_a_description() -> None:
    undescribed = [
        f"{name}.json{at}/properties/{field}"
        for name in FILES
        for at, node in _objects(schema(name), "")
        for field, body in node["properties"].items()
        if not (isinstance(body, Mapping) and str(body.get("description", "")).strip())
    ]
    assert undescribed == []


def test_every_definition_has_a_description() -> None:
    assert [name for _, name, body in _definitions() if not body.get("description")] == []


def test_every_record_has_an_example() -> None:
    missing = [
        name
        for _, name, body in _definitions()
        if "properties" in body and not body.get("examples")
    ]
    assert missing == []


def test_every_example_is_valid_against_its_own_schema() -> None:
    checked = 0
    for ref, name, body in _definitions():
        for number, example in enumerate(body.get("examples", [])):
            complaints = [error.message for error in validator(ref).iter_errors(example)]
            assert complaints == [], f"{name} example {number}"
            checked += 1
    assert checked >= 40


# Where each default of the schemas is applied by the suite's model: the object (a
# definition, ``root``, or a dotted path to an inline object) and its dataclass.
MODELS: dict[tuple[str, str], type] = {
    ("scenario", "root"): sc.Scenario,
    ("scenario", "tool"): sc.Tool,
    ("scenario", "start_turn"): sc.StartTurn,
    ("scenario", "poll"): sc.Poll,
    ("scenario", "answer"): sc.Answer,
    ("scenario", "decline"): sc.Decline,
    ("scenario", "wait"): sc.Wait,
    ("scenario", "fail_write_back"): sc.FailWriteBack,
    ("scenario", "interrupt"): sc.Interrupt,
    ("scenario", "fail_ledger_read"): sc.FailLedgerRead,
    ("scenario", "emit_late_artifact"): sc.EmitLateArtifact,
    ("messages", "handshake"): hs.Handshake,
    ("messages", "handshake.capabilities"): hs.Capabilities,
    ("messages", "handshake.limits"): hs.Limits,
    ("messages", "handshake.durable_resume"): hs.DurableResume,
    ("messages", "handshake.turn_states"): hs.TurnStates,
    ("trace", "pass"): PassRecord,
}


def _defaults() -> Iterator[tuple[str, str, str, object]]:
    """``(file, object, field, default)`` for every ``default`` in the schemas."""
    for name in FILES:
        document = schema(name)
        roots = [("root", document), *_defs(name).items()]
        for owner, body in roots:
            for at, node in _objects(body, "", into_defs=False):
                path = at.replace("/properties/", ".").lstrip(".")
                where = owner if not path else f"{owner}.{path}"
                for field, spec in node["properties"].items():
                    if isinstance(spec, Mapping) and "default" in spec:
                        yield name, where, field, spec["default"]


def test_every_default_is_the_one_the_model_applies() -> None:
    found = list(_defaults())
    assert len(found) >= 30
    for name, owner, field_name, default in found:
        model = MODELS.get((name, owner))
        assert model is not None, f"{name}.json {owner}.{field_name}: no model applies it"
        (field,) = [f for f in dataclasses.fields(model) if f.name == field_name]
        factory = field.default_factory
        applied = factory() if factory is not dataclasses.MISSING else field.default
        assert to_json(applied) == default, f"{name}.json {owner}.{field_name}"


# ------------------------------------------------------------------- one error object


def test_both_error_objects_are_one_definition() -> None:
    reply = _defs("messages")["error_reply"]["properties"]["error"]
    record = _defs("trace")["step_record"]["properties"]["error"]
    assert reply["$ref"] == "urn:rttool:adapter-1:trace#/$defs/error"
    assert record["$ref"] == "#/$defs/error"


@pytest.mark.parametrize(
    "error", [{"message": "turn t1 is not paused"}, {"code": "not_paused", "message": "no"}]
)
def test_code_is_optional_in_both_places(error: dict[str, str]) -> None:
    record = {
        "index": 0,
        "op": "answer",
        "outcome": "refused",
        "error": error,
        "runs": [],
        "warnings": [],
        "wire": {},
    }
    assert list(validator("messages#/$defs/error_reply").iter_errors({"error": error})) == []
    assert list(validator("messages#/$defs/step_reply").iter_errors(record)) == []
    decoded = from_json(StepRecord, record)
    assert decoded.error == StepError(code=error.get("code"), message=error["message"])
    assert to_json(decoded)["error"] == error  # type: ignore[index]


def test_an_error_still_needs_its_message() -> None:
    assert list(validator("messages#/$defs/error_reply").iter_errors({"error": {"code": "x"}}))
