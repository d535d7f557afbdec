"""``rttool replay FILE --html OUT``: the timeline of the replayed scenario as one
self-contained page, the same a report draws under a failing check, with each invariant
that still fails (or the error the implementation met) marked where it happened."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adapters.scenario import Scenario
    from adapters.trace import Trace
    from conformance.cli._replay_errors import Errored

__all__ = ["page_lines", "write_page"]


def page_lines(
    failing: Sequence[tuple[str, tuple[str, ...], str]], errored: Errored | None, spec: str
) -> list[str]:
    """What the page says above the timeline: what was replayed against, and what it
    found."""
    lines = [f"Replayed against {spec}."]
    if errored is not None:
        step = "at finish" if errored.index is None else f"at step {errored.index + 1}"
        lines.append(f"The implementation errors {step} ({errored.op}): {errored.message}")
    lines += [f"Still fails: {name} ({', '.join(clauses)})." for name, clauses, _ in failing]
    if errored is None and not failing:
        lines.append("No invariant judged fails on this scenario.")
    return lines


def write_page(
    target: Path | None,
    scenario: Scenario,
    trace: Trace | None,
    *,
    failing: Sequence[tuple[str, tuple[str, ...], str]],
    errored: Errored | None,
    spec: str,
) -> str | None:
    """Write the page to ``target`` when asked for; returns where it went."""
    if target is None:
        return None
    from adapters.errors import SuiteError
    from adapters.files import write_file
    from conformance._redact import redacted
    from conformance.report import (
        DrawnEvidence,
        FailedExpectation,
        RecordedError,
        marks_of,
        timeline_page,
    )

    error = None
    if errored is not None:
        error = RecordedError(kind="", message=errored.message, step=errored.index, op=errored.op)
    drawn = DrawnEvidence(scenario=scenario, trace=trace, error=error)
    failures = [FailedExpectation(message=f"{name}: {message}") for name, _, message in failing]
    marks = marks_of(drawn, failures, errored.message if errored is not None else "")
    title = f"rttool replay: scenario {scenario.id}"
    page = timeline_page(title, page_lines(failing, errored, redacted(spec)), drawn, marks)
    try:
        write_file(target.parent if str(target.parent) else Path("."), target.name, page.encode())
    except OSError as err:
        raise SuiteError(
            "cannot write the page", file=str(target), reason=err.strerror or str(err)
        ) from err
    return str(target)
