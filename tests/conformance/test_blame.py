"""A failure belongs to the clause whose words it breaks.

Each test plays a small harness with one real gap (``tests.conformance.gaps``): the
reference runtime with a port taken away, a mutant that lacks one repair, a model seam
that makes up call ids, a handshake that states its bounds another way.  Before the
suite named prerequisites and charged each finding to its clause, every one of these
gave a false verdict to a clause that the harness meets: the tests say which, and hold
the suite to the verdict the clause's own words give.
"""

from __future__ import annotations

import dataclasses

import pytest

from adapters import Driver
from adapters.codec import check_inbound, from_json, to_json
from adapters.errors import SchemaViolation
from adapters.handshake import Handshake, Limits
from adapters.inprocess import InProcessConnection
from adapters.protocol import Message
from adapters.scenario import StartTurn
from adapters.trace import RunRecord, ToolResultRecord
from conformance.checks.rt_tool_8.invariants import INVARIANTS as RT8_INVARIANTS
from conformance.checks.rt_tool_9.invariants import INVARIANTS as RT9_INVARIANTS
from conformance.engine import Case, CaseOutcome, Suite, charged, judge
from conformance.hunt import breached
from conformance.rules import load_corpus
from conformance.toolkit import (
    Breach,
    call,
    calls,
    mapping,
    say,
    scenario,
    tool,
)
from conformance.toolkit.machinery import Failure, ScenarioRunner
from tests.conformance.gaps import (
    Rewritten,
    generated_ids,
    no_pass_without_calls,
    reference,
    without_ports,
)

CORPUS = load_corpus()
CASES = {case.id: case for case in Suite.over(CORPUS).cases()}


def _case(prefix: str) -> list[Case]:
    found = [case for case in CASES.values() if case.id.startswith(prefix)]
    assert found, prefix
    return found


def _outcome(case: Case, runner: ScenarioRunner) -> CaseOutcome:
    """How ``case`` ends against ``runner``: the outcome the report reads (without the
    session's evidence and timing)."""
    judged = judge(case, runner)
    assert judged.verdict in ("passed", "failed", "untested"), judged.message
    return judged.outcome


def _on(case: Case, runner: ScenarioRunner, clause: str) -> CaseOutcome:
    """The outcome of ``case`` as it lands on ``clause``."""
    assert clause in case.clauses, (case.id, clause)
    return charged(_outcome(case, runner), clause)


# --- RT-TOOL-8: a missing decoding is ¶4's (or ¶2's), never ¶3's or ¶5's -----------------


def test_keys_clause_is_not_charged_with_a_decoding_it_does_not_speak_of() -> None:
    """Against a runtime that decodes character references once (¶4's gap), RT-TOOL-8 ¶5
    (keys never modified, plain text unchanged) used to fail ``keys-in-an-unusual-order``
    because it expected ``"&amp;amp;"`` decoded to ``"&"``; the keys were untouched."""
    runner = Rewritten(mutant="entities-decoded-once")
    try:
        for case in _case("RT-TOOL-8#c5/keys-and-plain-text-untouched["):
            assert _on(case, runner, "RT-TOOL-8#c5").outcome == "passed", case.id
        decoded = _on(
            CASES["RT-TOOL-8#c4/decoded-up-to-the-declared-bound"], runner, "RT-TOOL-8#c4"
        )
        assert decoded.outcome == "failed"  # the gap is still found, where it belongs
    finally:
        runner.close()


# --- an outside round's misplaced blame: a gap of RT-TOOL-7 ¶2 or DR-4 ¶2 failed another --


def test_held_artifacts_placed_last_are_no_placeholder_for_a_drop() -> None:
    """Against a runtime that puts the held artifacts after the resumed run's own (RT-TOOL-7
    ¶2's "prepends"), RT-TOOL-6 ¶3's drop in a resumed run used to fail on the order of
    what was kept: nothing stood in for the drop."""
    runner = Rewritten(mutant="held-appended-after-collected")
    try:
        dropped = CASES["RT-TOOL-6#c3/drop-warns-and-leaves-no-placeholder[in-a-resumed-run]"]
        assert _on(dropped, runner, "RT-TOOL-6#c3").outcome == "passed"
        merged = CASES["RT-TOOL-7#c2/held-prepended-on-resumed-message[one-held-one-own]"]
        assert _on(merged, runner, "RT-TOOL-7#c2").outcome == "failed"  # where it belongs
    finally:
        runner.close()


