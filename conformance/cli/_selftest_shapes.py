"""How ``rttool selftest`` says what it found of the runtime shapes and of blame: a line
per shape (legal: conforming; gap: failing exactly its own clauses), and the blame gate's
findings (a clause failed beyond a mutant's or a gap's own, recorded nowhere)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from conformance._escape import printable

if TYPE_CHECKING:
    from conformance._blame import BlameVerdict
    from conformance._shapes import ShapeResult

__all__ = [
    "blame_findings",
    "blame_json",
    "blame_lines",
    "shape_failure",
    "shape_lines",
    "shapes_json",
]


def shape_lines(judged: Sequence[ShapeResult], width: int) -> list[str]:
    """A line per shape, and for one not judged as the rule text says, what it failed
    beyond its own clauses, which of its own it did not fail, and what erred."""
    lines = [line for shape in judged for line in _shape_lines(shape, width)]
    unsound = [shape.name for shape in judged if not shape.sound]
    if unsound:
        lines.append(f"rttool: runtime shapes the suite misjudges: {', '.join(unsound)}")
    elif judged:
        lines.append(
            f"rttool: every runtime shape judged as the rule text says ({len(judged)} shapes)"
        )
    return lines


def _shape_lines(shape: ShapeResult, width: int) -> list[str]:
    verdict = "yes" if shape.sound else "NO "
    own = ", ".join(shape.clauses) if shape.kind == "gap" else "nothing"
    lines = [f"  {shape.name:<{width}}  {shape.kind:<5} fails {own:<26}  as said: {verdict}"]
    if shape.error is not None:
        lines.append(f"      {printable(shape.error)}")
    beyond = dict(shape.failed)
    lines += [
        f"      fails {clause} too: {printable(beyond[clause][:300])}" for clause in shape.beyond
    ]
    lines += [f"      does not fail {clause}" for clause in shape.missed]
    lines += [f"      {clause} in error: {printable(m[:300])}" for clause, m in shape.erred]
    return lines


def blame_findings(verdict: BlameVerdict | None) -> list[str]:
    """The blame gate's findings (none where it was not judged, or is clean)."""
    return [] if verdict is None else verdict.lines()


def shape_failure(shape: ShapeResult) -> str | None:
    """Why ``shape`` is not judged as the rule text says, in a few words (``None``: it is)."""
    if shape.error is not None:
        return f"runtime shape {shape.name} could not be driven: {shape.error}"
    if shape.beyond:
        return f"runtime shape {shape.name} ({shape.kind}) fails {shape.beyond[0]}"
    if shape.missed:
        return f"runtime shape {shape.name} does not fail its own {shape.missed[0]}"
    if shape.erred:
        return f"runtime shape {shape.name}: {shape.erred[0][0]} in error"
    return None


def blame_lines(verdict: BlameVerdict | None) -> list[str]:
    """The blame gate's findings, a line each, and its count of recorded consequences."""
    if verdict is None:
        return []
    lines = [f"rttool: {printable(line)}" for line in verdict.lines()]
    if verdict.clean:
        lines.append(
            "rttool: blame: every clause failed beyond a mutant's or a gap's own is a "
            f"consequence the rule text states ({verdict.recorded} recorded)"
        )
    return lines


def shapes_json(judged: Sequence[ShapeResult]) -> list[dict[str, object]]:
    """The shapes as ``--format json`` lists them."""
    return [shape.to_json() for shape in judged]


def blame_json(verdict: BlameVerdict | None) -> dict[str, object] | None:
    """The blame gate's findings as ``--format json`` gives them (``None``: not judged)."""
    if verdict is None:
        return None
    return {
        "clean": verdict.clean,
        "recorded": verdict.recorded,
        "unrecorded": [
            {"subject": one.subject, "clause": one.clause, "message": one.message}
            for one in verdict.unrecorded
        ],
        "stale": [{"subject": one.subject, "clause": one.clause} for one in verdict.stale],
        "unquoted": [{"subject": one.subject, "clause": one.clause} for one in verdict.unquoted],
    }
