"""Blame by construction on the tool-call rules (RT-TOOL-8, 9, 10).

Each test plays a runtime shape (``reference_impl/shapes/``), a mutant or a rewritten
trace with one real gap, and holds the suite to charging it to the clause whose words it
breaks: every other clause's case that observes through the broken channel (the guard of
RT-TOOL-9 ¶1, the ports of RT-TOOL-10 ¶1, the answer to an unwired call of ¶2, the pass
over a call without an identifier of ¶4, the two repairs of RT-TOOL-8) is blocked by that
clause, never failed.  Each failed on the old code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import pytest

from adapters import Driver, connect
from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, RunRecord, Trace
from conformance.checks.rt_tool_9.invariants import INVARIANTS as RT9_INVARIANTS
from conformance.checks.rt_tool_10.invariants import INVARIANTS as RT10_INVARIANTS
from conformance.engine import Case, CaseOutcome, Suite, charged, judge
from conformance.hunt import breached
from conformance.rules import load_corpus
from conformance.toolkit import Breach, mapping
from tests.conformance._support import REFERENCE

CASES = {case.id: case for case in Suite.over(load_corpus()).cases()}

RunRewrite = Callable[[RunRecord], RunRecord]
#: What the ``played`` fixture hands a test: a maker of runners, closed after the test.
Make = Callable[..., "Played"]


class Played:
    """A shape, a mutant or the reference runtime, each run's record passed through
    ``rewrite`` (a harness that reports its runtime so)."""

    def __init__(self, query: str = "", rewrite: RunRewrite | None = None) -> None:
        self._driver = Driver(connect(f"{REFERENCE}{query}"))
        self._rewrite = rewrite

    def handshake(self) -> Handshake:
        return self._driver.handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = self._driver.run(scenario)
        if isinstance(trace, Unsupported) or self._rewrite is None:
            return trace
        rewrite = self._rewrite
        steps = tuple(
            dataclasses.replace(step, runs=tuple(rewrite(run) for run in step.runs))
            for step in trace.steps
        )
        return dataclasses.replace(trace, steps=steps)

    def close(self) -> None:
        self._driver.close()


@pytest.fixture
def played() -> Iterator[Make]:
    made: list[Played] = []

    def make(query: str = "", rewrite: RunRewrite | None = None) -> Played:
        made.append(Played(query, rewrite))
        return made[-1]

    yield make
    for one in made:
        one.close()


def _cases(prefix: str) -> list[Case]:
    found = [case for case in CASES.values() if case.id.startswith(prefix)]
    assert found, prefix
    return found


def _on(case: Case, runner: Played, clause: str) -> CaseOutcome:
    judged = judge(case, runner)
    assert judged.verdict in ("passed", "failed", "untested"), (case.id, judged.message)
    return charged(judged.outcome, clause)


def _blocked(case: Case, runner: Played, clause: str, by: str) -> None:
    landed = _on(case, runner, clause)
    assert landed.outcome == "skipped", (case.id, landed.message)
    assert landed.message.startswith(f"untested: blocked by {by}: "), (case.id, landed.message)


# --- RT-TOOL-10 ¶1's ports ---------------------------------------------------------------


def test_a_node_without_the_work_ports_fails_their_clause_alone(played: Make) -> None:
    """The shape no-work-ports (skipped stays, executed_any and executed are gone): the
    old prerequisite asked for any one of the three ports, found skipped, and let ¶2 to
    ¶5 fail on "executed_any null"."""
    runner = played("?shape=no-work-ports")
    for prefix, clause in (
        ("RT-TOOL-10#c2/", "RT-TOOL-10#c2"),
        ("RT-TOOL-10#c3/", "RT-TOOL-10#c3"),
        ("RT-TOOL-10#c4/call-without-id-is-work-on-neither-list[absent]", "RT-TOOL-10#c4"),
        ("RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[blank-name]", "RT-TOOL-10#c4"),
        ("RT-TOOL-10#c5/", "RT-TOOL-10#c5"),
    ):
        for case in _cases(prefix):
            _blocked(case, runner, clause, "RT-TOOL-10 ¶1")
    (own, *_) = _cases("RT-TOOL-10#c1/executed-complements-skipped[")
    assert _on(own, runner, "RT-TOOL-10#c1").outcome == "failed"
    # What needs no port is still judged: the calls around a malformed one are answered.
    for case in _cases("RT-TOOL-10#c4/malformed-call-leaves-the-rest-of-the-batch["):
        assert _on(case, runner, "RT-TOOL-10#c4").outcome == "passed", case.id


# --- RT-TOOL-9 ¶1's guard ----------------------------------------------------------------


@pytest.mark.parametrize("shape", ["no-executed-call-record", "guard-forgets-across-a-pause"])
def test_a_repeat_that_ran_again_blocks_every_clause_that_reads_the_repeat(
    played: Make,
    shape: str,
) -> None:
    """A guard that keeps no record (or forgets it at a pause) ran the call that returned
    before the gate again: RT-TOOL-9 ¶3, ¶4 and RT-TOOL-10 ¶1 used to fail on "do_thing
    ran 2 times" and "executed lists call_a"; they are blocked by ¶1, which fails."""
    runner = played(f"?shape={shape}")
    blocked = [
        ("RT-TOOL-9#c3/no-declared-call-left-unanswered[two-gates]", "RT-TOOL-9#c3"),
        ("RT-TOOL-9#c4/recorded-only-once-returned[gate-last]", "RT-TOOL-9#c4"),
        ("RT-TOOL-9#c4/recorded-only-once-returned[two-gates]", "RT-TOOL-9#c4"),
        ("RT-TOOL-9#e3/resumed-mixed", "RT-TOOL-9#c4"),
        ("RT-TOOL-10#c1/executed-complements-skipped[after-an-answer]", "RT-TOOL-10#c1"),
    ]
    for case_id, clause in blocked:
        _blocked(CASES[case_id], runner, clause, "RT-TOOL-9 ¶1")
    own = CASES["RT-TOOL-9#c1/recorded-call-not-invoked-again[after-an-answer]"]
    assert _on(own, runner, "RT-TOOL-9#c1").outcome == "failed"