def test_a_refusal_of_other_arguments_blocks_the_pairing_it_prevents() -> None:
    """Against a runtime that refuses every call of an interrupted write's tool (DR-4 ¶2
    refuses only an identical retry), DR-1's pairing across runs never gets the done it
    pairs: it used to fail DR-1 ¶3 and ¶4; it is blocked by DR-4 ¶2, which fails."""
    runner = Rewritten(mutant="refusal-ignores-arguments")
    try:
        pairing = CASES["DR-1#c3/done-pairs-one-way-whatever-the-run-ids"]
        for clause in ("DR-1#c3", "DR-1#c4"):
            landed = _on(pairing, runner, clause)
            assert landed.outcome == "skipped" and "DR-4 ¶2" in landed.message, landed
        guard = CASES["DR-4#c2/guard-only-when-history-shows[other-arguments-beside]"]
        assert _on(guard, runner, "DR-4#c2").outcome == "failed"
    finally:
        runner.close()


def test_a_turn_not_continued_at_its_time_limit_blocks_what_needs_the_continuation() -> None:
    """Against a runtime that ends a turn at its time limit instead of continuing it
    (DR-5 ¶1's gap), the cases that need the continued run (the note's, the pairing's,
    the hard-block's, the guard's) used to fail DR-2 ¶2, DR-1 ¶3 and ¶4, DR-3 ¶2 and
    DR-4 ¶2; they are blocked by DR-5 ¶1, which fails."""
    runner = Rewritten(mutant="time-limit-ends-turn")
    try:
        blocked = [
            ("DR-2#c2/note-names-completed-with-results[string-results]", "DR-2#c2"),
            ("DR-1#c3/done-pairs-one-way-whatever-the-run-ids", "DR-1#c4"),
            ("DR-3#c2/completed-write-not-repeated[string-result]", "DR-3#c2"),
            ("DR-4#c2/guard-only-when-history-shows[next-chunk]", "DR-4#c2"),
        ]
        for case_id, clause in blocked:
            landed = _on(CASES[case_id], runner, clause)
            assert landed.outcome == "skipped" and "DR-5 ¶1" in landed.message, landed
        own = [case for case in _case("DR-5#c1/") if "DR-5#c1" in case.clauses]
        assert any(_on(case, runner, "DR-5#c1").outcome == "failed" for case in own)
    finally:
        runner.close()


def _reconciled_trace(mutant: str) -> tuple[object, object, Handshake]:
    """The counterexample a real framework gave: JSON text for an array and an object,
    and a doubly escaped title, none of them decoded."""
    # The bound on decoding passes is left unstated, as a framework that never decodes
    # would leave it: one pass is then a missing decoding, not a bound.
    runner = Rewritten(
        mutant=mutant,
        handshake=lambda found: dataclasses.replace(
            found, limits=dataclasses.replace(found.limits, normalize_passes=None)
        ),
    )
    try:
        made = scenario(
            "reconciled",
            tools=[
                tool(
                    "delta",
                    schema={
                        "type": "object",
                        "properties": {
                            "items": {"type": "array"},
                            "meta": {"type": "object"},
                            "title": {"type": "string"},
                        },
                    },
                )
            ],
            model=[
                calls(
                    call(
                        "delta",
                        {"items": "[1, 2]", "meta": '{"a": 1}', "title": "Ember &amp;amp; Oak"},
                        "c1",
                    )
                ),
                say("done"),
            ],
            steps=[StartTurn("t1")],
        )
        trace = runner.run(made)
        return made, trace, runner.handshake()
    finally:
        runner.close()


