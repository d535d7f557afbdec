"""Failure messages say where misplaced artifacts really went.

The fake implementation here is the reference runtime behind a trace transformer that
moves every message's ``toolArtifacts`` under its ``metadata`` and keeps the turn's
aggregated ``toolArtifacts``, as a harness with that bug would.  That is RT-TOOL-4 ¶3's
gap ("as a top-level `toolArtifacts` field rather than as raw message metadata"): every
case that reads delivery on the messages' ``toolArtifacts`` is blocked by it, and says
where the artifacts went in its reason; the wording of each failure is read off the case
as it stands without its channels.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest

from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace, TurnWire
from conformance.engine import Case, judge, load_suite
from conformance.hunt import Budget, hunt
from conformance.toolkit import (
    locate,
    misplaced,
    pointers,
    show,
    whereabouts,
)
from conformance.toolkit.machinery import ScenarioRunner
from tests.conformance._support import failures_of, mutant_driver, reference_driver

INVARIANTS = load_suite().invariants

METADATA_POINTER = "/metadata/toolArtifacts/0"


def _moved(wire: TurnWire) -> TurnWire:
    rows = []
    for row in wire.messages:
        moved = copy.deepcopy(row)
        if isinstance(moved, dict) and "toolArtifacts" in moved:
            carried = moved.pop("toolArtifacts")
            moved["metadata"] = {**(moved.get("metadata") or {}), "toolArtifacts": carried}
        rows.append(moved)
    return dataclasses.replace(wire, messages=tuple(rows))


class ArtifactsMovedUnderMetadata:
    """A scenario runner whose wire carries each message's artifacts in its metadata."""

    def handshake(self) -> Handshake:
        return reference_driver().handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = reference_driver().run(scenario)
        if isinstance(trace, Unsupported):
            return trace
        steps = tuple(
            dataclasses.replace(
                step,
                wire={
                    conversation: {label: _moved(wire) for label, wire in turns.items()}
                    for conversation, turns in step.wire.items()
                },
            )
            for step in trace.steps
        )
        return dataclasses.replace(trace, steps=steps)


CASES = {
    one.id: Case.of(one)
    for one in (check for package in load_suite().packages for check in package.checks)
}


def _failures(check_id: str, runner: ScenarioRunner | None = None) -> list[str]:
    """Every failure the check reports, each on one line (its message, where it was seen),
    before they are held to its channels."""
    unheld = dataclasses.replace(CASES[check_id], through=())
    found = failures_of(unheld, runner or ArtifactsMovedUnderMetadata())
    assert found, f"{check_id} passed"
    lines = [failure.line() for failure in found]
    assert all("\n" not in line for line in lines)
    return lines


def _failure(check_id: str, runner: ScenarioRunner | None = None) -> str:
    return _failures(check_id, runner)[0]


@pytest.mark.parametrize(
    "check_id",
    [
        "RT-TOOL-2#c2/channel-survives-unexposed-port[port-not-exposed]",
        "RT-TOOL-3#c4/delivery-does-not-depend-on-exposure[exposed]",
        "RT-TOOL-5#c3/drain-does-not-end-collection[second-pass]",
        "RT-TOOL-7#c1/held-durably-off-the-wire[question]",
    ],
)
def test_a_missing_delivery_names_where_the_artifact_went(check_id: str) -> None:
    message = _failure(check_id)
    assert any(
        said in message
        for said in (
            "delivered in any message's toolArtifacts",
            "0 times",
            "no message's toolArtifacts",
            "carried by any message's toolArtifacts",
        )
    )
    assert METADATA_POINTER in message
    assert "/messages/" in message


