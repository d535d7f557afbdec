"""``rttool replay FILE``: run a saved counterexample again and say whether it still fails.

FILE is a ``counterexample.json`` written by the hunt (it names its invariant) or a bare
scenario JSON (then every invariant is judged, and nothing else: a check's evidence
scenario is not judged by its check, so the command says how to re-run the check).
Exit 1 when an invariant still fails, 0 when none does, 2 for a bad file, 3 when the
implementation cannot be driven, 4 when it cannot run the scenario (it lacks a
capability the scenario needs): nothing was shown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["EXIT_UNTESTED", "SUMMARY_CHARS", "configure"]

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
    parser.set_defaults(handler=replay)


def _load(path: Path) -> tuple[object, str | None]:
    from adapters.errors import SuiteError
    from adapters.limits import TooDeep, loads

    try:
        data = loads(path.read_bytes())
    except OSError as err:
        raise SuiteError("cannot read the file", file=str(path), reason=err.strerror) from err
    except TooDeep as err:
        raise SuiteError(
            "the file is not usable", file=str(path), pointer=err.pointer, complaint=err.complaint
        ) from err
    except ValueError as err:
        raise SuiteError("the file is not JSON", file=str(path), reason=str(err)[:200]) from err
    if isinstance(data, dict) and "scenario" in data:
        invariant = data.get("invariant")
        return data["scenario"], invariant if isinstance(invariant, str) else None
    return data, None


def replay(args: argparse.Namespace) -> int:
    """Replay one scenario and judge it."""
    from adapters import Driver, Unsupported, connect
    from adapters.codec import CodecError, check_outbound, from_json
    from adapters.errors import ImplementationError, RttoolError, SuiteError
    from adapters.scenario import Scenario
    from conformance import __version__
    from conformance._escape import printable
    from conformance._pytest import resolve_spec
    from conformance.hunt import INVARIANTS, steps_summary

    file = printable(str(args.file))
    try:
        raw, named = _load(args.file)
        try:
            check_outbound("scenario", raw)
        except SuiteError as err:
            raise SuiteError(
                "the file's scenario breaks the protocol schema", file=str(args.file), **err.details
            ) from err
        scenario = from_json(Scenario, raw)
        spec = resolve_spec(args.impl, args.mutant)
    except (RttoolError, CodecError) as err:
        sys.stderr.write(f"rttool: error: {printable(_redacted(str(err)))}\n")
        return 2
    chosen = [i for i in INVARIANTS if named is None or i.name == named]
    if not chosen:
        shown = printable(repr(named)[:200])
        sys.stderr.write(f"rttool: error: unknown invariant: invariant={shown} file={file}\n")
        return 2
    try:
        driver = Driver(
            connect(spec, timeout=args.timeout), timeout=args.timeout, suite_version=__version__
        )
        try:
            handshake = driver.handshake()
            trace = driver.run(scenario)
        finally:
            driver.close()
    except ImplementationError as err:
        said = printable(_redacted(str(err)))
        sys.stderr.write(f"rttool: the implementation could not be driven: {said}\n")
        return 3
    if isinstance(trace, Unsupported):
        sys.stderr.write(
            "rttool: not replayed: the implementation lacks capability "
            f"{printable(trace.capability)}, which the scenario needs\n"
        )
        return EXIT_UNTESTED
    steps = len(scenario.steps)
    print(
        f"replayed {steps} {'step' if steps == 1 else 'steps'}: "
        f"{printable(_shortened(steps_summary(scenario)))}"
    )
    failing = 0
    for invariant in chosen:
        message = invariant.judge(scenario, trace, handshake)
        if message is not None:
            failing += 1
            print(
                f"still fails: {invariant.name} ({', '.join(invariant.clauses)}): "
                f"{printable(message)}"
            )
    if not failing and named is not None:
        print("passes now: " + ", ".join(i.name for i in chosen))
    elif not failing:
        # A bare scenario (a check's evidence, say) is judged by the hunt's invariants
        # only: the check that wrote it had expectations of its own, which a scenario
        # file does not carry. Saying "passes now" would wrongly suggest a fix.
        print("no hunt invariant fails on this scenario: " + ", ".join(i.name for i in chosen))
        clause = _clause_of(args.file)
        again = f"rttool run --only {clause}" if clause else "rttool run --only CLAUSE"
        print(
            "note: a scenario file carries no check's expectations; to see whether the "
            f"check that wrote it still fails, run it again: {again}"
        )
    return 1 if failing else 0


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