def test_a_gated_call_recorded_before_approval_still_fails_its_own_clause(played: Make) -> None:
    """The guard's channel holds where nothing ran twice: ¶4's own gap is still ¶4's."""
    runner = played("?mutant=gated-call-recorded-before-approval")
    for case in _cases("RT-TOOL-9#c4/recorded-only-once-returned["):
        assert _on(case, runner, "RT-TOOL-9#c4").outcome == "failed", case.id


# --- RT-TOOL-10 ¶2's answer to an unwired call --------------------------------------------


@pytest.mark.parametrize("shape", ["unknown-tool-dropped", "unknown-tool-fails-the-run"])
def test_an_unwired_call_left_unanswered_is_the_clause_of_unwired_calls(
    played: Make,
    shape: str,
) -> None:
    """A runtime that drops a call naming an unwired tool, or fails the run on it: ¶1
    used to fail on "executed lacks call_u" and ¶4 on the numeric name (dropped with the
    other unwired calls); both are blocked by ¶2, which fails."""
    runner = played(f"?shape={shape}")
    for case_id, clause in (
        ("RT-TOOL-10#c1/executed-complements-skipped[every-kind-of-result]", "RT-TOOL-10#c1"),
        (
            "RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[numeric-name-is-a-scalar]",
            "RT-TOOL-10#c4",
        ),
    ):
        _blocked(CASES[case_id], runner, clause, "RT-TOOL-10 ¶2")
    own = judge(CASES["RT-TOOL-10#c2/first-time-handling-is-work[unwired-tool]"], runner)
    assert own.verdict == "failed", own.message


def test_a_numeric_name_dropped_as_malformed_is_still_the_malformed_clause(played: Make) -> None:
    """Beside the numeric name, a call naming an unwired tool by a string is answered: the
    runtime answers unwired calls, and dropping the number is ¶4's gap."""
    runner = played("?mutant=numeric-name-dropped-as-malformed")
    case = CASES["RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[numeric-name-is-a-scalar]"]
    assert _on(case, runner, "RT-TOOL-10#c4").outcome == "failed"


