"""The artifact rules (RT-TOOL-1 … RT-TOOL-7) blame by construction.

Each check, vector and invariant declares the channels its observation goes through (the
value `data` carries, the artifacts attached, the reserved key removed, the port, the
artifacts persisted on the messages and the field that carries them), and a failure seen
where one of them is broken is that channel's clause's.  Every test here plays a runtime
shape a real framework showed, and fails on the suite as it was before: a clause the
runtime meets was failed for another clause's gap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping

import pytest

from adapters import Driver, connect
from adapters.capabilities import needed_capabilities
from adapters.driver import Unsupported
from adapters.scenario import Scenario, StartTurn
from adapters.trace import RunRecord, ToolResultRecord, Trace, TurnWire
from conformance.checks.rt_tool_3.invariants import INVARIANTS as RT3_INVARIANTS
from conformance.engine import Case, CaseOutcome, Suite, charged, judge
from conformance.hunt import breached
from conformance.rules import load_corpus
from conformance.toolkit import artifact, call, calls, output, say, scenario, tool, whereabouts
from conformance.toolkit.machinery import CANARY_PREFIX, ScenarioRunner
from tests.conformance._support import REFERENCE
from tests.conformance.gaps import Rewritten, without_ports

CASES = {case.id: case for case in Suite.over(load_corpus()).cases()}
NO_PROSE_LEAK = next(one for one in RT3_INVARIANTS if one.name == "no-prose-leak")


def _first(clause: str, kind: str = "check") -> Case:
    """The first case of ``kind`` bound to ``clause`` alone."""
    return next(c for c in CASES.values() if c.clauses == (clause,) and c.kind == kind)


def _on(case: Case, runner: ScenarioRunner, clause: str) -> CaseOutcome:
    judged = judge(case, runner)
    assert judged.error is None, judged.message
    return charged(judged.outcome, clause)


def _blocked(case: Case, runner: ScenarioRunner, clause: str, by: str) -> None:
    landed = _on(case, runner, clause)
    assert landed.outcome == "skipped", (case.id, landed.message)
    assert f"blocked by {by}" in landed.message, (case.id, landed.message)


def _failed(case: Case, runner: ScenarioRunner, clause: str) -> None:
    landed = _on(case, runner, clause)
    assert landed.outcome == "failed", (case.id, landed.message)


# --- artifacts kept with the run and shown on the turn's result only (Agno) ----------------

#: every clause a check of which read delivery only from the messages' toolArtifacts, and
#: failed although the artifacts were all on the turn's result, once, in order
READ_ON_THE_MESSAGES = (
    "RT-TOOL-2#c2",
    "RT-TOOL-3#c1",
    "RT-TOOL-3#c4",
    "RT-TOOL-4#c2",
    "RT-TOOL-5#c1",
    "RT-TOOL-5#c2",
    "RT-TOOL-5#c3",
    "RT-TOOL-6#c1",
    "RT-TOOL-6#c2",
    "RT-TOOL-6#c3",
    "RT-TOOL-6#c4",
    "RT-TOOL-6#c5",
    "RT-TOOL-6#c6",
    "RT-TOOL-7#c1",
    "RT-TOOL-7#c3",
    "RT-TOOL-7#c4",
    "RT-TOOL-7#c5",
)


@pytest.fixture(scope="module")
def on_the_turn_result() -> Iterator[Driver]:
    driver = Driver(connect(f"{REFERENCE}?shape=artifacts-on-the-turn-result-only"))
    yield driver
    driver.close()


@pytest.mark.parametrize("clause", READ_ON_THE_MESSAGES)
def test_artifacts_on_the_turn_result_block_what_reads_the_messages(
    clause: str, on_the_turn_result: Driver
) -> None:
    _blocked(_first(clause), on_the_turn_result, clause, "RT-TOOL-4 ¶1")


@pytest.mark.parametrize(
    ("case_id", "clause"),
    [
        ("RT-TOOL-4#c1/persisted-on-last-assistant-message[two-messages]", "RT-TOOL-4#c1"),
        ("RT-TOOL-7#c2/held-prepended-on-resumed-message[one-held-one-own]", "RT-TOOL-7#c2"),
    ],
)
def test_artifacts_on_the_turn_result_still_fail_their_own_clauses(
    case_id: str, clause: str, on_the_turn_result: Driver
) -> None:
    """RT-TOOL-4 ¶1 ("persisted on the last assistant message") and RT-TOOL-7 ¶2 ("delivers
    the merged list on the resumed turn's assistant message") are the shape's own gaps."""
    _failed(CASES[case_id], on_the_turn_result, clause)


# --- a tool's bare value wrapped as {"result": value} (ADK) ---------------------------------


@pytest.mark.parametrize("variant", ["falsy-data", "scalar-and-list-data"])
def test_a_bare_value_may_be_carried_as_a_result_map(variant: str) -> None:
    """RT-TOOL-1 ¶1 names the result's keys; the rules' own example (RT-TOOL-3) carries a
    confirmation string as `{"result": ...}`: ¶1 used to fail it as "not what the tool
    produced"."""
    case = CASES[f"RT-TOOL-1#c1/result-is-success-data-error[{variant}]"]
    wrapped = Driver(connect(f"{REFERENCE}?variant=bare-values-wrapped"))
    try:
        assert _on(case, wrapped, "RT-TOOL-1#c1").outcome == "passed"
    finally:
        wrapped.close()
    nulled = Rewritten(mutant="falsy-data-reported-as-null")
    try:  # and a value that is lost is still ¶1's
        if variant == "falsy-data":
            _failed(case, nulled, "RT-TOOL-1#c1")
    finally:
        nulled.close()


# --- what a result's data holds ---------------------------------------------------------

ResultRewrite = Callable[[Mapping[str, object]], Mapping[str, object]]


def _results(change: ResultRewrite) -> Callable[[RunRecord], RunRecord]:
    """A framework whose tool results come out as ``change`` makes them (an executed
    call's only)."""

    def result(one: ToolResultRecord) -> ToolResultRecord:
        if one.disposition != "executed" or not isinstance(one.result, Mapping):
            return one
        return dataclasses.replace(one, result=dict(change(one.result)))

    def rewrite(run: RunRecord) -> RunRecord:
        passes = tuple(
            dataclasses.replace(one, results=tuple(result(r) for r in one.results))
            for one in run.passes
        )
        return dataclasses.replace(run, passes=passes)

    return rewrite


def _no_artifact_channel(result: Mapping[str, object]) -> Mapping[str, object]:
    """No artifact channel at all (smolagents, LlamaIndex): what the tool emitted on the
    reserved key stays in `data`, and nothing is attached."""
    if "artifacts" not in result:
        return result
    data = result.get("data")
    kept = {**data, "artifacts": result["artifacts"]} if isinstance(data, Mapping) else data
    return {k: v for k, v in {**result, "data": kept}.items() if k != "artifacts"}


def _copied_into_data(result: Mapping[str, object]) -> Mapping[str, object]:
    """The artifacts attached, and left in `data` on the reserved key too."""
    data = result.get("data")
    if "artifacts" not in result or not isinstance(data, Mapping):
        return result
    return {**result, "data": {**data, "artifacts": result["artifacts"]}}


def _rendered(result: Mapping[str, object]) -> Mapping[str, object]:
    """`data` as the framework's text of it (AutoGen's ``str()`` of a map)."""
    data = result.get("data")
    return result if isinstance(data, str) else {**result, "data": str(data)}


def _without_success(result: Mapping[str, object]) -> Mapping[str, object]:
    """A result that is not `{success, data, error}` (the OpenAI Agents SDK's own item)."""
    return {k: v for k, v in result.items() if k != "success"}


@pytest.mark.parametrize(
    ("case_id", "clause", "by"),
    [
        # ¶2: `artifacts` missing where nothing was ever attached is ¶3's lifting
        (
            "RT-TOOL-1#c2/artifacts-key-only-when-attached[one-attached]",
            "RT-TOOL-1#c2",
            "RT-TOOL-2 ¶3",
        ),
        # ¶3: `data` keeping the reserved key folds nothing: it was never lifted
        (
            "RT-TOOL-1#c3/artifacts-never-folded-into-data[one-artifact]",
            "RT-TOOL-1#c3",
            "RT-TOOL-2",
        ),
        # RT-TOOL-2 ¶1 is a permission; the missing attachment is ¶3's
        ("RT-TOOL-2#c1/reserved-key-is-accepted[several-types]", "RT-TOOL-2#c1", "RT-TOOL-2 ¶3"),
        # the approved call beside a declined one attaches nothing: ¶3's, not ¶5's
        (
            "RT-TOOL-2#c5/declined-call-carries-no-artifacts[beside-an-approved-call]",
            "RT-TOOL-2#c5",
            "RT-TOOL-2 ¶3",
        ),
    ],
)
def test_a_runtime_without_an_artifact_channel_fails_only_the_lifting(
    case_id: str, clause: str, by: str
) -> None:
    runner = Rewritten(_results(_no_artifact_channel))
    try:
        _blocked(CASES[case_id], runner, clause, by)
        # where it belongs: nothing lifted (¶3), the key left in `data` (¶4)
        _failed(
            CASES["RT-TOOL-2#c3/malformed-entries-dropped-alone[wrong-type]"],
            runner,
            "RT-TOOL-2#c3",
        )
        _failed(
            CASES["RT-TOOL-2#c4/reserved-key-removed-from-data[valid-entries]"],
            runner,
            "RT-TOOL-2#c4",
        )
    finally:
        runner.close()


def test_data_rendered_as_text_is_the_shape_not_a_fold() -> None:
    """`data` as ``str()`` of the tool's map used to fail RT-TOOL-1 ¶3 ("never folded into
    data") beside ¶1: nothing was folded, the value was rendered."""
    runner = Rewritten(_results(_rendered))
    try:
        folded = CASES["RT-TOOL-1#c3/artifacts-never-folded-into-data[one-artifact]"]
        _blocked(folded, runner, "RT-TOOL-1#c3", "RT-TOOL-1 ¶1")
        _failed(CASES["RT-TOOL-1#c1/result-is-success-data-error[success]"], runner, "RT-TOOL-1#c1")
    finally:
        runner.close()


def test_a_result_without_success_is_the_shape_of_every_clause_reading_it() -> None:
    """RT-TOOL-2 ¶1 and ¶3 used to fail on "success absent", RT-TOOL-1 ¶1's words."""
    runner = Rewritten(_results(_without_success))
    try:
        accepted = CASES["RT-TOOL-2#c1/reserved-key-is-accepted[several-types]"]
        _blocked(accepted, runner, "RT-TOOL-2#c1", "RT-TOOL-1 ¶1")
        _blocked(
            CASES["RT-TOOL-2#c3/reserved-key-not-a-list"], runner, "RT-TOOL-2#c3", "RT-TOOL-1 ¶1"
        )
        _failed(CASES["RT-TOOL-1#c1/result-is-success-data-error[success]"], runner, "RT-TOOL-1#c1")
    finally:
        runner.close()


# --- the port's exposure ------------------------------------------------------------------


def test_a_tool_whose_port_the_author_exposed_needs_port_exposure() -> None:
    """writing-an-adapter.md says a harness without `port_exposure` is not played an
    exposure choice; a tool's `expose_artifacts_port` used to be played to it anyway,
    and RT-TOOL-2 ¶2 failed on a choice the harness never applied."""
    made = scenario(
        "exposed",
        tools=[tool("make", output({"ok": True}), expose_artifacts_port=True)],
        model=[calls(call("make", {}, "c1")), say("done")],
        steps=[StartTurn("t1")],
    )
    assert "port_exposure" in needed_capabilities(made)
    plain = dataclasses.replace(made, tools=(tool("make", output({"ok": True})),))
    assert "port_exposure" not in needed_capabilities(plain)


# --- RT-TOOL-4 ¶3's example: metadata is not required --------------------------------------


def _without_metadata(wire: TurnWire) -> TurnWire:
    rows = tuple(
        {k: v for k, v in row.items() if k != "metadata"} if isinstance(row, Mapping) else row
        for row in wire.messages
    )
    return dataclasses.replace(wire, messages=rows)


class _NoMetadata(Rewritten):
    """A runtime whose messages carry no `metadata` at all."""

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = super().run(scenario)
        if isinstance(trace, Unsupported):
            return trace
        steps = tuple(
            dataclasses.replace(
                step,
                wire={
                    c: {label: _without_metadata(w) for label, w in turns.items()}
                    for c, turns in step.wire.items()
                },
            )
            for step in trace.steps
        )
        return dataclasses.replace(trace, steps=steps)


def test_a_message_without_metadata_keeps_its_artifacts_out_of_it() -> None:
    """RT-TOOL-4 ¶3: "as a top-level `toolArtifacts` field rather than as raw message
    metadata"; the example's `"metadata": {}` shows nothing of the artifacts in it, and no
    clause asks for a metadata map.  The vector used to fail a message that has none."""
    vector = next(c for c in CASES.values() if c.kind == "vector" and "RT-TOOL-4#c3" in c.clauses)
    runner = _NoMetadata()
    try:
        assert _on(vector, runner, "RT-TOOL-4#c3").outcome == "passed"
    finally:
        runner.close()


# --- the hunt: a leak through `data` is RT-TOOL-2 ¶4's ---------------------------------------


def test_a_leak_through_the_reserved_key_left_in_data_is_the_removals() -> None:
    """no-prose-leak used to charge RT-TOOL-3 ¶3 ("built from `data` alone") with a leak
    that came in with the reserved key left in `data`: the prose was built from `data`."""
    canary = f"{CANARY_PREFIX}0-0-1."
    made = scenario(
        "leak",
        tools=[
            tool("emit", output({"ok": True}, artifact("note", {"canary": canary}) | {"type": 7}))
        ],
        model=[calls(call("emit", {}, "c1")), say("done")],
        steps=[StartTurn("t1")],
    )
    kept = Rewritten(mutant="reserved-key-kept-when-nothing-valid")
    try:
        trace = kept.run(made)
        message = NO_PROSE_LEAK.judge(made, trace, kept.handshake())  # type: ignore[arg-type]
    finally:
        kept.close()
    assert message is not None
    assert breached(NO_PROSE_LEAK, message) == ("RT-TOOL-2#c4",)


# --- where a missing artifact went ----------------------------------------------------------


def test_an_entry_not_found_whole_is_not_said_to_appear_nowhere() -> None:
    """RT-TOOL-6 ¶6 said the payload "appears nowhere in the turn's wire form" while the
    turn's result carried it at /toolArtifacts/0, under an id of the runtime's own."""
    wanted = {"type": "note", "payload": {"a": "<b>"}, "tool_call_id": "c1"}
    renamed = TurnWire("completed", False, (), [{**wanted, "tool_call_id": "gen-1"}])
    assert whereabouts(renamed, wanted) == (
        "was not found whole, but its payload was, at /toolArtifacts/0"
    )
    rewritten = TurnWire("completed", False, (), [{**wanted, "payload": {"a": "&lt;b&gt;"}}])
    assert whereabouts(rewritten, wanted).endswith("its payload changed, was, at /toolArtifacts/0")
    assert whereabouts(TurnWire("completed", False, (), []), wanted) == (
        "appears nowhere in the turn's wire form"
    )


# --- artifacts attached in another form than a list ------------------------------------------


def test_artifacts_not_in_a_list_are_the_keys_clause_not_the_folds() -> None:
    """A result carrying its one artifact bare used to fail RT-TOOL-1 ¶3 ("is not in a list
    under its result's `artifacts`") beside ¶2, whose words it breaks."""
    runner = Rewritten(mutant="single-artifact-not-in-a-list")
    try:
        folded = CASES["RT-TOOL-1#c3/artifacts-never-folded-into-data[one-artifact]"]
        _blocked(folded, runner, "RT-TOOL-1#c3", "RT-TOOL-1 ¶2")
        one = CASES["RT-TOOL-1#c2/artifacts-key-only-when-attached[one-attached]"]
        _failed(one, runner, "RT-TOOL-1#c2")
    finally:
        runner.close()


def test_several_artifacts_as_a_map_fail_the_keys_clause() -> None:
    """The case of several attached artifacts failed against no mutant once a result that
    is not `{success, data, error}` stopped failing it: this one breaks ¶2 with several."""
    runner = Rewritten(mutant="several-artifacts-keyed-by-type")
    try:
        several = CASES["RT-TOOL-1#c2/artifacts-key-only-when-attached[several-attached]"]
        _failed(several, runner, "RT-TOOL-1#c2")
    finally:
        runner.close()


# --- a case bound to several clauses holds each failure to its own clause's channels ----------


def test_a_channel_of_one_clause_does_not_block_another_clause_of_the_case() -> None:
    """RT-TOOL-3's example vector judges the port (¶1) and the prose (¶3); the prose is
    read through the reserved key's removal (RT-TOOL-2 ¶4), the port is not.  Against a
    runtime with neither a port nor the removal (the artifacts attached, and left in
    `data` too), the port's failure stands, and only the prose is blocked."""
    strip = without_ports("tool_artifacts")
    kept_in_data = _results(_copied_into_data)
    runner = Rewritten(lambda run: strip(kept_in_data(run)))
    try:
        vector = next(c for c in CASES.values() if c.kind == "vector" and c.rules == ("RT-TOOL-3",))
        judged = judge(vector, runner)
        assert [f.clause for f in judged.failures] == ["RT-TOOL-3#c1"], judged.message
        assert charged(judged.outcome, "RT-TOOL-3#c1").outcome == "failed"
    finally:
        runner.close()


def test_nothing_attached_blocks_what_reads_delivery() -> None:
    """A runtime that passes a tool's artifacts on only when the author exposed its port
    attaches nothing for a tool with no exposure choice: every delivery case used to
    fail (RT-TOOL-4 to RT-TOOL-7, 22 clauses beyond RT-TOOL-2 ¶2 in all); nothing was
    attached to collect, which is RT-TOOL-2 ¶3's word, and ¶2 still fails on its own."""
    runner = Rewritten(mutant="artifacts-channel-filtered-by-exposure")
    try:
        for clause in ("RT-TOOL-4#c2", "RT-TOOL-6#c2", "RT-TOOL-7#c1"):
            _blocked(_first(clause), runner, clause, "RT-TOOL-2 ¶3")
        exposure = CASES["RT-TOOL-2#c2/channel-survives-unexposed-port[port-not-exposed]"]
        _failed(exposure, runner, "RT-TOOL-2#c2")
    finally:
        runner.close()
