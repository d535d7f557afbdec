"""RT-TOOL-10: a tool-calling pass reports whether it did any work."""

from __future__ import annotations

import pytest

from reference_impl.workflow import ModelReply, ToolSpec
from tests.reference._support import PERMISSIVE, Record, Rig, call, calls, examples, say
from tests.reference.conftest import MakeRig

RESENT, IDLE, MIXED_BATCH, ACTIVE = examples("RT-TOOL-10")


def _rig(make_rig: MakeRig) -> Rig:
    return make_rig(
        ToolSpec("do_thing", input_schema=PERMISSIVE),
        ToolSpec("other_thing", input_schema=PERMISSIVE),
    )


def _passes(rig: Rig, *replies: ModelReply) -> list[Record]:
    rig.model.push(*replies, say("Done."))
    rig.start()
    (run,) = rig.runs()
    passes = run["passes"]
    assert isinstance(passes, list)
    return passes


def _batch(example: object) -> tuple[object, ...]:
    assert isinstance(example, dict)
    return tuple(example["tool_calls"])


def test_example_a_repeat_pass_is_idle(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    first, repeat = _passes(rig, calls(*_batch(RESENT)), calls(*_batch(RESENT)))
    assert first["ports"]["executed_any"] is True
    assert repeat["ports"]["executed_any"] is IDLE
    # Every other port looks like work: a skip, a successful outcome, tool messages.
    assert repeat["ports"]["executed"] == []
    assert repeat["ports"]["skipped"] == ["call_a"]
    assert repeat["outcome"] == {"succeeded": 1, "failed": 0}
    assert repeat["tool_messages"] == first["tool_messages"] != []
    assert rig.world.of("do_thing") == [[]]


def test_example_the_mixed_pass_executes_only_the_new_call(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    _first, repeat, mixed = _passes(
        rig, calls(*_batch(RESENT)), calls(*_batch(RESENT)), calls(*_batch(MIXED_BATCH))
    )
    assert mixed["ports"]["executed"] == ACTIVE
    assert mixed["ports"]["executed_any"] is True
    # skipped, the outcome and the tool messages look alike on both passes.
    for record in (repeat, mixed):
        assert record["ports"]["skipped"] == ["call_a"]
        assert record["outcome"]["failed"] == 0
        assert record["tool_messages"]
    assert rig.world.of("do_thing") == [[]] and rig.world.of("other_thing") == [[]]


def test_an_unwired_tool_counts_as_work(make_rig: MakeRig) -> None:
    (record,) = _passes(_rig(make_rig), calls(call("nowhere", {}, "c9")))
    assert record["ports"] == {
        "tool_artifacts": [],
        "executed_any": True,
        "executed": ["c9"],
        "skipped": [],
    }
    (result,) = record["results"]
    assert result["disposition"] == "unknown_tool"
    assert result["result"] == {
        "success": False,
        "data": None,
        "error": "'nowhere' is not an available tool",
    }


def test_an_empty_batch_reports_false(make_rig: MakeRig) -> None:
    (record,) = _passes(_rig(make_rig), calls())
    assert record["ports"] == {
        "tool_artifacts": [],
        "executed_any": False,
        "executed": [],
        "skipped": [],
    }


def test_a_call_without_an_identifier_sets_executed_any_only(make_rig: MakeRig) -> None:
    (record,) = _passes(_rig(make_rig), calls(call("do_thing", [])))
    assert record["ports"]["executed_any"] is True
    assert record["ports"]["executed"] == [] and record["ports"]["skipped"] == []


@pytest.mark.parametrize(
    "malformed",
    [
        "do_thing",
        ["do_thing"],
        None,
        {"name": "", "tool_call_id": "m1"},
        {"name": "   ", "tool_call_id": "m2"},
        {"name": ["do_thing"], "tool_call_id": "m3"},
        {"name": {"n": 1}, "tool_call_id": "m4"},
        {"name": True, "tool_call_id": "m5"},
        {"name": None, "tool_call_id": "m6"},
        {"args": {}, "tool_call_id": "m7"},
    ],
)
def test_a_malformed_call_is_dropped_before_the_guard(make_rig: MakeRig, malformed: object) -> None:
    rig = _rig(make_rig)
    (record,) = _passes(rig, calls(malformed))
    assert record["ports"] == {
        "tool_artifacts": [],
        "executed_any": False,
        "executed": [],
        "skipped": [],
    }
    assert record["results"] == [] and record["tool_messages"] == []
    assert rig.world.invocations == []


def test_a_malformed_call_beside_real_ones_changes_nothing(make_rig: MakeRig) -> None:
    (record,) = _passes(
        _rig(make_rig),
        calls("junk", call("do_thing", [], "c1"), {"name": " "}, call("other_thing", [])),
    )
    assert record["ports"]["executed"] == ["c1"]
    assert record["ports"]["executed_any"] is True
    assert [r["tool"] for r in record["results"]] == ["do_thing", "other_thing"]


def test_executed_any_is_exposed_by_default_and_executed_is_not(make_rig: MakeRig) -> None:
    (record,) = _passes(_rig(make_rig), calls(call("do_thing", [], "c1")))
    exposed = record["exposed"]
    assert isinstance(exposed, dict)
    assert exposed["executed_any"] is True and exposed["executed"] is False