# --- calls without an identifier: RT-TOOL-9 ¶5 and RT-TOOL-10 ¶4 ---------------------------


def test_a_run_failed_on_a_call_without_an_id_is_the_clause_of_such_calls(played: Make) -> None:
    """The shape unidentified-call-fails-the-run (and the OpenAI Agents SDK for JavaScript:
    a ModelBehaviorError after the body ran): RT-TOOL-9 ¶5 used to fail with "sent 2
    times, ran 1", counting batches the model was never asked for, and a second call of
    the batch the failed run never reached; RT-TOOL-10 ¶4 said "2 batches were sent"."""
    runner = played("?shape=unidentified-call-fails-the-run")
    _blocked(
        CASES["RT-TOOL-9#c5/call-without-id-always-runs[twice-in-one-batch]"],
        runner,
        "RT-TOOL-9#c5",
        "RT-TOOL-10 ¶4",
    )
    for variant in ("two-passes", "three-passes", "null-identifier"):
        landed = _on(
            CASES[f"RT-TOOL-9#c5/call-without-id-always-runs[{variant}]"], runner, "RT-TOOL-9#c5"
        )
        assert landed.outcome == "skipped", landed.message
        assert "never sent again" in landed.message, landed.message
    sent_again = judge(
        CASES["RT-TOOL-10#c4/call-without-id-is-work-on-neither-list[sent-again]"], runner
    )
    assert sent_again.verdict == "failed"
    assert "the run ended failed in the pass" in sent_again.message, sent_again.message


def test_a_guard_keyed_on_content_still_fails_the_clause_of_calls_without_ids(played: Make) -> None:
    runner = played("?mutant=call-without-id-guarded-by-content")
    case = CASES["RT-TOOL-9#c5/call-without-id-always-runs[two-passes]"]
    assert _on(case, runner, "RT-TOOL-9#c5").outcome == "failed"


def _unidentified_results(change: Callable[[PassRecord], PassRecord]) -> RunRewrite:
    def rewrite(run: RunRecord) -> RunRecord:
        return dataclasses.replace(run, passes=tuple(change(one) for one in run.passes))

    return rewrite


def _refused_by_validation(one: PassRecord) -> PassRecord:
    """A framework whose validation refuses the call without an id (no body runs)."""
    results = tuple(
        dataclasses.replace(r, disposition="invalid") if r.tool_call_id is None else r
        for r in one.results
    )
    return dataclasses.replace(one, results=results)


def _output_discarded(one: PassRecord) -> PassRecord:
    """A framework that runs the body of a call without an id and discards its output."""
    return dataclasses.replace(
        one, results=tuple(r for r in one.results if r.tool_call_id is not None)
    )


@pytest.mark.parametrize("change", [_refused_by_validation, _output_discarded])
def test_a_call_without_an_id_that_was_handled_is_not_held_to_have_been_guarded(
    played: Make,
    change: Callable[[PassRecord], PassRecord],
) -> None:
    """``unguarded-always-runs`` counted "ran" from executed results only: a call refused
    by validation, or whose body ran and whose output was discarded, was "not run"."""
    runner = played("", _unidentified_results(change))
    unguarded = next(i for i in RT9_INVARIANTS if i.name == "unguarded-always-runs")
    judged = judge(CASES["RT-TOOL-9#c5/call-without-id-always-runs[two-passes]"], runner)
    assert judged.context is not None
    made, trace = judged.context.evidence.runs[-1]
    assert trace is not None
    assert unguarded.judge(made, trace, runner.handshake()) is None


# --- RT-TOOL-9: the guard is per conversation, looked up by id ---------------------------


