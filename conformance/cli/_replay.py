"""``rttool replay FILE``: run a saved counterexample again and say whether it still fails.

FILE is a ``counterexample.json`` written by the hunt (it names its invariant), the
``error.json`` an error left in the report directory (it holds its scenario), or a bare
scenario JSON (then every invariant is judged, and nothing else: a check's evidence
scenario is not judged by its check, so the command says how to re-run the check).
Exit 1 when an invariant still fails, 0 when none does, 2 for a bad file, 3 when the
implementation cannot be driven or errors on the scenario (the step it failed on is
said, and whether the error recorded beside the file is the same), 4 when it cannot
run the scenario (it lacks a capability the scenario needs): nothing was shown.
``--trace FILE`` writes the trace the scenario made (only the steps answered, where the
implementation errored); ``--html FILE`` its timeline as a page, the one a report draws
under a failing check.

The command computes a :class:`Replayed` and renders it (:func:`replayed_text`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from conformance._escape import printable
from conformance.cli._output import Output, emit, text
from conformance.cli._replay_errors import (
    Errored,
    error_lines,
    errored_on,
    recorded_error,
    write_trace,
)

if TYPE_CHECKING:
    from adapters import Trace, Unsupported
    from adapters.errors import ImplementationError
    from adapters.handshake import Handshake
    from adapters.scenario import Scenario
    from conformance.toolkit.machinery import Invariant

__all__ = ["EXIT_UNTESTED", "SUMMARY_CHARS", "Replayed", "configure", "replayed_text"]

#: the scenario needs a capability the implementation lacks: neither a pass nor a failure
EXIT_UNTESTED = 4


def _redacted(text: str) -> str:
    from conformance._redact import redacted

    return redacted(text)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool replay``."""
    from conformance._arguments import positive_float

    parser.add_argument("file", type=Path, metavar="FILE", help="counterexample or scenario JSON")
    parser.add_argument(
        "--impl",
        default="reference",
        metavar="SPEC",
        help="the implementation (default: the reference runtime)",
    )
    parser.add_argument(
        "--mutant",
        default=None,
        metavar="NAME",
        help="replay against a named mutant of the reference runtime",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="per-request timeout for the implementation (default 30)",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        default=None,
        metavar="FILE",
        help="write the trace the scenario made to FILE (the steps answered, on an error)",
    )
    parser.add_argument(
        "--html",
        type=Path,
        default=None,
        metavar="FILE",
        help="write the scenario's timeline, what still fails marked on it, as a page to FILE",
    )
    parser.set_defaults(handler=replay)


#: A scenario (or a counterexample holding one) is a few KB; far larger is not one.
_MAX_SCENARIO_BYTES = 16 * 1024 * 1024


def _load(path: Path) -> tuple[object, str | None, str | None]:
    """The file's scenario, the invariant it names and the error recorded with it."""
    from adapters.errors import SuiteError
    from adapters.files import UnreadableFile, read_json

    try:
        data = read_json(path, limit=_MAX_SCENARIO_BYTES)
    except UnreadableFile as err:
        raise SuiteError("cannot read the file", file=str(path), reason=err.strerror) from err
    if isinstance(data, dict) and "scenario" in data:
        invariant = data.get("invariant")
        named = invariant if isinstance(invariant, str) else None
        return data["scenario"], named, recorded_error(path, data)
    return data, None, recorded_error(path, None)


@dataclass(frozen=True)
class Replayed:
    """What a replay found: its exit code and, when it ended early, the one line it says
    on standard error (``problem``); else the scenario replayed and each invariant that
    still fails, as ``(name, clauses, message)``."""

    exit_code: int
    problem: str | None = None
    steps: int = 0
    summary: str = ""
    failing: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    #: each invariant the standing would not judge on this trace, as ``(name, clauses,
    #: why)``: not applicable, untested (a channel it observes through broken, a
    #: situation never reached), or its finding blocked by another clause
    unjudged: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    #: the invariants judged
    judged: tuple[str, ...] = ()
    #: the invariant the file names (a hunt counterexample); ``None`` for a bare scenario
    named: str | None = None
    #: the clause of the evidence folder the file lies in, if it does
    clause: str | None = None
    #: the error the report directory recorded for this scenario, if it did
    recorded: str | None = None
    #: the implementation errored on the scenario: where, and what it said
    errored: Errored | None = None
    #: where ``--trace`` wrote the trace, if it was asked for
    trace_file: str | None = None
    #: where ``--html`` wrote the timeline, if it was asked for
    page_file: str | None = None