@pytest.mark.parametrize(
    ("mutant", "broken"),
    [
        ("entities-decoded-once", ("RT-TOOL-8#c4",)),
        ("json-string-arguments-never-decoded", ("RT-TOOL-8#c2",)),
        ("raw-arguments-reach-tool", ("RT-TOOL-8#c1",)),
    ],
)
def test_arguments_reconciled_charges_the_clause_its_counterexample_breaks(
    mutant: str, broken: tuple[str, ...]
) -> None:
    """``arguments-reconciled`` is bound to RT-TOOL-8 ¶1–¶5; it used to charge a missing
    decoding to all five, ¶3 (pass through unmodified) included, and then a missing
    repair to ¶1 beside the repair's own clause.  A reconciliation that left one repair
    undone breaks that repair's words; ¶1's are broken by a body handed other arguments
    than the reconciliation its result reports."""
    (reconciled,) = RT8_INVARIANTS
    made, trace, handshake = _reconciled_trace(mutant)
    reason = reconciled.judge(made, trace, handshake)  # type: ignore[arg-type]
    assert isinstance(reason, Breach)
    assert breached(reconciled, reason) == broken
    found = CaseOutcome(
        case_id="HUNT/arguments-reconciled",
        outcome="failed",
        message=str(reason),
        failures=tuple(Failure(str(reason), clause=clause) for clause in broken),
    )
    for clause in reconciled.clauses:
        landed = charged(found, clause)
        assert landed.outcome == ("failed" if clause in broken else "skipped"), clause


# --- ports a framework does not have: blocked, never failed --------------------------------


NO_WORK_PORTS = without_ports("executed_any", "executed", "skipped")
NO_ARTIFACT_PORT = without_ports("tool_artifacts")


@pytest.mark.parametrize(
    ("prefix", "clause", "prerequisite"),
    [
        ("RT-TOOL-10#c2/first-time-handling-is-work[", "RT-TOOL-10#c2", "RT-TOOL-10 ¶1"),
        ("RT-TOOL-10#c5/default-exposure[no-choices]", "RT-TOOL-10#c5", "RT-TOOL-10 ¶1"),
        ("RT-TOOL-10#c4/call-without-id-is-work", "RT-TOOL-10#c4", "RT-TOOL-10 ¶1"),
        ("RT-TOOL-3#c2/port-not-exposed-by-default[no-choice]", "RT-TOOL-3#c2", "RT-TOOL-3 ¶1"),
    ],
)
def test_a_missing_port_blocks_the_clauses_that_read_it(
    prefix: str, clause: str, prerequisite: str
) -> None:
    """A framework without RT-TOOL-10's (or RT-TOOL-3's) ports used to fail every clause
    whose checks read them; the port's absence is its own clause's failure."""
    gap = NO_ARTIFACT_PORT if prefix.startswith("RT-TOOL-3") else NO_WORK_PORTS
    runner = Rewritten(gap)
    for case in _case(prefix):
        landed = _on(case, runner, clause)
        assert landed.outcome == "skipped", (case.id, landed.message)
        assert landed.message.startswith(f"untested: blocked by {prerequisite}: "), landed.message


def test_the_port_clause_still_fails_on_its_own_words() -> None:
    runner = Rewritten(NO_WORK_PORTS)
    (case, *_) = _case("RT-TOOL-10#c1/executed-complements-skipped[")
    assert _on(case, runner, "RT-TOOL-10#c1").outcome == "failed"


def test_an_example_charges_its_port_to_the_clause_that_provides_it() -> None:
    """RT-TOOL-3's example is bound to ¶1 and ¶3; without the port, its message cites ¶1
    and the prose it checks for ¶3 holds: ¶3 used to fail on it."""
    runner = Rewritten(NO_ARTIFACT_PORT)
    (case,) = _case("RT-TOOL-3#e1/")
    assert _on(case, runner, "RT-TOOL-3#c1").outcome == "failed"
    assert _on(case, runner, "RT-TOOL-3#c3").outcome == "passed"


def test_an_approved_call_is_judged_on_what_ran() -> None:
    """RT-TOOL-9 ¶4 (an approved call runs once) used to fail with "the pass after the
    first approval reports executed null": the call ran, the port is RT-TOOL-10's."""
    runner = Rewritten(NO_WORK_PORTS)
    for case in [*_case("RT-TOOL-9#c4/recorded-only-once-returned["), *_case("RT-TOOL-9#e3/")]:
        assert _on(case, runner, "RT-TOOL-9#c4").outcome == "passed", case.id
    broken = Rewritten(mutant="gated-call-recorded-before-approval")
    try:
        for case in _case("RT-TOOL-9#c4/recorded-only-once-returned["):
            assert _on(case, broken, "RT-TOOL-9#c4").outcome == "failed", case.id
    finally:
        broken.close()