def test_the_conversation_guard_finds_calls_by_id_not_by_arguments(played: Make) -> None:
    """A framework whose tools take no undeclared argument ran call_0 in each
    conversation with an empty input: the check looked for the `customer` argument and
    said "never ran"."""

    def arguments_dropped(run: RunRecord) -> RunRecord:
        effects = tuple({**mapping(e), "input": {}} for e in run.side_effects)
        return dataclasses.replace(run, side_effects=effects)

    runner = played("", arguments_dropped)
    case = CASES["RT-TOOL-9#c1/guard-keeps-to-its-own-conversation"]
    assert _on(case, runner, "RT-TOOL-9#c1").outcome == "passed"
    broken = played("?mutant=guard-keyed-globally")
    assert _on(case, broken, "RT-TOOL-9#c1").outcome == "failed"


# --- RT-TOOL-9 ¶3, ¶4: one decision for every gate ---------------------------------------


def test_one_decision_for_every_gate_is_exercised_and_conforms(played: Make) -> None:
    """The two gated calls of [two-gates] ask for different things, so a runtime deciding
    every pending gate with one approval decides both: its second approve step is
    refused, and the cases still conform (on the old code the two asked the same, and the
    shape's one decision never reached the second)."""
    runner = played("?shape=one-decision-for-every-gate")
    for prefix, clause in (
        ("RT-TOOL-9#c3/no-declared-call-left-unanswered[two-gates]", "RT-TOOL-9#c3"),
        ("RT-TOOL-9#c4/recorded-only-once-returned[two-gates]", "RT-TOOL-9#c4"),
    ):
        judged = judge(CASES[prefix], runner)
        assert judged.verdict == "passed", judged.message
        assert judged.context is not None
        _, trace = judged.context.evidence.runs[-1]
        assert trace is not None
        assert [step.outcome for step in trace.steps] == ["ok", "ok", "refused"], clause


def _second_gate_never_ran(run: RunRecord) -> RunRecord:
    """A runtime that decides every pending gate at once, from one approval, and runs the
    first only (what it made of the second, the trace does not say)."""
    effects = tuple(e for e in run.side_effects if mapping(e).get("tool_call_id") != "call_gate_2")
    return dataclasses.replace(run, side_effects=effects)


def test_an_approval_the_runtime_refused_leaves_what_it_approved_untested(played: Make) -> None:
    """Agno's shape: RT-TOOL-9 ¶4 [two-gates] said an approved call "never ran" where the
    runtime had refused the second approve step: one decision per approve step is the
    check's assumption, not a clause's promise."""
    runner = played("?shape=one-decision-for-every-gate", _second_gate_never_ran)
    landed = _on(
        CASES["RT-TOOL-9#c4/recorded-only-once-returned[two-gates]"], runner, "RT-TOOL-9#c4"
    )
    assert landed.outcome == "skipped", landed.message
    assert "it assumes one decision per approve step" in landed.message, landed.message


# --- RT-TOOL-8: the two repairs, and what ¶1 says of its own -------------------------------


def test_a_missing_json_decoding_is_the_decoding_clause(played: Make) -> None:
    """The shape no-json-text-decoding: ¶1 used to fail on "the tool body did not run"
    (the undecoded array failed the schema; the result reports the arguments), and ¶4 on
    a JSON text whose references were decoded; both are blocked by ¶2, which fails."""
    runner = played("?shape=no-json-text-decoding")
    for case in _cases("RT-TOOL-8#c1/reconciled-before-invocation["):
        _blocked(case, runner, "RT-TOOL-8#c1", "RT-TOOL-8 ¶2")
    leaf = CASES["RT-TOOL-8#c4/character-references-decoded-until-stable[every-string-leaf]"]
    _blocked(leaf, runner, "RT-TOOL-8#c4", "RT-TOOL-8 ¶2")
    (own, *_) = _cases("RT-TOOL-8#c2/json-decoded-when-all-three-hold[")
    assert _on(own, runner, "RT-TOOL-8#c2").outcome == "failed"


def test_a_missing_reference_decoding_is_the_reference_clause(played: Make) -> None:
    runner = played("?shape=no-reference-decoding")
    for case in _cases("RT-TOOL-8#c1/reconciled-before-invocation["):
        _blocked(case, runner, "RT-TOOL-8#c1", "RT-TOOL-8 ¶4")
    own = CASES["RT-TOOL-8#c4/character-references-decoded-until-stable[doubly-escaped]"]
    assert _on(own, runner, "RT-TOOL-8#c4").outcome == "failed"