@pytest.mark.parametrize(
    "check_id",
    [
        "RT-TOOL-2#c2/channel-survives-unexposed-port[port-not-exposed]",
        "RT-TOOL-3#c1/port-entries-built-key-by-key[several-calls]",
        "RT-TOOL-4#c1/persisted-on-last-assistant-message[two-messages]",
        "RT-TOOL-5#c3/drain-does-not-end-collection[second-pass]",
        "RT-TOOL-6#c1/nothing-downstream-rechecks[count]",
        "RT-TOOL-7#c1/held-durably-off-the-wire[question]",
        "RT-TOOL-7#c2/held-prepended-on-resumed-message[one-held-one-own]",
    ],
)
def test_artifacts_under_metadata_block_what_reads_the_field(check_id: str) -> None:
    """Each of these failed its own clause before blame by construction: what broke is
    RT-TOOL-4 ¶3, and the case is untested, saying where the artifact is."""
    judged = judge(CASES[check_id], ArtifactsMovedUnderMetadata())
    assert judged.verdict == "untested", judged.message
    assert "blocked by RT-TOOL-4 ¶3" in judged.message
    assert METADATA_POINTER in judged.message


def test_rt_tool_4_c3_still_fails_on_its_own_field() -> None:
    judged = judge(
        CASES["RT-TOOL-4#c3/top-level-field-not-metadata[turn-read]"],
        ArtifactsMovedUnderMetadata(),
    )
    assert judged.verdict == "failed"
    assert judged.failures[0].message.startswith("message 1's metadata carries the artifact")


def test_rt_tool_2_c2_reads_as_the_real_fault() -> None:
    message = _failure("RT-TOOL-2#c2/channel-survives-unexposed-port[port-not-exposed]")
    assert message == (
        "with the tool's `artifacts` port not exposed, the entry is carried by no message's "
        "toolArtifacts: it was found at /messages/1/metadata/toolArtifacts/0, /toolArtifacts/0; "
        "RT-TOOL-2 ¶2: the reserved key is a system channel that survives either way "
        "(at /steps/0/wire/main/t1 of rt2-c2-exposure)"
    )


def test_rt_tool_3_c1_shows_json_and_the_misplaced_entry() -> None:
    message = _failure("RT-TOOL-3#c1/port-entries-built-key-by-key[several-calls]")
    assert "the messages' toolArtifacts carry []" in message
    assert '"tool_call_id": "c1"' in message and "'type'" not in message
    assert "was found at /messages/1/metadata/toolArtifacts/0, /toolArtifacts/0" in message


def test_rt_tool_4_c3_says_where_the_artifacts_are() -> None:
    failures = _failures("RT-TOOL-4#c3/top-level-field-not-metadata[turn-read]")
    assert failures[0].startswith("message 1's metadata carries the artifact")
    assert failures[-1].startswith("no message carries the artifact in a top-level toolArtifacts")
    assert "/messages/1/metadata/toolArtifacts/0" in failures[-1]


def test_rt_tool_4_c3_points_into_the_metadata_of_the_mutant() -> None:
    driver = mutant_driver("artifacts-under-metadata")
    try:
        message = _failure("RT-TOOL-4#c3/top-level-field-not-metadata[turn-read]", driver)
    finally:
        driver.close()
    assert message.startswith(
        "message 1's metadata carries the artifact, at "
        "/steps/0/wire/main/t1/messages/1/metadata/tool_artifacts/0; RT-TOOL-4 ¶3"
    )


def test_rt_tool_6_c1_blames_the_placement_not_a_recheck() -> None:
    message = _failure("RT-TOOL-6#c1/nothing-downstream-rechecks[count]")
    assert "re-checked them" not in message
    assert '{"payload": {"ref": "r0-0"}, "tool_call_id": "c1", "type": "citation"}' in message
    assert METADATA_POINTER in message


def _moved_trace() -> tuple[Scenario, Trace]:
    from conformance.hunt.strategies import CANARY_PREFIX
    from conformance.toolkit import call, calls, output, say, scenario, tool

    made = scenario(
        "moved",
        tools=[
            tool(
                "alpha",
                output({"n": 0}, {"type": "link", "payload": {"canary": f"{CANARY_PREFIX}0-0-0."}}),
            )
        ],
        model=[calls(call("alpha", {}, "c1")), say("done")],
        steps=[StartTurn("t1")],
    )
    trace = ArtifactsMovedUnderMetadata().run(made)
    assert isinstance(trace, Trace)
    return made, trace


