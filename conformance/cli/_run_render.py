"""How ``rttool run`` says what it found: a pure function of its :class:`RunOutcome`."""

from __future__ import annotations

from conformance._escape import printable
from conformance.cli._output import Output, text
from conformance.cli._run_session import RunOutcome

__all__ = ["outcome_text"]


def outcome_text(outcome: RunOutcome, *, quiet: bool = False) -> Output:
    """The table of rules and standings, the gate's reasons and where the reports are,
    on standard output; the problems on standard error.  ``quiet``: the gate's reasons
    are counted on one line, not listed (the reports list them)."""
    err = text(printable(line) for line in outcome.problems)
    if outcome.report is None:
        return Output(err=err)
    from conformance.report import terminal_table

    lines = [terminal_table(outcome.report)]
    if quiet and outcome.reasons:
        count = len(outcome.reasons)
        lines.append(
            f"rttool: {count} finding{'s' * (count != 1)} fail the gate (listed in the reports)"
        )
    elif not quiet:
        lines += [f"rttool: {printable(reason)}" for reason in outcome.reasons]
    if not outcome.interrupted:  # else: the cases that did not run are errors, as said
        where = "reports in" if outcome.written else "reports NOT written to"
        lines.append(f"rttool: {where} {printable(str(outcome.report_dir))}")
    return Output(text(lines), err)