def test_a_repeat_that_ran_again_blocks_the_clause_that_reports_it() -> None:
    """RT-TOOL-9 ¶2 (the repeat is reported on `skipped`) has no repeat to report where
    the guard (¶1) ran it again: it used to fail there too."""
    runner = Rewritten(mutant="executed-calls-not-guarded")
    try:
        for case in _case("RT-TOOL-9#c2/repeat-reported-and-re-emitted["):
            landed = _on(case, runner, "RT-TOOL-9#c2")
            assert landed.message.startswith("untested: blocked by RT-TOOL-9 ¶1: "), case.id
        (vector,) = _case("RT-TOOL-9#e1/")
        assert _on(vector, runner, "RT-TOOL-9#c1").outcome == "failed"
        landed = _on(vector, runner, "RT-TOOL-9#c2")
        assert landed.message.startswith("untested: blocked by RT-TOOL-9 ¶1: "), landed.message
    finally:
        runner.close()


# --- generated call ids: the checks and the hunt agree --------------------------------------


@pytest.mark.parametrize("marked", [True, False], ids=["marked", "unmarked"])
def test_checks_and_hunt_agree_on_generated_ids(marked: bool) -> None:
    """A model seam that gives every id-less call an id of its own: the RT-TOOL-9 ¶5
    checks passed, and ``unguarded-always-runs`` said "0 ran" on the same trace."""
    runner = Rewritten(generated_ids(marked=marked))
    unguarded = next(i for i in RT9_INVARIANTS if i.name == "unguarded-always-runs")
    for case in _case("RT-TOOL-9#c5/call-without-id-always-runs["):
        judged = judge(case, runner)
        assert judged.verdict == "passed", judged.message  # the check passes ...
        assert judged.context is not None
        for made, trace in judged.context.evidence.runs:
            assert trace is not None
            verdict = unguarded.judge(made, trace, runner.handshake())
            assert verdict is None, (case.id, verdict)  # ... and the hunt agrees


def test_a_generated_id_is_still_not_guarded() -> None:
    """Marked or not, a made-up id never makes a call guarded: a guard keyed on it is
    still caught, by the checks and the hunt alike."""
    runner = Rewritten(generated_ids(marked=True), mutant="call-without-id-guarded-by-content")
    unguarded = next(i for i in RT9_INVARIANTS if i.name == "unguarded-always-runs")
    try:
        (case, *_) = _case("RT-TOOL-9#c5/call-without-id-always-runs[two-passes]")
        outcome = _outcome(case, runner)
        assert outcome.outcome == "failed"
        judged = judge(case, runner)
        assert judged.verdict == "failed" and judged.context is not None
        made, trace = judged.context.evidence.runs[-1]
        assert trace is not None
        assert unguarded.judge(made, trace, runner.handshake()) is not None
    finally:
        runner.close()


# --- bounds: unbounded is not "not stated" --------------------------------------------------


def _limits(**values: object) -> Rewritten:
    def replace(handshake: Handshake) -> Handshake:
        return dataclasses.replace(handshake, limits=Limits(**values))  # type: ignore[arg-type]

    return Rewritten(handshake=replace)


def test_an_unbounded_runtime_fails_the_run_bound_clause() -> None:
    """``limits`` that stated nothing meant both "unbounded" and "not stated": the clause
    that forbids an unbounded run was reported untested for a runtime with no bound."""
    (case,) = _case("RT-TOOL-6#c1/run-collection-is-bounded")
    unbounded = _limits(unbounded=("run_artifacts", "run_bytes"))
    assert _on(case, unbounded, "RT-TOOL-6#c1").outcome == "failed"
    silent = _limits()
    landed = _on(case, silent, "RT-TOOL-6#c1")
    assert (landed.outcome, landed.skip_kind) == ("skipped", "untested")
    assert _on(case, reference(), "RT-TOOL-6#c1").outcome == "passed"


def _approved_call_alone(run: RunRecord) -> RunRecord:
    """A framework that resumes by running the approved call alone: the calls that had
    returned before the pause never reach its guard again (their results stay where the
    model reads them, in the history it is given)."""
    if run.cause != "approve":
        return run
    passes = tuple(
        dataclasses.replace(
            one,
            results=tuple(r for r in one.results if r.disposition != "skipped"),
            tool_messages=tuple(
                m
                for m in one.tool_messages
                if mapping(m).get("tool_call_id")
                in {r.tool_call_id for r in one.results if r.disposition != "skipped"}
            ),
        )
        for one in run.passes
    )
    return dataclasses.replace(run, passes=passes)


