"""RT-TOOL-9: a tool call executes at most once per run (the reference keys by turn)."""

from __future__ import annotations

from reference_impl.workflow import ModelReply, ToolSpec
from tests.reference._support import PERMISSIVE, Record, Rig, call, calls, examples, say
from tests.reference.conftest import MakeRig

SENT_AGAIN, SKIPPED, RESENT_AFTER_APPROVAL, EXECUTED = examples("RT-TOOL-9")
QUESTION = ModelReply(question="Shall I go on?")


def _rig(make_rig: MakeRig) -> Rig:
    return make_rig(
        ToolSpec("do_thing", input_schema=PERMISSIVE),
        ToolSpec("gated_thing", input_schema=PERMISSIVE, gate=True),
    )


def _batch(example: object) -> list[object]:
    assert isinstance(example, dict)
    return list(example["tool_calls"])


def _only_pass(run: Record) -> Record:
    (record,) = run["passes"]
    assert isinstance(record, dict)
    return record


def test_example_a_repeat_is_skipped_and_its_first_result_reemitted(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.returns("do_thing", "did it")
    rig.model.push(calls(*_batch(SENT_AGAIN)), QUESTION)
    turn = rig.start()
    first = _only_pass(rig.runs()[0])
    rig.model.push(calls(*_batch(SENT_AGAIN)), say("Done."))
    rig.runtime.answer(turn, "yes")
    repeat = _only_pass(rig.runs()[0])
    assert repeat["ports"]["skipped"] == SKIPPED
    assert rig.world.of("do_thing") == [[]]  # ran once across both runs
    assert (
        repeat["tool_messages"]
        == first["tool_messages"]
        == [{"tool_call_id": "call_a", "content": "did it"}]
    )
    assert repeat["results"][0]["result"] == first["results"][0]["result"]
    assert repeat["results"][0]["disposition"] == "skipped"
    assert repeat["outcome"] == first["outcome"] == {"succeeded": 1, "failed": 0}


def test_example_the_gated_call_runs_once_approved(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(*_batch(RESENT_AFTER_APPROVAL)), say("Done."))
    turn = rig.start()
    assert rig.status(turn) == "paused"
    assert rig.world.of("do_thing") == [[]] and rig.world.of("gated_thing") == []
    rig.runs()
    rig.runtime.approve(turn)
    resumed = _only_pass(rig.runs()[0])
    assert resumed["batch"] == _batch(RESENT_AFTER_APPROVAL)
    assert resumed["ports"]["executed"] == EXECUTED
    assert resumed["ports"]["skipped"] == ["call_a"]
    assert rig.world.of("gated_thing") == [[]] and rig.world.of("do_thing") == [[]]
    assert rig.status(turn) == "completed"


def test_a_recoverable_failure_is_recorded_and_reemitted(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.returns("do_thing", error="quota exceeded")
    rig.model.push(
        calls(call("do_thing", [], "c1")), calls(call("do_thing", [], "c1")), say("Done.")
    )
    rig.start()
    first, repeat = rig.runs()[0]["passes"]
    assert len(rig.world.invocations) == 1
    assert repeat["ports"]["skipped"] == ["c1"]
    assert (
        repeat["tool_messages"]
        == first["tool_messages"]
        == [{"tool_call_id": "c1", "content": "Error: quota exceeded"}]
    )
    assert repeat["outcome"] == {"succeeded": 0, "failed": 1}


def test_a_repeat_inside_one_batch_runs_once(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("do_thing", [], "c1"), call("do_thing", [], "c1")), say("Done."))
    rig.start()
    record = _only_pass(rig.runs()[0])
    assert len(rig.world.invocations) == 1
    assert record["ports"]["executed"] == ["c1"]
    assert record["ports"]["skipped"] == ["c1"]
    assert [m["tool_call_id"] for m in record["tool_messages"]] == ["c1", "c1"]
    assert record["outcome"] == {"succeeded": 2, "failed": 0}


def test_a_call_without_an_identifier_always_runs(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("do_thing", [])), calls(call("do_thing", [])), say("Done."))
    rig.start()
    first, second = rig.runs()[0]["passes"]
    assert len(rig.world.invocations) == 2
    for record in (first, second):
        assert record["ports"]["skipped"] == [] and record["ports"]["executed"] == []
        assert record["ports"]["executed_any"] is True


def test_a_gated_call_is_not_recorded_before_it_runs(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("gated_thing", [], "g1")), say("Done."))
    turn = rig.start()
    paused = _only_pass(rig.runs()[0])
    assert paused["paused"] is True and paused["results"] == []
    assert paused["ports"]["executed"] == [] and paused["ports"]["skipped"] == []
    rig.runtime.approve(turn)
    resumed = _only_pass(rig.runs()[0])
    assert resumed["ports"]["executed"] == ["g1"]
    assert rig.world.of("gated_thing") == [[]]


def test_records_survive_a_restart(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("do_thing", [], "call_a")), QUESTION)
    turn = rig.start()
    rig.restart()
    rig.model.push(calls(call("do_thing", [], "call_a")), say("Done."))
    rig.runtime.answer(turn, "yes")
    repeat = _only_pass(rig.runs()[-1])
    assert repeat["ports"]["skipped"] == ["call_a"]
    assert len(rig.world.invocations) == 1


def test_records_are_per_turn(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(
        calls(call("do_thing", [], "call_a")),
        say("One."),
        calls(call("do_thing", [], "call_a")),
        say("Two."),
    )
    rig.start("one")
    rig.start("two", rig.conversation_id)
    assert len(rig.world.invocations) == 2
