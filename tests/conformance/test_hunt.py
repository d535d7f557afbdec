"""The hunt: strategies, invariants, and the search itself."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from adapters.capabilities import missing_capability, needed_capabilities
from adapters.codec import check_outbound, from_json, to_json
from adapters.handshake import Capabilities, Handshake, Implementation, Limits
from adapters.scenario import Answer, Bounds, Scenario, StartTurn
from adapters.trace import Trace
from conformance.engine import load_suite
from conformance.hunt import Budget, hunt, steps_summary
from conformance.hunt.strategies import CANARY_PREFIX, scenarios
from conformance.toolkit import (
    ask,
    call,
    calls,
    failure,
    mapping,
    output,
    say,
    scenario,
    tool,
)
from tests.conformance._support import reference_driver

INVARIANTS = load_suite().invariants

FULL = reference_driver().handshake()
BARE = Handshake(
    protocol="rttool-adapter/1",
    implementation=Implementation("bare", "0"),
    profiles=("runtime",),
    capabilities=Capabilities(),
    limits=Limits(),
)
NO_CHECKS = list(HealthCheck)


@settings(max_examples=40, deadline=None, suppress_health_check=NO_CHECKS)
@given(scenarios(FULL))
def test_generated_scenarios_are_schema_valid_with_unique_canaries(generated: Scenario) -> None:
    encoded = to_json(generated)
    check_outbound("scenario", encoded)
    assert from_json(Scenario, encoded) == generated
    # A canary belongs to one invocation: it may appear twice only in one output, where a
    # tool emits the same artifact twice on purpose.
    owners: dict[str, int] = {}
    for number, ret in enumerate(r for t in encoded["tools"] for r in t["returns"]):
        for text in json.dumps(ret).split('"'):
            if text.startswith(CANARY_PREFIX):
                assert owners.setdefault(text, number) == number, text


@settings(max_examples=40, deadline=None, suppress_health_check=NO_CHECKS)
@given(scenarios(BARE))
def test_generated_scenarios_stay_within_the_handshake(generated: Scenario) -> None:
    assert missing_capability(BARE.capabilities, needed_capabilities(generated)) is None


def test_the_reference_runtime_survives_a_hunt() -> None:
    outcome = hunt(reference_driver(), FULL, INVARIANTS, Budget(examples=60, seconds=4, seed=7))
    assert outcome.examples >= 60
    assert outcome.findings == {}
    # What the search judged is counted per invariant, and never more than was generated.
    for name, tally in outcome.tallies.items():
        assert tally.exercised <= tally.judged <= outcome.examples, name


def _delivering_trace() -> tuple[Scenario, Trace]:
    made = scenario(
        "doctor",
        tools=[
            tool(
                "alpha",
                output({"n": 0}, {"type": "link", "payload": {"canary": f"{CANARY_PREFIX}0-0-0."}}),
            )
        ],
        model=[calls(call("alpha", {}, "c1")), ask(), say("done")],
        steps=[StartTurn("t1"), Answer("t1")],
        bounds=Bounds(held_artifacts=4),
    )
    trace = reference_driver().run(made)
    assert isinstance(trace, Trace)
    return made, trace


def _edit_last_turn(trace: Trace, change: Callable[[dict[str, object]], None]) -> Trace:
    """A copy of ``trace`` whose final turn t1 has ``change`` applied to its wire form."""
    last = trace.steps[-1]
    wire = last.wire["main"]["t1"]
    raw = {
        "status": wire.status,
        "continueOffered": wire.continueOffered,
        "messages": copy.deepcopy(list(wire.messages)),
        "toolArtifacts": copy.deepcopy(wire.toolArtifacts),
    }
    change(raw)
    edited = dataclasses.replace(
        wire,
        status=str(raw["status"]),
        messages=tuple(raw["messages"]),  # type: ignore[arg-type]
        toolArtifacts=raw["toolArtifacts"],
    )
    step = dataclasses.replace(last, wire={"main": {"t1": edited}})
    return dataclasses.replace(trace, steps=(*trace.steps[:-1], step))


def _carrying(raw: dict[str, object]) -> dict[str, object]:
    return next(m for m in raw["messages"] if m.get("toolArtifacts"))  # type: ignore[union-attr]


def _drop(raw: dict[str, object]) -> None:
    _carrying(raw).pop("toolArtifacts")
    raw["toolArtifacts"] = []


def _double(raw: dict[str, object]) -> None:
    row = _carrying(raw)
    row["toolArtifacts"] = row["toolArtifacts"] * 2  # type: ignore[operator]
    raw["toolArtifacts"] = row["toolArtifacts"]


def _metadata(raw: dict[str, object]) -> None:
    _carrying(raw)["metadata"] = {"artifacts": _carrying(raw)["toolArtifacts"]}


def _shape(raw: dict[str, object]) -> None:
    _carrying(raw)["toolArtifacts"][0]["extra"] = 1  # type: ignore[index]


def _paused(raw: dict[str, object]) -> None:
    raw["status"] = "paused"


def _aggregate(raw: dict[str, object]) -> None:
    raw["toolArtifacts"] = []


DOCTORED = {
    "no-loss": _drop,
    "no-double-delivery": _double,
    "no-metadata-leak": _metadata,
    "shape-and-pairing": _shape,
    "held-off-wire": _paused,
    "aggregation": _aggregate,
}


@pytest.mark.parametrize("name", sorted(DOCTORED))
def test_each_invariant_catches_a_doctored_trace(name: str) -> None:
    made, trace = _delivering_trace()
    invariant = next(i for i in INVARIANTS if i.name == name)
    assert invariant.judge(made, trace, FULL) is None
    assert invariant.judge(made, _edit_last_turn(trace, DOCTORED[name]), FULL) is not None


def test_prose_leak_and_bound_invariants_catch_doctored_traces() -> None:
    made, trace = _delivering_trace()
    run = next(trace.runs())
    leaky = dataclasses.replace(
        run.model_inputs[0],
        messages=(
            *run.model_inputs[0].messages,
            {"role": "tool", "content": f"{CANARY_PREFIX}0-0-0."},
        ),
    )
    step0 = dataclasses.replace(
        trace.steps[0],
        runs=(dataclasses.replace(run, model_inputs=(leaky,)),),
        held={"t1": [{}, {}, {}, {}, {}]},
    )
    doctored = dataclasses.replace(trace, steps=(step0, *trace.steps[1:]))
    by_name = {i.name: i for i in INVARIANTS}
    assert by_name["no-prose-leak"].judge(made, doctored, FULL) is not None
    assert by_name["held-within-bound"].judge(made, doctored, FULL) is not None


def _id_reused_in_a_later_turn(later_items: object) -> tuple[Scenario, Trace]:
    """Call ``d1`` executes in turn t1; turn t2 sends ``d1`` again, first with the items
    ``later_items``, then (after an answer) with the items it ran with in t1."""
    schema = {"type": "object", "properties": {"items": {"type": "array"}}}
    made = scenario(
        "reused-id",
        tools=[tool("delta", failure("refused"), schema=schema)],
        model=[
            calls(call("delta", {"items": [1]}, "d1")),
            say("done"),
            calls(call("delta", {"items": later_items}, "d1")),
            ask(),
            calls(call("delta", {"items": [1]}, "d1")),
            say("done"),
        ],
        steps=[StartTurn("t1"), StartTurn("t2"), Answer("t2")],
    )
    trace = reference_driver().run(made)
    assert isinstance(trace, Trace)
    return made, trace


def _repeat_message_changed(trace: Trace) -> Trace:
    """A copy of ``trace`` whose last pass re-emits a tool message nothing stored."""
    last = trace.steps[-1]
    run = last.runs[0]
    one = run.passes[-1]
    messages = tuple({**mapping(m), "content": "Error: made up"} for m in one.tool_messages)
    passes = (*run.passes[:-1], dataclasses.replace(one, tool_messages=messages))
    step = dataclasses.replace(last, runs=(dataclasses.replace(run, passes=passes),))
    return dataclasses.replace(trace, steps=(*trace.steps[:-1], step))


def test_a_repeat_of_a_call_refused_in_its_turn_is_not_judged_by_an_earlier_turn() -> None:
    """An id executed in t1 and first handled in t2 with arguments refused: a guard kept
    per turn re-emits t2's refusal for the repeat, not t1's stored result, and either is
    what the rules allow.  Where t2 executed the id itself, a repeat is still judged."""
    invariant = next(i for i in INVARIANTS if i.name == "repeat-re-emitted")
    made, trace = _id_reused_in_a_later_turn("not json")
    repeat = trace.steps[-1].runs[0].passes[-1].results[0]
    assert repeat.disposition == "skipped", repeat
    assert invariant.judge(made, trace, FULL) is None
    made, trace = _id_reused_in_a_later_turn([2])
    assert invariant.judge(made, trace, FULL) is None
    assert invariant.judge(made, _repeat_message_changed(trace), FULL) is not None


def test_steps_summary_is_one_line() -> None:
    made, _ = _delivering_trace()
    assert steps_summary(made) == "start_turn(t1) -> answer(t1)"


@pytest.mark.parametrize("with_finding", [False, True], ids=["alone", "beside-a-finding"])
def test_a_stop_reported_in_a_group_stops_the_hunt(
    with_finding: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop signal that lands while hypothesis replays what it found comes back in a
    group, beside the finding: the hunt keeps the finding, says it was interrupted, and
    searches no further (before, it went on to the next batch)."""
    import contextlib

    from conformance.hunt import _search
    from conformance.toolkit.machinery import Violation

    made, trace = _delivering_trace()
    found = Violation("doctored", made, trace)
    found.invariant = INVARIANTS[0].name
    batches: list[int] = []

    @contextlib.contextmanager
    def replaying(seconds: float, shrinks: int | None) -> Iterator[None]:
        batches.append(1)
        members: list[BaseException] = [KeyboardInterrupt()]
        raise BaseExceptionGroup("replayed", [found, *members] if with_finding else members)
        yield

    monkeypatch.setattr(_search, "shrinking_bounded", replaying)
    outcome = hunt(reference_driver(), FULL, INVARIANTS, Budget(examples=60, seconds=4, seed=7))
    assert outcome.interrupted
    assert batches == [1]  # no second batch after the stop
    assert (INVARIANTS[0].name in outcome.findings) is with_finding


