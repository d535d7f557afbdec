"""What ``rttool replay`` says of each invariant: judged on the trace as the standing
judges the invariant's hunt case (:func:`conformance.engine.judge_example`), so that a
replay blames the clauses the standing blames, and says why it would not judge the
others."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adapters.handshake import Handshake
    from adapters.scenario import Scenario
    from adapters.trace import Trace
    from conformance.engine import ClauseVerdict
    from conformance.toolkit.machinery import ClauseSituation, Invariant

__all__ = ["Line", "judged_lines"]

#: One invariant's line of a replay: its name, the clauses it names, and what it says.
Line = tuple[str, tuple[str, ...], str]


def _standing_of(
    invariant: Invariant,
    scenario: Scenario,
    trace: Trace,
    handshake: Handshake,
    situations: Mapping[str, tuple[ClauseSituation, ...]],
    *,
    named: str | None,
) -> tuple[Line | None, Line | None]:
    """What ``invariant`` says of the trace, as the standing judges its hunt case: the
    clauses it still fails (the same clauses the standing fails), else those the
    standing would not judge on it (a channel the trace breaks, situations it never
    reached, an invariant that does not bind), with why."""
    from conformance.engine import judge_example

    verdicts = judge_example(invariant, scenario, trace, handshake, situations)
    failed = [v for v in verdicts if v.failed]
    if failed:
        return _line(invariant, failed), None
    skipped = [v for v in verdicts if v.outcome.outcome == "skipped"]
    # A bare scenario is held to every invariant: only those its file names, or that the
    # trace broke without failing, are worth a word.
    worth = named is not None or invariant.judge(scenario, trace, handshake) is not None
    return None, (_line(invariant, skipped) if skipped and worth else None)


def _line(invariant: Invariant, verdicts: list[ClauseVerdict]) -> Line:
    """``invariant``'s line: the clauses of ``verdicts``, and what the first says."""
    return (invariant.name, tuple(v.clause for v in verdicts), verdicts[0].outcome.message)


def judged_lines(
    scenario: Scenario,
    chosen: tuple[Invariant, ...],
    handshake: Handshake,
    trace: Trace,
    *,
    named: str | None,
) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """The line of each invariant of ``chosen`` that still fails, and of each the standing
    would not judge on ``trace`` (``named``: the invariant the file names, if any)."""
    from conformance.engine import load_suite

    situations = load_suite().situations
    found = [
        _standing_of(one, scenario, trace, handshake, situations, named=named) for one in chosen
    ]
    failing = tuple(line for line, _ in found if line is not None)
    return failing, tuple(line for _, line in found if line is not None)