def test_a_body_handed_raw_arguments_is_still_the_invocation_clause(played: Make) -> None:
    runner = played("?mutant=raw-arguments-reach-tool")
    for case in _cases("RT-TOOL-8#c1/reconciled-before-invocation["):
        assert _on(case, runner, "RT-TOOL-8#c1").outcome == "failed", case.id


def _undeclared_dropped(run: RunRecord) -> RunRecord:
    """A framework whose tools take only the arguments their schema declares, with a
    schema that declares no `title`: the argument never reaches the body."""

    def drop(value: object) -> object:
        return {k: v for k, v in mapping(value).items() if k != "title"}

    effects = tuple(
        {**mapping(e), "input": drop(mapping(e).get("input"))} for e in run.side_effects
    )
    passes = tuple(
        dataclasses.replace(
            one,
            results=tuple(
                dataclasses.replace(r, arguments=drop(r.arguments))
                if r.arguments is not None
                else r
                for r in one.results
            ),
        )
        for one in run.passes
    )
    return dataclasses.replace(run, side_effects=effects, passes=passes)


def test_an_argument_dropped_is_the_keys_clause_not_the_references_clause(played: Make) -> None:
    """smolagents and LlamaIndex dropped arguments their tools did not declare: ¶4 said
    "the argument title is missing".  Its cases now declare what they send, and an
    argument dropped all the same blocks them on ¶5 ("Keys are never modified")."""
    case = CASES["RT-TOOL-8#c4/character-references-decoded-until-stable[doubly-escaped]"]
    judged = judge(case, played())
    assert judged.verdict == "passed" and judged.context is not None
    made, _ = judged.context.evidence.runs[-1]
    for tool in made.tools:
        declared = mapping(mapping(tool.input_schema).get("properties"))
        assert "title" in declared, "the case declares the argument it sends"
    _blocked(case, played("", _undeclared_dropped), "RT-TOOL-8#c4", "RT-TOOL-8 ¶5")


def test_literals_a_lenient_parser_reads_are_sent_to_string_parameters(played: Make) -> None:
    """The issue's item: no case sent "true", "false", "null", "None", "0" and "[]" to
    `string` parameters.  Turning them into values is a decoding: ¶3's words ("A
    parameter declared `string` is never decoded"), the clause the shape names; ¶5 is
    not charged with it."""
    case = CASES["RT-TOOL-8#c3/otherwise-passed-through[literals-a-lenient-parser-reads]"]
    assert _on(case, played(), "RT-TOOL-8#c3").outcome == "passed"
    judged = judge(case, played())
    assert judged.context is not None
    made, _ = judged.context.evidence.runs[-1]
    (reply, *_) = made.model
    sent = mapping(mapping((reply.tool_calls or ({},))[0]).get("args"))
    assert {"true", "false", "null", "None", "0", "[]"} <= set(map(str, sent.values()))
    coerced = played("?shape=string-literals-coerced")
    assert _on(case, coerced, "RT-TOOL-8#c3").outcome == "failed"
    for one in _cases("RT-TOOL-8#c5/"):
        assert _on(one, coerced, "RT-TOOL-8#c5").outcome == "passed", one.id


def test_a_union_left_undecoded_is_a_reading_the_text_allows(played: Make) -> None:
    """``"type": ["array", "null"]`` is not the word `array` to a runtime that compares
    the declared type with it: ¶2 used to fail it (docs/interpretations.md, union-types)."""
    case = CASES["RT-TOOL-8#c2/json-decoded-when-all-three-hold[union-types]"]
    assert _on(case, played("?variant=unions-left-undecoded"), "RT-TOOL-8#c2").outcome == "passed"
    never = played("?mutant=json-string-arguments-never-decoded")
    assert (
        _on(
            CASES["RT-TOOL-8#c2/json-decoded-when-all-three-hold[array-and-object]"],
            never,
            "RT-TOOL-8#c2",
        ).outcome
        == "failed"
    )


