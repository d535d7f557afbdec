"""Every error keeps its evidence: a case or hunt example the implementation cannot run
leaves its scenario, the steps answered before the error and the implementation's
message (in-process, its traceback) in the report directory; the hunt still reports
what it judged before; ``rttool replay`` runs the scenario again.

The harness refuses to restore its own saved state on every restart, as a framework
that cannot load a checkpoint it wrote does: before, such a run kept nothing to
reproduce the error and its standing carried ``"hunt": null``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance._support import harness_env, rttool
from tests.conformance.restore_fails import REFUSAL

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

REFUSING = "python:tests.conformance.restore_fails:create"


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("errored") / "out"
    done = rttool(
        "run",
        "--impl",
        REFUSING,
        "--only",
        "DR-1",
        "--examples",
        "30",
        "--hunt-seconds",
        "5",
        "--report-dir",
        str(out),
        "-q",
        cwd=out.parent,
        env={**harness_env(), "CI": "true"},
    )
    assert done.returncode == 1, done.stderr
    return out


def _errored(report_dir: Path) -> list[dict[str, object]]:
    standing = json.loads((report_dir / "standing.json").read_text(encoding="utf-8"))
    return [
        check
        for rule in standing["rules"]
        for clause in rule["clauses"]
        for check in clause["checks"]
        if check["outcome"] == "error"
    ]


def test_a_hunt_that_errors_still_reports_what_it_judged(report_dir: Path) -> None:
    standing = json.loads((report_dir / "standing.json").read_text(encoding="utf-8"))
    assert standing["hunt"] is not None
    assert standing["hunt"]["examples"] >= 1
    hunted = [check for check in _errored(report_dir) if check["kind"] == "hunt"]
    assert hunted
    assert all(check["hunt"]["judged"] == standing["hunt"]["examples"] for check in hunted)
    markdown = (report_dir / "STANDING.md").read_text(encoding="utf-8")
    assert "It stopped on an example the implementation could not run" in markdown


@pytest.mark.parametrize("kind", ["check", "hunt"])
def test_an_erroring_case_keeps_scenario_partial_trace_message_and_traceback(
    report_dir: Path, kind: str
) -> None:
    check = next(c for c in _errored(report_dir) if c["kind"] == kind)
    evidence = check["evidence"]
    assert isinstance(evidence, dict)
    record = json.loads((report_dir / evidence["error"]).read_text(encoding="utf-8"))
    scenario = json.loads((report_dir / evidence["scenario"]).read_text(encoding="utf-8"))
    trace = json.loads((report_dir / evidence["trace"]).read_text(encoding="utf-8"))
    assert record["scenario"] == scenario
    assert REFUSAL in record["message"]
    assert "RestoreRefused" in record["traceback"] and "_restore" in record["traceback"]
    # The partial trace holds the steps answered before the restart that failed.
    assert record["failed_at"] == {"index": len(trace["steps"]), "op": "restart"}
    assert scenario["steps"][len(trace["steps"])]["op"] == "restart"
    markdown = (report_dir / "STANDING.md").read_text(encoding="utf-8")
    assert f"[error](<{evidence['error']}>)" in markdown


def test_replay_reproduces_the_error_and_writes_its_trace(report_dir: Path) -> None:
    check = next(c for c in _errored(report_dir) if c["kind"] == "hunt")
    record = report_dir / check["evidence"]["error"]  # type: ignore[index]
    written = report_dir.parent / "replayed-trace.json"
    done = rttool(
        "replay",
        str(record),
        "--impl",
        REFUSING,
        "--trace",
        str(written),
        cwd=report_dir.parent,
        env=harness_env(),
    )
    assert done.returncode == 3, done.stderr
    failed_at = json.loads(record.read_text(encoding="utf-8"))["failed_at"]
    assert f"errors again at step {failed_at['index']} (restart)" in done.stdout
    assert REFUSAL in done.stdout
    assert len(json.loads(written.read_text(encoding="utf-8"))["steps"]) == failed_at["index"]
    healthy = rttool("replay", str(record), cwd=report_dir.parent, env=harness_env())
    assert healthy.returncode == 0, healthy.stderr
    assert "no longer errors" in healthy.stdout


def _hit_steps(page: Path) -> list[str]:
    """The steps of a page's timelines that a failure or error is marked on."""
    from tests.report.htmlscan import scan_html

    scan = scan_html(page.read_text(encoding="utf-8"))
    return [attrs["data-step"] for _, attrs in scan.elements if "data-hit" in attrs]


def test_the_report_marks_each_error_on_the_step_the_implementation_failed_on(
    report_dir: Path,
) -> None:
    check = next(c for c in _errored(report_dir) if c["kind"] == "hunt")
    record = report_dir / check["evidence"]["error"]  # type: ignore[index]
    failed_at = json.loads(record.read_text(encoding="utf-8"))["failed_at"]
    page = report_dir / "report.html"
    assert str(failed_at["index"]) in _hit_steps(page)
    assert "not answered" in page.read_text(encoding="utf-8")


def test_replay_writes_the_timeline_of_the_error_as_a_page(report_dir: Path) -> None:
    check = next(c for c in _errored(report_dir) if c["kind"] == "hunt")
    record = report_dir / check["evidence"]["error"]  # type: ignore[index]
    page = report_dir.parent / "replayed.html"
    done = rttool(
        "replay",
        str(record),
        "--impl",
        REFUSING,
        "--html",
        str(page),
        cwd=report_dir.parent,
        env=harness_env(),
    )
    assert done.returncode == 3, done.stderr
    assert f"timeline written to {page}" in done.stdout
    failed_at = json.loads(record.read_text(encoding="utf-8"))["failed_at"]
    assert _hit_steps(page) == [str(failed_at["index"])]
    assert REFUSAL in page.read_text(encoding="utf-8")
