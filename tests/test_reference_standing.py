"""reports/reference/ is the reference runtime's published standing, and reports/<name>/
each shipped harness's (harnesses/); each must match what the suite finds today.
Regenerate the reference's with ``make run`` and the harnesses' with ``make standings``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.report import StandingReport, load_standing, render

ROOT = Path(__file__).resolve().parents[1]
#: reports/<name>/ -> the spec that drives it, its own run arguments, the exit codes a run
#: may end with (a shipped harness reports what its framework does, findings included),
#: and the command that regenerates it.
STANDINGS = {
    "reference": ("reference", (), (0,), "make run"),
    "langgraph": (
        "python:harnesses.langgraph:create",
        ("--no-hunt",),
        (0, 1),
        "make standings",
    ),
    "pydantic-ai": (
        "python:harnesses.pydanticai:create",
        ("--no-hunt",),
        (0, 1),
        "make standings",
    ),
}


def _stale(name: str) -> str:
    return f"reports/{name}/ is out of date: regenerate it with `{STANDINGS[name][3]}`"


pytestmark = pytest.mark.slow


def _outcomes(report: StandingReport) -> dict[str, object]:
    return {
        "implementation": (report.implementation.name, report.implementation.version),
        "suite": report.suite.version,
        "rules": [(rule.id, rule.standing) for rule in report.rules],
        "checks": sorted(
            (clause.id, check.name, check.outcome) for _, clause, check in report.checks()
        ),
    }


@pytest.mark.parametrize("name", sorted(STANDINGS))
def test_committed_standing_matches_a_fresh_run(name: str, tmp_path: Path) -> None:
    spec, arguments, exits, _ = STANDINGS[name]
    committed = load_standing(ROOT / "reports" / name / "standing.json")
    env = {**os.environ, "CI": "true"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "run",
            "--impl",
            spec,
            "--report-dir",
            str(tmp_path),
            "-q",
            *arguments,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode in exits, done.stdout + done.stderr
    fresh = load_standing(tmp_path / "standing.json")
    now, then = _outcomes(fresh), _outcomes(committed)
    changed = sorted(set(now["checks"]) ^ set(then["checks"]))  # type: ignore[arg-type]
    assert now == then, f"{_stale(name)}; checks that differ: {changed}"


@pytest.mark.parametrize("name", sorted(STANDINGS))
def test_committed_markdown_renders_from_committed_json(name: str) -> None:
    committed_dir = ROOT / "reports" / name
    committed = load_standing(committed_dir / "standing.json")
    rendered = render(committed, "markdown")
    text = "".join(f.content.decode("utf-8") for f in rendered.files if f.path == "STANDING.md")
    assert text == (committed_dir / "STANDING.md").read_text(encoding="utf-8"), _stale(name)
