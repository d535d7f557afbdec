"""Large inputs cost time in proportion to their size and output that stays bounded: a
1,000-step replay, a 70,000-entry expectations file, an implementation that names itself
at great length."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.cli._report import SHOWN_PROBLEMS
from conformance.report import IMPLEMENTATION_LIMITS, ImplementationInfo
from tests.conformance._support import harness_env, rttool

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")


def _long_scenario(steps: int) -> dict[str, object]:
    # One turn, then polls and waits: each step's record stays the same size.
    rest = [{"op": "poll", "limit": 5} if i % 2 else {"op": "wait"} for i in range(steps - 1)]
    return {
        "id": "long",
        "tools": [],
        "model": [{"text": "hello"}],
        "steps": [{"op": "start_turn", "turn": "t1"}, *rest],
    }


@pytest.mark.slow
def test_a_thousand_step_replay_ends_with_a_bounded_account(tmp_path: Path) -> None:
    path = tmp_path / "counterexample.json"
    path.write_text(
        json.dumps({"invariant": "no-loss", "scenario": _long_scenario(1000)}), encoding="utf-8"
    )
    done = rttool("replay", str(path), cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("replayed 1000 steps: start_turn(t1) -> wait -> poll")
    assert all(len(line) < 1000 for line in lines) and len(lines) < 5


@pytest.mark.slow
def test_seventy_thousand_bad_entries_are_summarised_after_fifty(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "expected.yaml"
    entries = "".join(f"  - rule: RT-TOOL-{index}\n" for index in range(70_000))
    path.write_text("expectations:\n" + entries, encoding="utf-8")
    assert main(["expectations", "check", str(path)]) == 2
    lines = capfd.readouterr().err.splitlines()
    assert len(lines) == SHOWN_PROBLEMS + 1
    assert all(line.startswith(f"rttool: error: {path}:") for line in lines[:-1])
    assert (
        lines[-1]
        == f"rttool: error: ... and {70_000 - SHOWN_PROBLEMS} more problems in the same file"
    )


def test_an_implementation_is_named_in_bounded_length() -> None:
    long = "x" * 1_000_000
    info = ImplementationInfo(name=long, version=long, homepage=long, spec=long)
    for field, limit in IMPLEMENTATION_LIMITS.items():
        value = getattr(info, field)
        assert len(value) == limit and value.endswith("…")


@pytest.mark.slow
def test_a_megabyte_version_is_capped_in_every_report(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = rttool(
        "run",
        "--impl",
        "python:tests.conformance.hostile:create?mode=long-name",
        "--only",
        "RT-TOOL-1",
        "--no-hunt",
        "--report-dir",
        str(out),
        cwd=tmp_path,
        env=harness_env(),
    )
    assert done.returncode == 0, done.stderr
    largest = max(path.stat().st_size for path in out.rglob("*") if path.is_file())
    assert largest < 100_000
    standing = json.loads((out / "standing.json").read_text(encoding="utf-8"))
    assert len(standing["implementation"]["version"]) == IMPLEMENTATION_LIMITS["version"]


def test_a_standing_report_with_a_long_name_is_refused(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from conformance.report import write_reports
    from tests.report.sample import sample_report

    write_reports(sample_report(), tmp_path, ["json"])
    path = tmp_path / "standing.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["implementation"]["name"] = "n" * 1_000_000
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["report", "render", str(path), "--out", str(tmp_path / "again")]) == 2
    err = capfd.readouterr().err
    assert len(err.splitlines()) == 1 and "/implementation/name" in err and len(err) < 1000