def test_a_batch_never_re_issued_leaves_no_repeat_to_re_emit() -> None:
    """RT-TOOL-9 ¶3 (re-emit rather than drop) used to fail a framework that never
    re-issues the batch on resume, where the model is still given every declared call's
    result; a runtime that drops a re-issued repeat's message still fails it."""
    runner = Rewritten(_approved_call_alone)
    for case in _case("RT-TOOL-9#c3/no-declared-call-left-unanswered["):
        assert _on(case, runner, "RT-TOOL-9#c3").outcome == "passed", case.id
    dropped = Rewritten(mutant="repeat-message-dropped")
    try:
        for case in _case("RT-TOOL-9#c3/no-declared-call-left-unanswered["):
            assert _on(case, dropped, "RT-TOOL-9#c3").outcome == "failed", case.id
    finally:
        dropped.close()


class _StatesLimits:
    """The reference harness, its handshake's ``limits`` replaced."""

    def __init__(self, limits: dict[str, object]) -> None:
        from reference_impl.harness import ReferenceHarness

        self._inner = ReferenceHarness(None)
        self._limits = limits

    def request(self, message: Message) -> Message:
        reply = self._inner.request(message)
        return {**reply, "limits": self._limits} if message.get("cmd") == "hello" else reply


def test_the_handshake_states_an_unbounded_runtime_apart_from_a_silent_one() -> None:
    said = Driver(InProcessConnection("states", _StatesLimits({"unbounded": ["run_artifacts"]})))
    try:
        limits = said.handshake().limits
        assert limits.stated("run_artifacts") and not limits.stated("run_bytes")
    finally:
        said.close()
    both = Driver(
        InProcessConnection(
            "both", _StatesLimits({"run_artifacts": 5, "unbounded": ["run_artifacts"]})
        )
    )
    try:
        with pytest.raises(SchemaViolation, match="says it has none"):
            both.handshake()
    finally:
        both.close()


PASS = {
    "batch": [],
    "ports": {},
    "exposed": {},
    "results": [],
    "tool_messages": [],
    "outcome": None,
}


def test_a_generated_id_travels_on_the_wire() -> None:
    """``generated_id`` is part of the trace schema and the model, within protocol 1."""
    record = {
        "tool": "t",
        "tool_call_id": "gen-1",
        "disposition": "executed",
        "result": {"success": True, "data": None, "error": None},
        "generated_id": True,
    }
    check_inbound(
        "trace#/$defs/pass", {**PASS, "results": [record]}, implementation="t", request="t"
    )
    decoded = from_json(ToolResultRecord, record)
    assert decoded.generated_id is True and decoded.model_call_id is None
    assert to_json(decoded) == record


# --- RT-TOOL-10 ¶4: a batch of only malformed calls that leaves no pass -------------------


@pytest.mark.parametrize("variant", ["not-a-map", "name-not-a-scalar"])
def test_malformed_only_batch_without_a_pass_is_untested(variant: str) -> None:
    """A framework whose tool step never runs for a reply without (well-formed) calls
    reported no pass over a batch of only malformed calls, and RT-TOOL-10 ¶4 failed with
    "1 batches were sent, 0 tool passes reported": nothing shows where the calls were
    dropped, so the case is untested; a batch that keeps a well-formed call is still
    judged, and a pass that answers a malformed call still fails."""
    runner = Rewritten(no_pass_without_calls())
    try:
        case = CASES[f"RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[{variant}]"]
        found = _on(case, runner, "RT-TOOL-10#c4")
        assert found.outcome == "skipped", found.message
        assert "only malformed calls" in found.message
        beside = CASES["RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[beside-a-repeat]"]
        assert _on(beside, runner, "RT-TOOL-10#c4").outcome == "passed"
    finally:
        runner.close()
    answered = Rewritten(mutant="malformed-calls-counted-as-work")
    try:
        blank = CASES["RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[blank-name]"]
        assert _on(blank, answered, "RT-TOOL-10#c4").outcome == "failed"
    finally:
        answered.close()
