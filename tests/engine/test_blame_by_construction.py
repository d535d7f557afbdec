"""A failure belongs to the clause whose words it breaks, by construction: a case's
failure seen through a channel that does not hold in its trace is the channel's clause's,
and a clause is never failed by a case that reached none of the situations it names."""

from __future__ import annotations

from dataclasses import replace

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.engine import Case, CaseOutcome, charged, judge
from conformance.toolkit import CheckContext, call, calls, one_turn, say, tool
from conformance.toolkit.machinery import Channel, Failure
from tests.conformance._support import reference_driver

OWN, OTHER = "RT-TOOL-1#c3", "RT-TOOL-4#c1"


def _never(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return "the trace shows it broken"


def _always(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return None


BROKEN = Channel("a channel the trace breaks", OTHER, _never)
SOUND = Channel("a channel that holds", OTHER, _always)
ASSUMED = Channel("the calls of a batch ran in order", None, _never)


def _failing(ctx: CheckContext) -> None:
    one_turn(ctx, "blame-probe", tools=[tool("t")], model=[calls(call("t")), say("done")])
    ctx.expect(False, "observed something wrong", at="/steps/0")


def _case(*through: Channel, clauses: tuple[str, ...] = (OWN,)) -> Case:
    return Case(f"{clauses[0]}/probe", "probe", "check", clauses, "probe", _failing, through)


def test_a_failure_seen_through_a_broken_channel_is_its_clauses_not_the_cases() -> None:
    judged = judge(_case(BROKEN), reference_driver())
    assert judged.verdict == "untested"
    assert judged.message.startswith("untested: blocked by RT-TOOL-4 ¶1: it observes through ")
    assert "the trace shows it broken" in judged.message
    assert judged.outcome.blocked == {OWN: judged.message.removeprefix("untested: ")}


def test_a_channel_that_holds_leaves_the_failure_standing() -> None:
    judged = judge(_case(SOUND), reference_driver())
    assert judged.verdict == "failed" and judged.message.startswith("observed something wrong")


def test_a_case_judging_the_channels_own_clause_is_never_blocked_by_it() -> None:
    judged = judge(_case(BROKEN, clauses=(OTHER,)), reference_driver())
    assert judged.verdict == "failed"


def test_an_assumption_the_trace_breaks_leaves_the_case_untested_naming_it() -> None:
    judged = judge(_case(ASSUMED), reference_driver())
    assert judged.verdict == "untested"
    assert "it assumes the calls of a batch ran in order" in judged.message


def test_a_clause_whose_situations_no_trace_reached_is_never_failed() -> None:
    failed = CaseOutcome(
        case_id="X", outcome="failed", message="m", failures=(Failure("m"),), reached={OWN: ()}
    )
    landed = charged(failed, OWN, ("a call that attached an artifact",))
    assert (landed.outcome, landed.skip_kind) == ("skipped", "untested")
    assert "reached none of the situations RT-TOOL-1 ¶3 names" in landed.message
    reached = CaseOutcome(
        case_id="X",
        outcome="failed",
        message="m",
        failures=(Failure("m"),),
        reached={OWN: ("a call that attached an artifact",)},
    )
    assert charged(reached, OWN, ("a call that attached an artifact",)).outcome == "failed"
    assert charged(failed, OWN, ()).outcome == "failed"  # a clause that names none
    # A case that read no trace (it judged what the handshake declares) records no
    # situations at all: its failure stands.
    declared = replace(failed, reached={})
    assert charged(declared, OWN, ("a call that attached an artifact",)).outcome == "failed"