def replay(args: argparse.Namespace) -> int:
    """Replay one scenario, judge it, and say what still fails."""
    replayed = _replayed(args)
    emit(replayed_text(replayed))
    return replayed.exit_code


def _scenario(
    args: argparse.Namespace,
) -> tuple[Scenario, str | None, str | None, str] | Replayed:
    """The file's scenario, the invariant it names, the error recorded with it, and the
    implementation's spec."""
    from adapters.codec import CodecError, check_outbound, from_json
    from adapters.errors import RttoolError, SuiteError
    from adapters.files import writable
    from adapters.scenario import Scenario
    from conformance.engine import resolve_spec

    try:
        _refuse_overwriting_inputs(args)
        if args.trace is not None:  # refused before the scenario runs, not after
            writable(args.trace)
        raw, named, recorded = _load(args.file)
        try:
            check_outbound("scenario", raw)
        except SuiteError as err:
            raise SuiteError(
                "the file's scenario breaks the protocol schema", file=str(args.file), **err.details
            ) from err
        return from_json(Scenario, raw), named, recorded, resolve_spec(args.impl, args.mutant)
    except (RttoolError, CodecError) as err:
        return Replayed(2, f"rttool: error: {_redacted(str(err))}")


def _refuse_overwriting_inputs(args: argparse.Namespace) -> None:
    """``--trace`` and ``--html`` never name the scenario file, nor each other: what the
    replay writes must not replace what it reads, or one output the other."""
    import os

    from adapters.errors import SuiteError

    def same(one: Path, other: Path) -> bool:
        try:
            return os.path.samefile(one, other)
        except OSError:  # one is not there yet: the same name is the same file
            return os.path.realpath(one) == os.path.realpath(other)

    outputs = [
        (flag, path)
        for flag, path in (("--trace", args.trace), ("--html", getattr(args, "html", None)))
        if path is not None
    ]
    for flag, path in outputs:
        if same(Path(path), Path(args.file)):
            raise SuiteError(f"{flag} names the scenario file itself", file=str(args.file))
    if len(outputs) == 2 and same(Path(outputs[0][1]), Path(outputs[1][1])):
        raise SuiteError("--trace and --html name one file", file=str(outputs[0][1]))


def _driven(spec: str, scenario: Scenario, timeout: float) -> tuple[Handshake, Trace | Unsupported]:
    from adapters import Driver, connect
    from conformance import __version__

    driver = Driver(connect(spec, timeout=timeout), timeout=timeout, suite_version=__version__)
    try:
        return driver.handshake(), driver.run(scenario)
    finally:
        driver.close()


def _invariants(named: str | None, file: Path) -> tuple[Invariant, ...] | Replayed:
    """The invariant the file names (every one for a bare scenario)."""
    from conformance.engine import load_suite

    chosen = tuple(i for i in load_suite().invariants if named is None or i.name == named)
    if chosen:
        return chosen
    shown = repr(named)[:200]
    return Replayed(2, f"rttool: error: unknown invariant: invariant={shown} file={file}")


def _replayed(args: argparse.Namespace) -> Replayed:
    from adapters import Unsupported
    from adapters.errors import ImplementationError

    loaded = _scenario(args)
    if isinstance(loaded, Replayed):
        return loaded
    scenario, named, recorded, spec = loaded
    chosen = _invariants(named, args.file)
    if isinstance(chosen, Replayed):
        return chosen
    try:
        handshake, trace = _driven(spec, scenario, args.timeout)
    except ImplementationError as err:
        if err.partial_trace is None:  # nothing of the scenario ran
            said = _redacted(str(err))
            return Replayed(3, f"rttool: the implementation could not be driven: {said}")
        again = _errored_again(scenario, err, recorded, write_trace(args.trace, err.partial_trace))
        return replace(again, page_file=_page(args, scenario, err.partial_trace, again, spec))
    if isinstance(trace, Unsupported):
        return Replayed(
            EXIT_UNTESTED,
            "rttool: not replayed: the implementation lacks capability "
            f"{trace.capability}, which the scenario needs",
        )
    judged = _judged(scenario, chosen, handshake, trace, named=named, file=args.file)
    judged = replace(judged, page_file=_page(args, scenario, trace, judged, spec))
    return replace(judged, recorded=recorded, trace_file=write_trace(args.trace, trace))


