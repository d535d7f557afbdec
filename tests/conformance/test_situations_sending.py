"""A situation is the circumstance the scenario put the runtime in, never the runtime having
done the right thing.

Outside harnesses showed situations counted unreached although their scenario plainly
set them up: RT-TOOL-9 ¶4's "a call that returned success, sent again" read success from
the result the runtime reported (an SDK whose results are not ``{success, data, error}``
never "returned success"), RT-TOOL-10 ¶2's all-repeat pass needed the runtime to report
its repeats ``skipped``, RT-TOOL-8's arguments needed the tool body to run, a declined
call needed a ``declined`` disposition, RT-TOOL-4's reload needed the artifacts on the
wire, DR-6 ¶2 needed Continue to be accepted.  Each test here crafts a trace of a runtime
that did the wrong thing (or said it in its own words) and holds the situation reached:
what the scenario played and the trace's passes, batches and steps show."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Capabilities, Handshake, Implementation, Limits
from adapters.scenario import Bounds, Continue, Decline, Restart, Scenario, StartTurn, Step
from adapters.trace import PassRecord, RunRecord, StepRecord, ToolResultRecord, Trace, TurnWire
from conformance.engine import load_suite
from conformance.toolkit import call, failure, link, output, tool

HANDSHAKE = Handshake(
    protocol="rttool-adapter/1",
    implementation=Implementation("crafted", "0"),
    profiles=("runtime", "durable-resume"),
    capabilities=Capabilities(gates=True, port_exposure=True, turn_api=True, restart=True),
    limits=Limits(run_artifacts=2),
)

#: An SDK's own words for a tool result: no ``success``, no ``data``.
SDK_RESULT = {"type": "function_call_result", "status": "completed", "output": "did it"}


def _result(name: str, call_id: str, how: str = "executed") -> ToolResultRecord:
    return ToolResultRecord(tool=name, tool_call_id=call_id, disposition=how, result=SDK_RESULT)  # type: ignore[arg-type]


def _pass(
    batch: tuple[Mapping[str, object], ...], *results: ToolResultRecord, paused: bool = False
) -> PassRecord:
    return PassRecord(
        batch=tuple(dict(one) for one in batch),
        ports={},
        exposed={},
        results=results,
        tool_messages=(),
        outcome=None,
        paused=paused,
    )


def _run(
    number: int, *passes: PassRecord, cause: str = "start", end: str = "completed"
) -> RunRecord:
    return RunRecord(
        id=f"run-{number}",
        turn="t1",
        conversation="main",
        cause=cause,  # type: ignore[arg-type]
        end=end,  # type: ignore[arg-type]
        model_inputs=(),
        passes=passes,
        side_effects=(),
    )


def _step(
    index: int, op: str, *runs: RunRecord, outcome: str = "ok", wired: bool = False
) -> StepRecord:
    wire = (
        {
            "main": {
                "t1": TurnWire(
                    status="completed", continueOffered=False, messages=(), toolArtifacts=()
                )
            }
        }
        if wired
        else {}
    )
    return StepRecord(
        index=index,
        op=op,
        outcome=outcome,  # type: ignore[arg-type]
        runs=runs,
        warnings=(),
        wire=wire,
    )


def _reached(clause: str, scenario: Scenario, *steps: StepRecord) -> list[str]:
    trace = Trace(scenario=scenario.id, steps=steps)
    return [
        one.words
        for one in load_suite().situations[clause]
        if one.reached(scenario, trace, HANDSHAKE)
    ]


def _scenario(
    *steps: Step, tools: tuple[object, ...] = (), bounds: Bounds | None = None
) -> Scenario:
    return Scenario(id="crafted", steps=steps, tools=tools, bounds=bounds)  # type: ignore[arg-type]


def test_a_repeat_is_judged_by_what_its_first_execution_played() -> None:
    """A batch paused at a gate, approved, re-issued with the calls that returned before:
    success and failure are what the tools' nodes played, whatever the results say."""
    scenario = _scenario(
        StartTurn("t1"),
        tools=(
            tool("do_thing", output({"result": "did it"})),
            tool("failing_thing", failure("no such record")),
            tool("gated_thing", gate=True),
        ),
    )
    batch = (
        call("do_thing", [], "call_a"),
        call("gated_thing", [], "call_gate"),
        call("failing_thing", [], "call_b"),
    )
    first = _run(
        1,
        _pass(
            batch, _result("do_thing", "call_a"), _result("failing_thing", "call_b"), paused=True
        ),
        end="paused",
    )
    approved = _run(2, _pass(batch, _result("gated_thing", "call_gate")), cause="approve")
    steps = (_step(0, "start_turn", first), _step(1, "approve", approved))
    assert _reached("RT-TOOL-9#c4", scenario, *steps) == [
        "a call that returned success, sent again",
        "a call that returned a recoverable error, sent again",
        "a call that paused for approval, approved",
    ]
    assert _reached("RT-TOOL-9#c2", scenario, *steps) == [
        "a repeat of a call that succeeded",
        "a repeat of a call that failed",
    ]


