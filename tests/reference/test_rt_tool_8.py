"""RT-TOOL-8: a model's tool arguments are normalized against the tool's own schema."""

from __future__ import annotations

import html

import pytest

from reference_impl.normalize import DEFAULT_MAX_PASSES
from reference_impl.workflow import ToolSpec
from tests.reference._support import Record, Rig, call, calls, examples, results, say
from tests.reference.conftest import MakeRig

SENT_TITLE, DECODED_TITLE, SENT_OPS = examples("RT-TOOL-8")

SCHEMA = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "ops": {"type": "array"},
        "options": {"type": "object"},
        "either": {"type": ["array", "object"]},
        "loose": {},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}


def _send(make_rig: MakeRig, args: object) -> tuple[Rig, Record]:
    rig = make_rig(ToolSpec("edit", input_schema=SCHEMA))
    rig.model.push(calls(call("edit", args, "c1")), say("Done."))
    rig.start()
    (only,) = results(rig.runs())
    return rig, only


def _received(make_rig: MakeRig, args: object) -> object:
    rig, _result = _send(make_rig, args)
    (received,) = rig.world.of("edit")
    return received


def test_example_doubly_escaped_title_resolves_fully(make_rig: MakeRig) -> None:
    assert _received(make_rig, SENT_TITLE) == DECODED_TITLE


def test_example_object_literal_for_an_array_is_passed_through(make_rig: MakeRig) -> None:
    assert isinstance(SENT_OPS, dict)
    rig, result = _send(make_rig, SENT_OPS)
    assert rig.runtime.components.node.normalizer.normalize(SENT_OPS, SCHEMA) == SENT_OPS
    # Passed through unmodified, so validation reports the value exactly as it was sent.
    assert rig.world.invocations == []
    assert result["disposition"] == "invalid"
    error = result["result"]["error"]
    assert isinstance(error, str) and repr(SENT_OPS["ops"]) in error


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"ops": '[{"op": "add"}]'}, {"ops": [{"op": "add"}]}),
        ({"options": '{"dry": true}'}, {"options": {"dry": True}}),
        ({"either": "[1]"}, {"either": [1]}),
        ({"either": '{"a": 1}'}, {"either": {"a": 1}}),
        ({"tags": '["a&amp;b"]'}, {"tags": ["a&b"]}),
    ],
)
def test_json_string_decoded_when_declared_parsed_and_shaped(
    make_rig: MakeRig, args: object, expected: object
) -> None:
    assert _received(make_rig, args) == expected


@pytest.mark.parametrize(
    "args",
    [
        {"title": '["a", "b"]'},  # declared string: never decoded
        {"title": '{"a": 1}'},
        {"loose": "[1, 2]"},  # no declared type
        {"undeclared": '{"a": 1}'},
    ],
)
def test_json_string_left_alone_unless_declared_array_or_object(
    make_rig: MakeRig, args: object
) -> None:
    assert _received(make_rig, args) == args


@pytest.mark.parametrize(
    "args",
    [
        {"ops": "[1, 2"},  # does not parse
        {"ops": '{"op": "add"}'},  # parses, wrong shape: never substituted
        {"options": "[1]"},
        {"options": "42"},
    ],
)
def test_a_failed_condition_passes_the_argument_through(
    make_rig: MakeRig, args: dict[str, str]
) -> None:
    rig, result = _send(make_rig, args)
    (value,) = args.values()
    assert rig.world.invocations == []
    assert repr(value) in str(result["result"]["error"])


def test_entities_decoded_on_every_leaf_keys_untouched(make_rig: MakeRig) -> None:
    sent = {"title": "Tom &amp;amp; Jerry", "loose": {"k&amp;v": ["&lt;b&gt;", {"x": "&#233;"}]}}
    assert _received(make_rig, sent) == {
        "title": "Tom & Jerry",
        "loose": {"k&amp;v": ["<b>", {"x": "é"}]},
    }


@pytest.mark.parametrize("text", ["a & b", "50% off", "<b>bold</b>", "AT&T; R&D", "plain"])
def test_text_without_a_character_reference_is_unchanged(make_rig: MakeRig, text: str) -> None:
    assert html.unescape(text) == text  # the premise: no reference in it
    assert _received(make_rig, {"title": text}) == {"title": text}


def test_repeated_until_stable_within_the_bound(make_rig: MakeRig) -> None:
    nested = "&"
    for _ in range(DEFAULT_MAX_PASSES):
        nested = nested.replace("&", "&amp;")
    assert _received(make_rig, {"title": f"x {nested} y"}) == {"title": "x & y"}


def test_non_map_arguments_still_have_their_leaves_decoded(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("edit", input_schema={}))
    rig.model.push(calls(call("edit", ["&amp;amp;", 3], "c1")), say("Done."))
    rig.start()
    assert rig.world.of("edit") == [["&", 3]]