def test_the_metadata_leak_is_the_first_invariant_to_report() -> None:
    made, trace = _moved_trace()
    handshake = reference_driver().handshake()
    verdicts = [(i.name, i.judge(made, trace, handshake)) for i in INVARIANTS]
    failing = [(name, message) for name, message in verdicts if message is not None]
    assert [name for name, _ in failing][:1] == ["no-metadata-leak"]
    assert failing[0][1] == (
        'after step 0, message 1 of turn t1 has canary "cn-0-0-0." in its metadata, '
        "at /messages/1/metadata/toolArtifacts/0"
    )
    # no-loss still fails, and says where the canary went.
    no_loss = dict(failing)["no-loss"]
    assert no_loss is not None
    assert no_loss.startswith('canary "cn-0-0-0." (link from alpha call c1)')
    assert no_loss.endswith(
        "it was found at /messages/1/metadata/toolArtifacts/0, /toolArtifacts/0"
    )


@pytest.mark.slow
def test_the_hunt_reports_the_metadata_leak() -> None:
    runner = ArtifactsMovedUnderMetadata()
    outcome = hunt(
        runner,
        runner.handshake(),
        INVARIANTS,
        Budget(examples=100, seconds=5.0, seed=0, shrink_seconds=1.0),
    )
    # The cause is found first; the search then goes on, and also finds what it breaks
    # downstream (the artifacts are missing from the messages' toolArtifacts).
    first = min(outcome.found_at, key=lambda name: outcome.found_at[name])
    assert first == "no-metadata-leak"
    assert "/metadata/toolArtifacts/" in outcome.findings["no-metadata-leak"].message
    assert set(outcome.findings) <= {
        "no-metadata-leak",
        "no-loss",
        "no-loss-across-pause",
        "no-loss-after-failed-write-back",
        "aggregation",
    }


def test_pointers_escape_keys_and_name_the_smallest_entry() -> None:
    value = {
        "a/b": [{"type": "x", "payload": {"deep": ["pre-needle-post"]}}],
        "m~n": {"needle-key": 1},
        "plain": "needle",
    }
    assert pointers(value, "needle") == ["/a~1b/0", "/m~0n/needle-key", "/plain"]
    assert pointers(value, {"deep": ["pre-needle-post"]}) == ["/a~1b/0"]
    assert pointers(value, {"type": "x"}, "/base") == ["/base/a~1b/0"]
    assert pointers(value, 1) == ["/m~0n/needle-key"]
    assert pointers(value, True) == []  # a boolean is not the number 1
    assert pointers(value, "absent") == []


def test_locate_and_whereabouts_read_the_turn_wire() -> None:
    wire = TurnWire(
        status="completed",
        continueOffered=False,
        messages=({"role": "assistant", "metadata": {"kept": [{"type": "t", "payload": {}}]}},),
        toolArtifacts=[],
    )
    assert locate(wire, {"type": "t"}) == ["/messages/0/metadata/kept/0"]
    assert locate(None, "x") == []
    assert whereabouts(wire, {"type": "t"}) == "was found at /messages/0/metadata/kept/0"
    assert whereabouts(wire, "nowhere") == "appears nowhere in the turn's wire form"
    assert misplaced(wire, [{"type": "t"}]) == (
        '; the first missing one, {"type": "t"}, was found at /messages/0/metadata/kept/0'
    )
    carrying = dataclasses.replace(
        wire, messages=({"toolArtifacts": [{"type": "t", "payload": {}, "tool_call_id": "c"}]},)
    )
    assert misplaced(carrying, [{"type": "t"}]) == ""


def test_show_renders_json_on_one_line() -> None:
    assert show({"b": None, "a": True, "t": "été"}) == '{"a": true, "b": null, "t": "été"}'
    assert show("line\nbreak\u2028\u202eevil") == '"line\\nbreak\\u2028\\u202eevil"'
    long = show({"x": "y" * 500}, 40)
    assert len(long) == 40 and long.endswith("…")
    assert show(TurnWire("paused", False, (), None)) == (
        '{"continueOffered": false, "messages": [], "status": "paused", "toolArtifacts": null}'
    )