def test_a_short_enough_counterexample_is_not_shrunk_further() -> None:
    """With ``short_enough`` the search keeps a counterexample once it has that many steps
    or fewer, where shrinking would have gone on: the same seeded search without it
    shrinks further, and runs more scenarios to do so."""
    from conformance.toolkit import invariant

    def judge(made: Scenario, trace: Trace, handshake: Handshake) -> str | None:
        return "three steps or more" if len(made.steps) >= 3 else None

    def exercised(made: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return True

    long = invariant("three-steps-or-more", ("RT-TOOL-1#c1",), judge, "any", exercised)

    def search(short_enough: int | None) -> tuple[int, int]:
        # Without the pass after hypothesis (which would shorten both to three steps):
        # what is compared is how far hypothesis shrinks.
        budget = Budget(
            seed=3, limit=200, seconds=600, shrinks=200, short_enough=short_enough, minimise=0
        )
        outcome = hunt(reference_driver(), FULL, [long], budget)
        found = outcome.findings[long.name]
        return len(found.scenario.steps), outcome.shrinks

    kept_steps, kept_shrinks = search(6)
    shrunk_steps, shrunk_shrinks = search(None)
    assert 3 <= kept_steps <= 6
    assert shrunk_steps == 3  # the least that still fails
    assert kept_shrinks < shrunk_shrinks
