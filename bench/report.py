"""``python -m bench report [--cases N] [--failing N] [--mutant NAME | --no-mutant]``:
what the timelines cost ``report.html``.

* render time: a standing of 500 cases (checks), a fifth of them failing, then every one,
  each failing one with evidence of its own (the toy runtime's committed scenarios and
  traces, a real runtime's), written as ``report.html`` by
  :func:`conformance.report.write_reports` (the evidence read, decoded and drawn), best of
  three; beside it the page without its timelines, as it was before them;
* size: the reference runtime run with a mutant the hunt catches (``rttool run --mutant``,
  its counterexamples and failing cases kept as evidence), its ``report.html`` with and
  without the timelines.

Targets: 500 cases rendered within 2 s; the mutant's page within 2x its size without
timelines.  A missed target is reported ("MISS") and makes the exit status 1; nothing
here is a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from adapters.files import write_file
from conformance.report import (
    CheckResult,
    ClauseResult,
    Evidence,
    FailedExpectation,
    ImplementationInfo,
    RenderOptions,
    RuleResult,
    RunInfo,
    StandingReport,
    SuiteInfo,
    load_standing,
    render,
    write_reports,
)

__all__ = ["main", "standing_of"]

ROOT = Path(__file__).resolve().parents[1]
TOY_EVIDENCE = ROOT / "reports" / "toy" / "evidence"
RENDER_LIMIT_S = 2.0
SIZE_LIMIT = 2.0
MUTANT = "held-lost-on-failed-write-back"


def _evidence(folder: Path, failing: int) -> list[Evidence]:
    """``failing`` evidence folders under ``folder``, each a copy of one of the toy's."""
    sources = sorted(path for path in TOY_EVIDENCE.iterdir() if (path / "trace.json").is_file())
    made = []
    for number in range(failing):
        source = sources[number % len(sources)]
        for name in ("scenario.json", "trace.json"):
            write_file(folder, f"evidence/case-{number}/{name}", (source / name).read_bytes())
        made.append(
            Evidence(
                scenario=f"evidence/case-{number}/scenario.json",
                trace=f"evidence/case-{number}/trace.json",
            )
        )
    return made


def _check(number: int, evidence: Evidence | None) -> CheckResult:
    if evidence is None:
        return CheckResult(name=f"check-{number}", outcome="passed")
    failure = FailedExpectation(
        message=f"case {number}: the tool body received the argument undecoded",
        scenario=None,
        pointer="/steps/0/runs/0/side_effects/0/input",
        expected="[1, 2]",
        got='"[1, 2]"',
    )
    return CheckResult(
        name=f"check-{number}",
        outcome="failed",
        message=failure.message,
        evidence=evidence,
        failures=(failure,),
    )


def standing_of(cases: int, evidence: Sequence[Evidence]) -> StandingReport:
    """A standing of ``cases`` checks over ten rules of five clauses; the first
    ``len(evidence)`` checks of every tenth fail, each with its own evidence."""
    per_clause = max(1, cases // 50)
    failing = iter(evidence)
    rules = []
    number = 0
    for r in range(1, 11):
        clauses = []
        for c in range(1, 6):
            checks = []
            for _ in range(per_clause):
                fails = number % (max(1, cases // max(1, len(evidence)))) == 0
                checks.append(_check(number, next(failing, None) if fails else None))
                number += 1
            clauses.append(
                ClauseResult(
                    id=f"R-{r}#c{c}",
                    rule=f"R-{r}",
                    number=c,
                    text="A clause.",
                    checks=tuple(checks),
                )
            )
        rules.append(
            RuleResult(
                id=f"R-{r}", title="A rule", family="R", level="core", clauses=tuple(clauses)
            )
        )
    return StandingReport(
        implementation=ImplementationInfo(name="bench", version="1", spec="bench"),
        suite=SuiteInfo(name="rttool", version="bench"),
        run=RunInfo(started_at=None, duration_s=None, seed=1, levels=("core",)),
        rules=tuple(rules),
    )


def _render_time(cases: int, failing: int) -> bool:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        report = standing_of(cases, _evidence(folder, failing))
        counted = sum(1 for _ in report.checks())
        drawn: list[float] = []
        plain: list[float] = []
        for _ in range(3):
            started = time.perf_counter()
            write_reports(report, folder, ["html"])
            drawn.append(time.perf_counter() - started)
            started = time.perf_counter()
            bare = render(report, "html", RenderOptions()).files[0].content
            plain.append(time.perf_counter() - started)
        size = (folder / "report.html").stat().st_size
    seconds = min(drawn)
    verdict = "ok" if seconds <= RENDER_LIMIT_S else "MISS"
    print(f"report.html of a standing of {counted} cases, {failing} failing with evidence:")
    print(
        f"  with timelines     {seconds * 1000:8.1f} ms   {size:>10,} bytes   "
        f"[{verdict}: within {RENDER_LIMIT_S:g} s]"
    )
    print(
        f"  without timelines  {min(plain) * 1000:8.1f} ms   {len(bare):>10,} bytes   "
        "(as before them, for context)"
    )
    return verdict == "ok"


def _mutant_size(mutant: str) -> bool:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "run"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "conformance.cli",
                "run",
                "--impl",
                "reference",
                "--mutant",
                mutant,
                "--seed",
                "1",
                "-q",
                "--report-dir",
                str(out),
            ],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "CI": "true"},
        )
        if done.returncode not in (0, 1):
            print(f"the run of mutant {mutant} failed ({done.returncode}): {done.stderr[-300:]}")
            return False
        report = load_standing(out / "standing.json")
        with_timelines = (out / "report.html").stat().st_size
        without = len(render(report, "html", RenderOptions()).files[0].content)
        failing = sum(1 for _, _, c in report.checks() if c.outcome in ("failed", "error"))
        found = report.hunt.counterexamples if report.hunt is not None else 0
    ratio = with_timelines / without
    verdict = "ok" if ratio <= SIZE_LIMIT else "MISS"
    print(
        f"report.html of the reference runtime with mutant {mutant} "
        f"({failing} failing checks, {found} counterexample{'s' * (found != 1)}):"
    )
    print(
        f"  with timelines {with_timelines:,} bytes, without {without:,} bytes: "
        f"{ratio:.2f}x   [{verdict}: within {SIZE_LIMIT:g}x]"
    )
    return verdict == "ok"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the report benchmarks; 0 when every target is met."""
    parser = argparse.ArgumentParser(prog="python -m bench report")
    parser.add_argument("--cases", type=int, default=500, help="checks in the standing")
    parser.add_argument(
        "--failing",
        type=int,
        action="append",
        help="of them failing, with evidence (repeatable; default 100, then every one)",
    )
    parser.add_argument("--mutant", default=MUTANT, help=f"the mutant run (default {MUTANT})")
    parser.add_argument("--no-mutant", action="store_true", help="skip the mutant's run")
    args = parser.parse_args(argv)
    # every size is measured, whether or not an earlier one missed its target
    measured = [_render_time(args.cases, n) for n in args.failing or (100, args.cases)]
    timed = all(measured)
    sized = True if args.no_mutant else _mutant_size(args.mutant)
    return 0 if timed and sized else 1


if __name__ == "__main__":
    raise SystemExit(main())