def test_a_repeat_dropped_silently_is_still_a_pass_of_nothing_new() -> None:
    """The second pass's batch holds only a call the first pass handled: no call of it is
    handled for the first time, though the runtime reported no ``skipped`` result (it
    dropped the repeat); an unwired tool's call is one whether or not a result answers it."""
    scenario = _scenario(StartTurn("t1"), tools=(tool("do_thing"),))
    again = _pass((call("do_thing", [], "call_a"),))
    run = _run(1, _pass((call("do_thing", [], "call_a"),), _result("do_thing", "call_a")), again)
    assert "a pass with no call handled for the first time" in _reached(
        "RT-TOOL-10#c2", scenario, _step(0, "start_turn", run)
    )
    unwired = _run(1, _pass((call("no_such_tool", {}, "call_x"),)))
    assert "a call naming a tool that is not wired" in _reached(
        "RT-TOOL-10#c2", scenario, _step(0, "start_turn", unwired)
    )


def test_an_argument_the_runtime_failed_on_is_still_the_argument_sent() -> None:
    """Text that is not JSON for an array: the runtime failed the run on it, no body ran
    and no result reports the arguments.  RT-TOOL-8 ¶3's situation is what was sent; ¶1's
    alone (the arguments a tool is invoked with) needs the reconciled arguments shown."""
    scenario = _scenario(
        StartTurn("t1"),
        tools=(tool("target", schema={"type": "object", "properties": {"a": {"type": "array"}}}),),
    )
    failed = _run(1, _pass((call("target", {"a": "[1,"}, "c1"),)), end="failed")
    step = _step(0, "start_turn", failed)
    assert "text that is not JSON for a parameter declared array or object" in _reached(
        "RT-TOOL-8#c3", scenario, step
    )
    assert _reached("RT-TOOL-8#c1", scenario, step) == []


def test_a_decline_is_the_operators_not_a_disposition() -> None:
    """A call of a gated tool was sent and the operator declined it: the call was declined
    whatever the runtime reported of it; a decline the implementation refused declined
    nothing."""
    scenario = _scenario(StartTurn("t1"), Decline("t1"), tools=(tool("send", gate=True),))
    paused = _run(1, _pass((call("send", {}, "c1"),), paused=True), end="paused")
    declined = _run(2, cause="decline")
    played = (_step(0, "start_turn", paused), _step(1, "decline", declined))
    assert _reached("RT-TOOL-2#c5", scenario, *played) == ["a declined call"]
    refused = (_step(0, "start_turn", paused), _step(1, "decline", outcome="refused"))
    assert _reached("RT-TOOL-2#c5", scenario, *refused) == []


def test_artifacts_a_runtime_never_put_on_its_messages_were_still_collected() -> None:
    """A runtime that keeps a run's artifacts on the run and never on its messages (the
    turn result alone shows them): the turn that collected them was read after a reload
    and from the turn API all the same, and its runs collected them."""
    scenario = _scenario(
        StartTurn("t1"),
        Restart(),
        tools=(tool("make", output({"ok": True}, link("https://e.x/1"))),),
    )
    collecting = _run(1, _pass((call("make", {}, "c1"),), _result("make", "c1")))
    steps = (_step(0, "start_turn", collecting, wired=True), _step(1, "restart", wired=True))
    assert _reached("RT-TOOL-4#c2", scenario, *steps)[:2] == [
        "a turn's artifacts read after a reload",
        "a turn's artifacts read from its turn API",
    ]
    assert _reached("RT-TOOL-4#c3", scenario, *steps) == [
        "a message's artifacts on the implementation's own wire"
    ]
    assert _reached("RT-TOOL-4#c1", scenario, *steps)[:1] == ["a run that collected artifacts"]
    assert _reached("RT-TOOL-5#c1", scenario, *steps) == ["a call that attached an artifact"]


def test_what_a_run_produced_is_read_from_the_scenario() -> None:
    """Three artifacts from one call under a count bound of two, and one with an empty
    type, in a result of the runtime's own shape: over the bound, and an empty type,
    whatever the result attached."""
    entries = [link(f"https://e.x/{i}") for i in range(3)]
    scenario = _scenario(
        StartTurn("t1"),
        tools=(tool("make", output({"ok": True}, *entries, {"type": "", "payload": {}})),),
        bounds=Bounds(run_artifacts=2),
    )
    run = _run(1, _pass((call("make", {}, "c1"),), _result("make", "c1")))
    step = _step(0, "start_turn", run)
    assert "an artifact over the run's count bound" in _reached("RT-TOOL-6#c3", scenario, step)
    assert _reached("RT-TOOL-6#c5", scenario, step) == ["an artifact with an empty type"]


def test_continue_chosen_counts_however_the_implementation_answered_it() -> None:
    """Continue chosen four times on a stopped turn: the scenario's choices, though the
    implementation refused every one."""
    scenario = _scenario(StartTurn("t1"), *(Continue("t1") for _ in range(4)))
    failed = _run(1, end="failed")
    steps = [_step(0, "start_turn", failed)]
    steps += [_step(i, "continue", outcome="refused") for i in range(1, 5)]
    assert _reached("DR-6#c2", scenario, *steps) == [
        "Continue chosen more than three times on one turn"
    ]
    assert _reached("DR-6#c1", scenario, *steps) == ["Continue chosen on a stopped turn"]
