"""Shared helpers for the suite's own tests."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from adapters import Driver, connect
from conformance.engine import Case, judge
from conformance.toolkit.machinery import Failure, ScenarioRunner
from tests._tiers import slow_only

REFERENCE = "python:reference_impl.harness:create"


@functools.cache
def reference_driver() -> Driver:
    """One in-process driver for the reference runtime, shared by a test process."""
    return Driver(connect(REFERENCE))


def failures_of(case: Case, runner: ScenarioRunner) -> list[Failure]:
    """Every failure ``case`` reports against ``runner``, judged as the suite judges a
    case (none when it passes); a case that raised re-raises here, and one that ends
    untested or not applicable fails the test."""
    judged = judge(case, runner)
    if judged.error is not None:
        raise judged.error
    assert judged.verdict in ("passed", "failed"), f"{case.id}: {judged.message}"
    return list(judged.failures)


def mutant_driver(name: str) -> Driver:
    """A driver for a named mutant of the reference runtime."""
    return Driver(connect(f"{REFERENCE}?mutant={name}"))


#: The repository's root: ``tests.*`` harnesses import from here in a fresh interpreter.
ROOT = Path(__file__).resolve().parents[2]


def rttool(
    *args: str, cwd: Path, timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``rttool ARGS`` in a fresh interpreter, as a user runs it (output captured);
    ``env`` adds to the environment.  A run of the whole suite (no ``--only``) that
    reached a verdict (exit 0 or 1) is for a slow test only."""
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )
    if args[:1] == ("run",) and "--only" not in args and done.returncode in (0, 1):
        slow_only("a run of the whole suite in a fresh interpreter")
    return done


def harness_env() -> dict[str, str]:
    """The environment that lets a fresh interpreter import this repository's tests."""
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": str(ROOT) if not path else f"{ROOT}{os.pathsep}{path}"}


def committed_clauses(name: str = "reference") -> dict[str, dict[str, object]]:
    """Every clause of the committed standing ``reports/NAME/standing.json``, by id: what
    the slow tier holds equal to a fresh run, read here instead of running again."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "reports" / name / "standing.json"
    standing = json.loads(path.read_text(encoding="utf-8"))
    return {clause["id"]: clause for rule in standing["rules"] for clause in rule["clauses"]}


def run_clauses(spec: str, only: Iterable[str], tmp_path: Path) -> dict[str, dict[str, object]]:
    """Every clause of the standing ``rttool run --impl SPEC --only ... --no-hunt`` writes
    (into ``tmp_path/out``), by id: what a test of a small harness's verdicts reads."""
    import json

    out = tmp_path / "out"
    chosen = [arg for one in only for arg in ("--only", one)]
    done = rttool(
        "run",
        "--impl",
        spec,
        *chosen,
        "--no-hunt",
        "--report-dir",
        str(out),
        "-q",
        cwd=tmp_path,
        env=harness_env(),
    )
    assert done.returncode in (0, 1), done.stderr
    standing = json.loads((out / "standing.json").read_text(encoding="utf-8"))
    return {clause["id"]: clause for rule in standing["rules"] for clause in rule["clauses"]}
