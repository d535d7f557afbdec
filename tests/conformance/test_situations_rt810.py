"""RT-TOOL-9 ¶1 and RT-TOOL-10 ¶4 conform only where the runtime's tool node met what
they speak of.

Two harnesses whose framework keeps it from the node (``unreached_rt810``): one that
sends the node only calls its history has not answered (RT-TOOL-9 ¶1 speaks of a call
whose identifier the run already recorded), one whose typed call cannot hold a malformed
call (RT-TOOL-10 ¶4 speaks of three kinds).  Every check of either clause passes on
them, and before the clauses declared their situations each was reported as
conforming.  The reference runtime reaches every situation RT-TOOL-8, 9 and 10 declare,
and a turn of one plain call reaches only the six it plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.engine import load_suite
from conformance.toolkit import (
    call,
    calls,
    say,
    tool,
)
from conformance.toolkit.machinery import reached_situations
from tests.conformance._support import reference_driver, run_clauses

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

UNREACHED = "python:tests.conformance.unreached_rt810:create?mode="
RULES = ("RT-TOOL-8#", "RT-TOOL-9#", "RT-TOOL-10#")


def _clauses(spec: str, only: tuple[str, ...], tmp_path: Path) -> dict[str, dict[str, object]]:
    return run_clauses(spec, only, tmp_path)


@pytest.mark.parametrize(
    ("mode", "clause", "unreached"),
    [
        (
            "drops-repeats",
            "RT-TOOL-9#c1",
            ["a call sent again under an identifier the run recorded"],
        ),
        (
            "drops-malformed",
            "RT-TOOL-10#c4",
            [
                "a call that is not a map",
                "a call whose name is blank",
                "a call whose name is not a scalar",
            ],
        ),
    ],
)
def test_a_clause_whose_node_never_met_its_situations_does_not_conform(
    mode: str, clause: str, unreached: list[str], tmp_path: Path
) -> None:
    found = _clauses(UNREACHED + mode, (clause,), tmp_path)[clause]
    checks = found["checks"]
    assert isinstance(checks, list) and checks
    # Every check passes: only the situations they reached tell the clause is not shown.
    assert all(check["outcome"] == "passed" for check in checks)
    assert found["standing"] == "untested"
    assert found["unreached"] == unreached
    page = (tmp_path / "out" / "STANDING.md").read_text(encoding="utf-8")
    assert f"not reached: {', '.join(unreached)}" in page


def test_a_plain_call_reaches_only_what_it_plays() -> None:
    """A turn of one new, well-formed call with plain text, run once, reaches none of the
    situations the three rules name but the six it plays (a tool invoked with its
    arguments, a list already decoded for an array, plain text, a call with an
    identifier, handled for the first time, the ports at their defaults): each test is
    false where its circumstance did not happen."""
    driver = reference_driver()
    scenario = Scenario(
        id="rt810-plain-call",
        tools=(tool("target", schema={"type": "object", "properties": {"a": {"type": "array"}}}),),
        model=(calls(call("target", {"a": [1], "s": "plain"}, "c1")), say("done")),
        steps=(StartTurn("t1"),),
    )
    trace = driver.run(scenario)
    assert isinstance(trace, Trace)
    declared = [
        one
        for clause, situations in load_suite().situations.items()
        if clause.startswith(RULES)
        for one in situations
    ]
    reached = reached_situations(declared, [(scenario, trace)], driver.handshake())
    assert set(reached) == {
        "a call whose reconciled arguments the trace shows",
        "a list or map, not text, for a parameter declared array or object",
        "text holding no character reference",
        "a pass over calls with identifiers",
        "a pass with a call handled for the first time",
        "a pass with these ports left at their default",
    }
