"""``rttool run``: the suite against one implementation, with standing reports and a gate.

Built on the pytest plugin: the run is a pytest session over the suite's one test
module, with pytest's own terminal output replaced by a line per rule (printed by the
plugin as each rule finishes).  The command computes a :class:`RunOutcome` and renders
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
from pathlib import Path

__all__ = ["EXIT_INTERRUPTED", "configure"]

#: the exit code of an interrupted run, as a shell reports a Ctrl-C
EXIT_INTERRUPTED = 130


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool run``."""
    _implementation_arguments(parser)
    _selection_arguments(parser)
    _hunt_arguments(parser)
    _distributed_arguments(parser)
    _output_arguments(parser)
    parser.set_defaults(handler=run)


def _implementation_arguments(parser: argparse.ArgumentParser) -> None:
    """Which implementation runs, and where its reports go."""
    parser.add_argument(
        "--impl",
        default="reference",
        metavar="SPEC",
        help="reference (default), python:MODULE:ATTR, http://HOST:PORT, or stdio:COMMAND",
    )
    parser.add_argument(
        "--mutant", default=None, metavar="NAME", help="run a named mutant of the reference runtime"
    )
    parser.add_argument(
        "--variant",
        default=None,
        metavar="NAME",
        help="run a named legal variant of the reference runtime (rttool selftest --list)",
    )
    parser.add_argument(
        "--report-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="where reports go (default reports/<implementation>/)",
    )


def _selection_arguments(parser: argparse.ArgumentParser) -> None:
    """What runs, what is gated, and in how many processes."""
    from conformance._arguments import positive_int

    parser.add_argument(
        "--level",
        action="append",
        default=[],
        metavar="LEVEL",
        choices=("core", "extended", "optional"),
        help="levels whose failures fail the run (default: the levels "
        "the implementation claims); repeatable",
    )
    parser.add_argument(
        "--expectations",
        type=Path,
        default=None,
        metavar="FILE",
        help="YAML file of expected failures",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="RULE[#cN]",
        help="run only these rules or clauses; repeatable",
    )
    parser.add_argument(
        "--first",
        action="append",
        default=[],
        metavar="ID",
        help="run the cases of these rules, clauses or case ids first, in the order given; "
        "the rest follow, the hunt last; repeatable",
    )
    parser.add_argument(
        "-x",
        "--exitfirst",
        action="store_true",
        help="stop at the first failing case: the cases not run are reported untested, so "
        "the standing says only that something fails (what scoring a mutant needs)",
    )
    parser.add_argument(
        "-n",
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="run in N parallel processes (pytest-xdist)",
    )


def _hunt_arguments(parser: argparse.ArgumentParser) -> None:
    """The property-based hunt's budget and seed."""
    from conformance._arguments import positive_float, positive_int

    parser.add_argument(
        "--examples",
        type=positive_int,
        default=None,
        metavar="N",
        help="the least number of examples the hunt generates, a floor and not a ceiling: "
        "the search goes on until its time budget is spent (default 150)",
    )
    parser.add_argument(
        "--hunt-seconds",
        type=positive_float,
        default=None,
        metavar="S",
        help="how long the hunt searches (one search shared by every invariant, spent in "
        "full; an implementation too slow to reach the example floor in time gets up to "
        "four times as long; default 20)",
    )
    parser.add_argument("--seed", type=int, default=None, metavar="N", help="hunt seed")
    parser.add_argument("--no-hunt", action="store_true", help="skip the property-based hunt")


def _distributed_arguments(parser: argparse.ArgumentParser) -> None:
    """A run split across machines (``docs/ci.md``)."""
    from conformance._arguments import example_db, shard

    parser.add_argument(
        "--shard",
        type=shard,
        default=None,
        metavar="K/N",
        help="run shard K of N: a share of the rules and of the hunt's examples (its own "
        "seeds); rttool report merge joins the N standings into one",
    )
    parser.add_argument(
        "--example-db",
        type=example_db,
        default=None,
        metavar="URL",
        help="share the hunt's saved examples: dir:PATH, redis://HOST:PORT/DB, or "
        "github-artifact:OWNER/REPO (read-only); each implementation's counterexamples are "
        "replayed first by every run of it, and the hunt is then not reproducible",
    )


def _output_arguments(parser: argparse.ArgumentParser) -> None:
    """The timeout, what the terminal shows, and the reports' timings."""
    from conformance._arguments import positive_float

    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="per-request timeout for the implementation (default 30)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary table")
    parser.add_argument(
        "--reproducible",
        action="store_true",
        help="write standing.json and STANDING.md without the start time and durations, "
        "so that they change only when a standing does (for reports kept in a repository; "
        "the other formats keep the timings)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the suite, render what it found, and return the gate's exit code."""
    import dataclasses
    import sys

    from conformance.cli._output import emit
    from conformance.cli._run_render import outcome_text
    from conformance.cli._run_session import execute
    from conformance.stopping import StopSignals

    with StopSignals() as stop:
        try:
            outcome = execute(args)
        except KeyboardInterrupt:  # stopped before the suite began, or while swapping
            sys.stderr.write("rttool: interrupted\n")
            return stop.exit_code
    if outcome.interrupted or outcome.exit_code == EXIT_INTERRUPTED:
        outcome = dataclasses.replace(outcome, exit_code=stop.exit_code)
    emit(outcome_text(outcome))
    return outcome.exit_code