def test_two_gated_calls_under_one_id_may_run_on_one_approval(played: Make) -> None:
    """No clause says what one consent covers (docs/interpretations.md,
    gated-calls-sharing-an-id): the variant that keys it by the call's identifier runs
    both calls on one approval, and the gated cases conform."""
    runner = played("?variant=consent-keyed-by-call-id")
    for case in [
        *_cases("RT-TOOL-9#c3/no-declared-call-left-unanswered["),
        *_cases("RT-TOOL-9#c4/recorded-only-once-returned["),
    ]:
        assert judge(case, runner).verdict == "passed", case.id


# --- catalogue mutants whose blame spilled onto a neighbouring clause ----------------------


@pytest.mark.parametrize(
    ("mutant", "case_id", "clause", "by"),
    [
        # executed lists the skipped repeats too: the lists are ¶1's, not ¶2's or ¶4's
        (
            "executed-lists-skipped-calls",
            "RT-TOOL-10#c2/all-repeat-pass-is-idle[second-pass]",
            "RT-TOOL-10#c2",
            None,
        ),
        (
            "executed-lists-skipped-calls",
            "RT-TOOL-10#c4/call-without-id-is-work-on-neither-list[beside-a-repeat]",
            "RT-TOOL-10#c4",
            None,
        ),
        # executed_any only for a success: its value is ¶2's, not ¶1's or ¶4's
        (
            "work-means-a-success",
            "RT-TOOL-10#c1/executed-complements-skipped[every-kind-of-result]",
            "RT-TOOL-10#c1",
            None,
        ),
        (
            "work-means-a-success",
            "RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[numeric-name-is-a-scalar]",
            "RT-TOOL-10#c4",
            None,
        ),
        # a repeat counted as work: beside malformed calls, the pass of the repeat alone
        # shows it is ¶2's
        (
            "repeats-counted-as-work",
            "RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[beside-a-repeat]",
            "RT-TOOL-10#c4",
            "RT-TOOL-10 ¶2",
        ),
        # a gated call recorded as it paused: declined, it looks like a repeat (RT-TOOL-9 ¶4)
        (
            "gated-call-recorded-before-approval",
            "RT-TOOL-10#c2/first-time-handling-is-work[declined-call]",
            "RT-TOOL-10#c2",
            "RT-TOOL-9 ¶4",
        ),
        # a call without an id guarded by its content: skipped, it did no work (RT-TOOL-9 ¶5)
        (
            "call-without-id-guarded-by-content",
            "RT-TOOL-10#c4/call-without-id-is-work-on-neither-list[sent-again]",
            "RT-TOOL-10#c4",
            "RT-TOOL-9 ¶5",
        ),
        # RT-TOOL-9's example names the executed output: RT-TOOL-10 ¶1's port
        (
            "executed-lists-skipped-calls",
            "RT-TOOL-9#e3/resumed-mixed",
            "RT-TOOL-9#c4",
            "RT-TOOL-10 ¶1",
        ),
        # the repeat's message dropped: ¶3's, and ¶2 has nothing to compare
        (
            "repeat-message-dropped",
            "RT-TOOL-9#c2/repeat-reported-and-re-emitted[stored-success]",
            "RT-TOOL-9#c2",
            "RT-TOOL-9 ¶3",
        ),
        # the body handed the raw arguments: ¶1's, the repairs' checks read the body
        (
            "raw-arguments-reach-tool",
            "RT-TOOL-8#c2/json-decoded-when-all-three-hold[array-and-object]",
            "RT-TOOL-8#c2",
            "RT-TOOL-8 ¶1",
        ),
        (
            "raw-arguments-reach-tool",
            "RT-TOOL-8#c4/character-references-decoded-until-stable[doubly-escaped]",
            "RT-TOOL-8#c4",
            "RT-TOOL-8 ¶1",
        ),
        # one decoding pass where a declared bound of one is below the floor of two
        (
            "entities-decoded-once",
            "RT-TOOL-8#c1/reconciled-before-invocation[first-call]",
            "RT-TOOL-8#c1",
            "RT-TOOL-8 ¶4",
        ),
        # the run failed on a JSON text that does not parse before its references do
        (
            "unparsable-argument-fails-the-run",
            "RT-TOOL-8#c4/character-references-decoded-until-stable[escaped-json-text]",
            "RT-TOOL-8#c4",
            "RT-TOOL-8 ¶3",
        ),
        # plain text trimmed: a decoded value's text is ¶5's
        (
            "plain-text-whitespace-trimmed",
            "RT-TOOL-8#c2/json-decoded-when-all-three-hold[whitespace-escapes-and-non-ascii]",
            "RT-TOOL-8#c2",
            "RT-TOOL-8 ¶5",
        ),
        (
            "plain-text-whitespace-trimmed",
            "RT-TOOL-8#c4/character-references-decoded-until-stable[non-ascii-around-references]",
            "RT-TOOL-8#c4",
            None,
        ),
    ],
)
def test_a_mutant_is_charged_to_its_own_clause_only(
    played: Make, mutant: str, case_id: str, clause: str, by: str | None
) -> None:
    """Each case used to fail against the mutant, whose gap is another clause's."""
    runner = played(f"?mutant={mutant}")
    if by is None:
        assert _on(CASES[case_id], runner, clause).outcome == "passed"
    else:
        _blocked(CASES[case_id], runner, clause, by)


