"""``rttool doctor --impl SPEC``: a quick, friendly smoke test of a harness.

The command computes a :class:`~conformance.doctor.Diagnosis` and renders it
(:func:`diagnosis_text`).  Exit codes: 0 the harness is ready for ``rttool run``, 1
problems were found, 2 a usage error, 3 the harness cannot be driven at all (no usable
handshake).
"""

from __future__ import annotations

import argparse
import shlex
from typing import TYPE_CHECKING

from conformance._escape import printable
from conformance.cli._output import Output, emit, text

if TYPE_CHECKING:
    from conformance.doctor import Diagnosis

__all__ = ["configure", "diagnosis_text"]

_DESCRIPTION = """\
A quick smoke test of a harness before `rttool run`: the handshake is held to the
protocol, with a hint for each problem; then a few small scenarios the suite itself
sends (the smallest, one whose call sends "args": [], and one per capability the
handshake offers) are run, and each answer is looked at as a harness's answer, not as a
verdict on the runtime.  Every problem is one line: what, where (a JSON pointer), and
how to fix it.  Exit 0: ready; 1: problems found; 3: the harness cannot be driven.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool doctor``."""
    from conformance._arguments import positive_float

    parser.description = _DESCRIPTION
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--impl",
        required=True,
        metavar="SPEC",
        help="reference, python:MODULE:ATTR, http://HOST:PORT, or stdio:COMMAND",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="per-request timeout (default 10)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Examine the harness; print a line per probe and per finding; return the exit code."""
    from conformance._redact import redacted
    from conformance.doctor import diagnose
    from conformance.engine import resolve_spec

    shown = redacted(args.impl)
    emit(Output(text([printable(f"rttool doctor: {shown}")])))
    diagnosis = diagnose(resolve_spec(args.impl, None), timeout=args.timeout)
    emit(diagnosis_text(diagnosis, shown))
    return diagnosis.exit_code


def _verdict(diagnosis: Diagnosis, shown: str) -> str:
    problems = len(diagnosis.problems)
    if diagnosis.undrivable:
        return "rttool doctor: the harness cannot be driven: fix the problems above first"
    if problems:
        return (
            f"rttool doctor: {problems} problem{'s' * (problems != 1)}: fix them, then run "
            "rttool doctor again"
        )
    gaps = [finding for finding in diagnosis.findings if finding.level == "gap"]
    ready = f"rttool doctor: ready: rttool run --impl {shlex.quote(shown)}"
    if gaps:  # ready to run; what the handshake says the runtime does not do is a finding
        return f"{ready} (it will not conform: {len(gaps)} gap{'s' * (len(gaps) != 1)} above)"
    return ready


def diagnosis_text(diagnosis: Diagnosis, shown: str) -> Output:
    """The handshake, a line per probe and per finding, then the verdict; ``shown`` is
    the spec as the terminal may show it (credentials redacted)."""
    from conformance._redact import redacted
    from conformance.report import capability_names

    lines = []
    handshake = diagnosis.handshake
    if handshake is not None:
        impl = handshake.implementation
        offered = ", ".join(capability_names(handshake.capabilities)) or "nothing"
        lines.append(
            f"  ok       hello: {impl.name} {impl.version}; profiles "
            f"{', '.join(handshake.profiles) or 'none'}; offers {offered}"
        )
    for probe in diagnosis.probes:
        mark = "ok" if probe.sound else "problem"
        steps = f"{probe.steps} step{'s' * (probe.steps != 1)}" if probe.steps else "not run"
        lines.append(f"  {mark:<8} {probe.scenario} ({probe.reason}): {steps}")
    lines += [f"rttool doctor: {redacted(finding.line())}" for finding in diagnosis.findings]
    lines.append(_verdict(diagnosis, shown))
    return Output(text(printable(line) for line in lines))