def _page(
    args: argparse.Namespace, scenario: Scenario, trace: Trace | None, found: Replayed, spec: str
) -> str | None:
    """Write the timeline page when ``--html`` asks for it."""
    from conformance.cli._replay_page import write_page

    target = getattr(args, "html", None)
    return write_page(
        target, scenario, trace, failing=found.failing, errored=found.errored, spec=spec
    )


def _errored_again(
    scenario: Scenario, err: ImplementationError, recorded: str | None, trace_file: str | None
) -> Replayed:
    """The implementation errored part way through the scenario."""
    from conformance.hunt import steps_summary

    return Replayed(
        3,
        steps=len(scenario.steps),
        summary=steps_summary(scenario),
        recorded=recorded,
        errored=errored_on(scenario, err),
        trace_file=trace_file,
    )


def _judged(
    scenario: Scenario,
    chosen: tuple[Invariant, ...],
    handshake: Handshake,
    trace: Trace,
    *,
    named: str | None,
    file: Path,
) -> Replayed:
    """Each invariant chosen, judged on the trace the scenario made as the standing judges
    its hunt case (:func:`~conformance.cli._replay_judged.judged_lines`)."""
    from conformance.cli._replay_judged import judged_lines
    from conformance.hunt import steps_summary

    failing, unjudged = judged_lines(scenario, chosen, handshake, trace, named=named)
    return Replayed(
        1 if failing else 0,
        steps=len(scenario.steps),
        summary=steps_summary(scenario),
        failing=failing,
        unjudged=unjudged,
        judged=tuple(i.name for i in chosen),
        named=named,
        clause=_clause_of(file),
    )


def replayed_text(replayed: Replayed) -> Output:
    """The scenario replayed, then the error it still raises, or each invariant that still
    fails (on the clauses the standing would fail) and each the standing would not judge
    on it (with why), or that none fails."""
    if replayed.problem is not None:
        return Output(err=text([printable(replayed.problem)]))
    steps = replayed.steps
    lines = [
        f"replayed {steps} {'step' if steps == 1 else 'steps'}: "
        f"{printable(_shortened(replayed.summary))}"
    ]
    lines += error_lines(replayed.errored, replayed.recorded, replayed.trace_file)
    if replayed.page_file is not None:
        lines.append(f"timeline written to {printable(replayed.page_file)}")
    if replayed.errored is None:
        lines += _verdict_lines(replayed)
    return Output(text(lines))


def _verdict_lines(replayed: Replayed) -> list[str]:
    """What still fails, what the standing would not judge, or that nothing fails."""
    lines = [
        f"still fails: {name} ({', '.join(clauses)}): {printable(message)}"
        for name, clauses, message in replayed.failing
    ]
    lines += [
        f"not judged: {name} ({', '.join(clauses)}): {printable(message)}"
        for name, clauses, message in replayed.unjudged
    ]
    if replayed.failing or (replayed.named is not None and replayed.unjudged):
        return lines  # "not judged" is no pass
    if replayed.named is not None:
        return [*lines, "passes now: " + ", ".join(replayed.judged)]
    # A bare scenario (a check's evidence, say) is judged by the hunt's invariants only:
    # the check that wrote it had expectations of its own, which a scenario file does not
    # carry. Saying "passes now" would wrongly suggest a fix.
    clause = replayed.clause
    again = f"rttool run --only {clause}" if clause else "rttool run --only CLAUSE"
    return [
        *lines,
        "no hunt invariant fails on this scenario: " + ", ".join(replayed.judged),
        "note: a scenario file carries no check's expectations; to see whether the check "
        f"that wrote it still fails, run it again: {again}",
    ]


#: A step summary longer than this is cut (a long scenario makes one very long line).
SUMMARY_CHARS = 400


def _shortened(summary: str) -> str:
    if len(summary) <= SUMMARY_CHARS:
        return summary
    return summary[:SUMMARY_CHARS].rsplit(" -> ", 1)[0] + " -> …"


def _clause_of(path: Path) -> str | None:
    """The clause of an evidence folder (``evidence/RT-TOOL-7_c4_name/scenario.json``)."""
    import re

    found = re.match(r"^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)_c([1-9][0-9]*)_", path.parent.name)
    return f"{found.group(1)}#c{found.group(2)}" if found else None