@pytest.mark.parametrize(
    ("mutant", "broken"),
    [
        ("repeat-left-out-of-outcome", ("RT-TOOL-9#c2",)),
        ("repeat-message-dropped", ("RT-TOOL-9#c3",)),
    ],
)
def test_the_re_emission_invariant_charges_the_clause_its_counterexample_breaks(
    played: Make, mutant: str, broken: tuple[str, ...]
) -> None:
    """``repeat-re-emitted`` is bound to RT-TOOL-9 ¶2 and ¶3; it charged both for any
    finding: an outcome that leaves the repeat out is ¶2's ("counted in the batch's
    outcome"), a message dropped ¶3's ("Re-emitting rather than dropping is required")."""
    invariant = next(i for i in RT9_INVARIANTS if i.name == "repeat-re-emitted")
    runner = played(f"?mutant={mutant}")
    judged = judge(CASES["RT-TOOL-9#c2/repeat-reported-and-re-emitted[stored-success]"], runner)
    assert judged.context is not None
    made, trace = judged.context.evidence.runs[-1]
    assert trace is not None
    reason = invariant.judge(made, trace, runner.handshake())
    assert isinstance(reason, Breach), reason
    assert breached(invariant, reason) == broken


@pytest.mark.parametrize(
    ("mutant", "case_id", "broken"),
    [
        (
            "work-missed-beside-a-repeat",
            "RT-TOOL-10#c4/call-without-id-is-work-on-neither-list[beside-a-repeat]",
            ("RT-TOOL-10#c4",),
        ),
        (
            "malformed-calls-counted-as-work",
            "RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[blank-name]",
            ("RT-TOOL-10#c4",),
        ),
        (
            "repeats-counted-as-work",
            "RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[beside-a-repeat]",
            ("RT-TOOL-10#c2",),
        ),
    ],
)
def test_the_work_invariant_charges_the_clause_its_counterexample_breaks(
    played: Make, mutant: str, case_id: str, broken: tuple[str, ...]
) -> None:
    """``work-reported`` charged any executed_any at odds with the results to ¶2 (¶3 for
    an empty batch): a call without an id left unreported, and malformed calls reported
    as work, are ¶4's words; beside a repeat reported as work too, the repeat's (¶2)."""
    (invariant,) = RT10_INVARIANTS
    runner = played(f"?mutant={mutant}")
    judged = judge(CASES[case_id], runner)
    assert judged.context is not None
    made, trace = judged.context.evidence.runs[-1]
    assert trace is not None
    reason = invariant.judge(made, trace, runner.handshake())
    assert isinstance(reason, Breach), reason
    assert breached(invariant, reason) == broken
