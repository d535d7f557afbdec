"""``rttool run``: the suite against one implementation, with standing reports and a gate.

The command calls the engine (:func:`conformance.engine.run_suite`), which prints a line
per rule as each finishes; the command computes a :class:`RunOutcome` and renders
it (``conformance/cli/_run_render.py``): the table, the gate's reasons and where the
reports are.  Exit codes: 0 every gated rule conforms (or is expected to fail), 1
something gated does not, 2 a usage, corpus or expectations error (or reports that could
not be written), 3 the implementation could not be driven, 130 the run was interrupted
(143 stopped by SIGTERM, which stops it the same way).
The gate judges the standing the run built, not what reached the disk, so a report that
fails to be written never improves the exit code.
"""

from __future__ import annotations

import argparse

__all__ = ["EXIT_INTERRUPTED", "configure"]

#: the exit code of an interrupted run, as a shell reports a Ctrl-C
EXIT_INTERRUPTED = 130


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool run``: the engine's option table
    (:data:`conformance.engine.RUN_OPTIONS`), the one place each is declared."""
    from conformance.engine import add_run_arguments

    add_run_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the suite, render what it found, and return the gate's exit code."""
    import dataclasses
    import sys

    from conformance._terminal import say, settle
    from conformance.cli._output import emit
    from conformance.cli._run_render import outcome_text
    from conformance.cli._run_session import execute
    from conformance.stopping import StopSignals

    with StopSignals() as stop:
        try:
            outcome = execute(args)
        except KeyboardInterrupt:  # stopped before the suite began, or while swapping
            say(sys.stderr, "rttool: interrupted\n")
            return stop.exit_code
    if outcome.interrupted or outcome.exit_code == EXIT_INTERRUPTED:
        outcome = dataclasses.replace(outcome, exit_code=stop.exit_code)
    # What the run says is a courtesy: a terminal gone away changes neither the report,
    # written already, nor the exit code.
    emit(outcome_text(outcome, quiet=args.quiet), courtesy=True)
    settle()
    return outcome.exit_code
