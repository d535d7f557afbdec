"""RT-TOOL-1..4: a clause conforms only when passing cases reached each situation its text
names.

Three harnesses whose checks of a clause all pass without reaching what the clause
speaks of: one that drops the author's choices for the tool-invoking node (RT-TOOL-3 ¶4
speaks of delivery with ``tool_artifacts`` exposed and not exposed), one that offers no
consent gate (RT-TOOL-2 ¶5 speaks of a call that failed or was declined), and one whose
runtime has no turn API (RT-TOOL-4 ¶3 speaks of what a message carries on the
implementation's own wire).  Before these situations were declared, each of these
clauses was reported as conforming on that harness.  Crafted traces hold the situation
tests to the circumstance: a call is judged by the invocation its tool played."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.handshake import Capabilities, Handshake, Implementation, Limits
from adapters.scenario import Scenario, StartTurn
from adapters.trace import PassRecord, RunRecord, StepRecord, ToolResultRecord, Trace
from conformance.engine import load_suite
from conformance.toolkit import failure, link, output, tool
from tests.conformance._support import run_clauses

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

NARROWED = "python:tests.conformance.unreached_rt14:create?mode="
NO_TURN_API = "python:tests.conformance.unreached:create?mode=no-turn-api"
RULES = ("RT-TOOL-1", "RT-TOOL-2", "RT-TOOL-3", "RT-TOOL-4")


def _clauses(spec: str, only: tuple[str, ...], tmp_path: Path) -> dict[str, dict[str, object]]:
    return run_clauses(spec, only, tmp_path)


@pytest.mark.parametrize(
    ("spec", "clause", "unreached"),
    [
        (
            NARROWED + "ignores-node-exposure",
            "RT-TOOL-3#c4",
            ["a run's artifacts with the port exposed"],
        ),
        (NARROWED + "no-gates", "RT-TOOL-2#c5", ["a declined call"]),
        (NO_TURN_API, "RT-TOOL-4#c3", ["a message's artifacts on the implementation's own wire"]),
    ],
)
def test_a_clause_whose_situations_were_not_reached_does_not_conform(
    spec: str, clause: str, unreached: list[str], tmp_path: Path
) -> None:
    found = _clauses(spec, (clause,), tmp_path)[clause]
    checks = found["checks"]
    assert isinstance(checks, list)
    # Its checks pass or are not played: only the situations they reached tell the clause
    # is not shown.
    assert any(check["outcome"] == "passed" for check in checks)
    assert not any(check["outcome"] in ("failed", "error") for check in checks)
    assert found["standing"] == "untested"
    assert found["unreached"] == unreached
    page = (tmp_path / "out" / "STANDING.md").read_text(encoding="utf-8")
    assert f"not reached: {', '.join(unreached)}" in page.replace("\\'", "'")


def test_a_trace_where_nothing_ran_reaches_no_situation() -> None:
    """A turn whose runtime ran no call, wrote no message and delivered nothing reaches
    none of the circumstances, even on a harness that claims every capability."""
    handshake = Handshake(
        protocol="rttool-adapter/1",
        implementation=Implementation("nothing", "0"),
        profiles=("runtime",),
        capabilities=Capabilities(gates=True, port_exposure=True, turn_api=True, restart=True),
        limits=Limits(),
    )
    scenario = Scenario(id="nothing", steps=(StartTurn("t1"),))
    trace = Trace(scenario="nothing", steps=())
    for clause, situations in load_suite().situations.items():
        if clause.split("#")[0] in RULES:
            for one in situations:
                assert not one.reached(scenario, trace, handshake), (clause, one.words)


def _trace(*passes: tuple[tuple[str, str], ...]) -> Trace:
    """One step whose one run made ``passes``: each a batch of (tool, disposition)."""
    made = tuple(
        PassRecord(
            batch=(),
            ports={},
            exposed={},
            results=tuple(
                ToolResultRecord(tool=name, tool_call_id=f"c{i}", disposition=how, result={})  # type: ignore[arg-type]
                for i, (name, how) in enumerate(batch)
            ),
            tool_messages=(),
            outcome=None,
        )
        for batch in passes
    )
    run = RunRecord(
        id="r1",
        turn="t1",
        conversation="main",
        cause="start",
        end="completed",
        model_inputs=(),
        passes=made,
        side_effects=(),
    )
    step = StepRecord(index=0, op="start_turn", outcome="ok", runs=(run,), warnings=(), wire={})
    return Trace(scenario="s", steps=(step,))


def _reached(clause: str, scenario: Scenario, trace: Trace) -> list[str]:
    handshake = Handshake(
        protocol="rttool-adapter/1",
        implementation=Implementation("crafted", "0"),
        profiles=("runtime",),
        capabilities=Capabilities(gates=True, port_exposure=True),
        limits=Limits(),
    )
    return [
        s.words for s in load_suite().situations[clause] if s.reached(scenario, trace, handshake)
    ]


def test_a_call_is_judged_by_the_invocation_it_played() -> None:
    """A tool's first invocation keeps an entry, its second keeps none, its third fails: a
    trace reaches only the circumstances of the invocations it shows executed."""
    scenario = Scenario(
        id="s",
        steps=(StartTurn("t1"),),
        tools=(
            tool(
                "make",
                output({"ok": True}, link("https://e.x/1")),
                output({"ok": True}, "junk"),
                failure("refused", link("https://e.x/3")),
            ),
        ),
    )
    kept, nothing, failed = (
        "the reserved key on a successful call, entries kept",
        "the reserved key on a successful call, nothing kept",
        "the reserved key on a failed call",
    )
    assert _reached("RT-TOOL-2#c4", scenario, _trace((("make", "executed"),))) == [kept]
    # A declined call is no invocation: the next executed one still plays the second.
    twice = _trace((("make", "executed"), ("make", "declined")), (("make", "executed"),))
    assert _reached("RT-TOOL-2#c4", scenario, twice) == [kept, nothing]
    thrice = _trace((("make", "executed"), ("make", "executed"), ("make", "executed")))
    assert _reached("RT-TOOL-2#c4", scenario, thrice) == [kept, nothing, failed]
    assert _reached("RT-TOOL-2#c5", scenario, thrice) == [
        "a call that failed after its node emitted artifacts"
    ]
    # A result reported declined is not the operator's decline: no decline was played.
    assert _reached("RT-TOOL-2#c5", scenario, twice) == []
    # Two calls attaching in two passes, then in one pass.
    one_tool = Scenario(id="s", steps=(), tools=(tool("make", output({}, link("u"))),))
    several = "several calls' artifacts from one pass"
    apart = _trace((("make", "executed"),), (("make", "executed"),))
    assert several not in _reached("RT-TOOL-3#c1", one_tool, apart)
    together = _trace((("make", "executed"), ("make", "executed")))
    assert several in _reached("RT-TOOL-3#c1", one_tool, together)
