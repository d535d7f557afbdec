"""reports/reference/ is the reference runtime's published standing; it must match what
the suite finds today.  Regenerate it with ``make run``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.report import StandingReport, load_standing, render

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "reports" / "reference"
REGENERATE = "reports/reference/ is out of date: regenerate it with `make run`"

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


def test_committed_standing_matches_a_fresh_run(tmp_path: Path) -> None:
    committed = load_standing(COMMITTED / "standing.json")
    env = {**os.environ, "CI": "true"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "run",
            "--impl",
            "reference",
            "--report-dir",
            str(tmp_path),
            "-q",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fresh = load_standing(tmp_path / "standing.json")
    assert _outcomes(fresh) == _outcomes(committed), REGENERATE


def test_committed_markdown_renders_from_committed_json() -> None:
    committed = load_standing(COMMITTED / "standing.json")
    rendered = render(committed, "markdown")
    text = "".join(f.content.decode("utf-8") for f in rendered.files if f.path == "STANDING.md")
    assert text == (COMMITTED / "STANDING.md").read_text(encoding="utf-8"), REGENERATE
