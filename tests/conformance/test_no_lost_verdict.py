"""No verdict is ever lost: every selected case ends in ``standing.json`` with an outcome,
whatever the harness does while a case runs, is judged or has its evidence written, and
the exit code never improves because something could not be written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.engine import (
    Case,
    CaseOutcome,
    RunOptions,
    Selection,
    Session,
    Suite,
    charged,
    load_suite,
)
from conformance.report import Evidence
from conformance.rules import load_corpus
from conformance.toolkit import (
    CheckContext,
)
from conformance.toolkit.machinery import Failure
from tests.conformance._support import harness_env, rttool

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

ONLY = "RT-TOOL-1"
HOSTILE = "python:tests.conformance.hostile:create?mode="


def _selected_entries() -> int:
    """How many report entries the selection makes: one per case and selected clause."""
    corpus = load_corpus()
    cases = Suite.over(corpus).cases(Selection(only=(ONLY,)))
    return sum(1 for case in cases for clause in case.clauses if clause.startswith(f"{ONLY}#"))


def _entries(report_dir: Path) -> list[dict[str, object]]:
    standing = json.loads((report_dir / "standing.json").read_text(encoding="utf-8"))
    return [
        check
        for rule in standing["rules"]
        for clause in rule["clauses"]
        for check in clause["checks"]
    ]


def _run(mode: str, report_dir: Path, cwd: Path) -> tuple[int, str]:
    done = rttool(
        "run",
        "--impl",
        HOSTILE + mode,
        "--only",
        ONLY,
        "--no-hunt",
        "--report-dir",
        str(report_dir),
        "-q",
        cwd=cwd,
        env=harness_env(),
    )
    return done.returncode, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "exit_code"),
    [
        # The evidence holds text UTF-8 cannot carry; a scenario whose first step returns
        # no tool result (it pauses at a gate) is not bent, and may pass.
        ("surrogate", 1),
        ("deep", 1),  # a value nested past the limit
        ("system-exit", 1),  # sys.exit(0) inside a step
        ("base-exception", 1),  # a BaseException of the harness's own
        ("keyboard-interrupt", 130),  # the session is interrupted at the first step
    ],
)
def test_every_selected_case_ends_in_the_standing(
    mode: str, exit_code: int, tmp_path: Path
) -> None:
    code, stderr = _run(mode, tmp_path / "out", tmp_path)
    assert code == exit_code, stderr
    assert "Traceback" not in stderr
    entries = _entries(tmp_path / "out")
    assert len(entries) == _selected_entries()
    outcomes = [entry["outcome"] for entry in entries]
    if mode == "surrogate":
        assert outcomes.count("passed") < len(outcomes) / 4, outcomes
        # a case whose observation goes through RT-TOOL-1 ¶1's result shape, which the
        # mangled results break, is blocked by that clause: untested, never lost
        untested = [entry for entry in entries if entry["outcome"] == "skipped"]
        assert all("blocked by RT-TOOL-1 ¶1" in str(e["message"]) for e in untested), untested
        assert set(outcomes) <= {"failed", "error", "passed", "skipped"}
    else:  # every scenario's first step goes wrong: nothing can pass
        assert set(outcomes) <= {"failed", "error"}


def _run_plain(mode: str, report_dir: Path, cwd: Path) -> tuple[int, str]:
    """The suite under plain pytest, its reports written straight into ``report_dir``."""
    from conformance._pytest import SUITE_MODULE

    args = [sys.executable, "-m", "pytest", str(SUITE_MODULE), "-q", "-p", "no:cacheprovider"]
    args += ["--rootdir", str(SUITE_MODULE.parent), "-c", os.devnull]
    args += ["--rttool-impl", HOSTILE + mode, "--rttool-only", ONLY, "--rttool-no-hunt"]
    args += ["--rttool-report-dir", str(report_dir)]
    done = subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **harness_env()},
    )
    return done.returncode, done.stderr


@pytest.mark.slow
def test_evidence_that_cannot_be_written_changes_no_verdict(tmp_path: Path) -> None:
    written, blocked = tmp_path / "written", tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "evidence").write_text("a file where the evidence folder would go\n")
    first, _ = _run("surrogate", written, tmp_path)
    # rttool run builds its report in a fresh staging directory, where nothing blocks the
    # evidence; the plugin under plain pytest writes into the directory it is given.
    second, stderr = _run_plain("surrogate", blocked, tmp_path)
    assert first == second == 1, stderr
    assert any((written / "evidence").iterdir())
    kept = {(e["name"], e["outcome"]) for e in _entries(written)}
    assert {(e["name"], e["outcome"]) for e in _entries(blocked)} == kept
    judged = [e for e in _entries(blocked) if e["outcome"] in ("failed", "error")]
    assert judged and all("evidence not written" in str(e["message"]) for e in judged)


def _case(run: Callable[[CheckContext], None]) -> Case:
    return Case("RT-TOOL-1#c1/probe", "probe", "check", ("RT-TOOL-1#c1",), "probe", run)


def _fails_after_a_scenario(ctx: CheckContext) -> None:
    from adapters.scenario import StartTurn
    from conformance.toolkit import say, scenario

    ctx.run(scenario("probe", steps=[StartTurn("t1")], model=[say("hi")]))
    ctx.fail("the probe always fails")


class _Unwound(BaseException):
    pass


@pytest.mark.parametrize(
    "problem",
    [RecursionError("maximum recursion depth exceeded"), OSError(28, "No space left"), _Unwound()],
    ids=["recursion", "disk-full", "base-exception"],
)
def test_a_failure_writing_evidence_keeps_the_verdict(
    problem: BaseException, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    options = replace(RunOptions.quiet_reference(), report_dir=tmp_path)
    case = _case(_fails_after_a_scenario)
    state = Session(options, load_corpus(), load_suite().situations)

    def cannot_write(*args: object) -> dict[str, str]:
        raise problem

    monkeypatch.setattr(state, "_write_evidence", cannot_write)
    try:
        outcome = state.execute(case)
    finally:
        state.close()
    assert outcome.outcome == "failed"
    assert "the probe always fails" in outcome.message
    assert "evidence not written" in outcome.message and outcome.evidence == Evidence()
    assert outcome.evidence_error
    assert CaseOutcome.from_json(outcome.to_json()) == outcome
    # Charged to one of two clauses, the failure still says its evidence is missing.
    failures = (
        Failure("one", "s", "/steps", clause="RT-TOOL-1#c1"),
        Failure("two", "s", "/steps", clause="RT-TOOL-1#c2"),
    )
    split = replace(outcome, failures=failures)
    landed = charged(split, "RT-TOOL-1#c1")
    assert landed.message == "one (at /steps of s)" + outcome.unwritten()
    assert "evidence not written" in landed.message


@pytest.mark.parametrize(
    "raised", [SystemExit(0), _Unwound("framework"), RecursionError("deep")], ids=repr
)
def test_whatever_a_check_raises_is_an_error_of_the_suite(raised: BaseException) -> None:
    def check(ctx: CheckContext) -> None:
        raise raised

    state = Session(RunOptions.quiet_reference(), load_corpus(), load_suite().situations)
    try:
        outcome = state.execute(_case(check))
    finally:
        state.close()
    assert (outcome.outcome, outcome.fault) == ("error", "suite")
    assert type(raised).__name__ in outcome.message


def test_a_test_that_fails_outside_its_case_still_reports(pytester: pytest.Pytester) -> None:
    # A plugin breaks the suite's test before the case runs: the case still ends in the
    # standing, as an error of the suite, and the session does not pass.
    pytester.syspathinsert()
    pytester.makepyfile(
        breaker="import pytest\n"
        "@pytest.hookimpl(tryfirst=True)\n"
        "def pytest_runtest_setup(item):\n"
        "    if 'RT-TOOL-9#c5' in item.nodeid:\n"
        "        raise RuntimeError('a plugin broke the setup')\n"
    )
    out = pytester.path / "out"
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-9#c5",
        "--rttool-no-hunt",
        "--rttool-report-dir",
        str(out),
        "-p",
        "breaker",
        "-p",
        "no:cacheprovider",
    )
    assert result.ret != 0
    entries = _entries(out)  # one per variant of the clause's check
    assert entries
    for entry in entries:
        assert entry["outcome"] == "error" and entry["fault"] == "suite"
        assert "a plugin broke the setup" in str(entry["message"])


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("deep-handshake", "nested deeper than the limit of 128"),
        ("exit-in-factory", "harness factory failed"),
    ],
)
def test_a_harness_that_cannot_be_driven_is_exit_3_in_one_line(
    mode: str, said: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from conformance.cli import EXIT_UNDRIVABLE, main

    code = main(["run", "--impl", HOSTILE + mode, "--report-dir", str(tmp_path / "out")])
    err = capfd.readouterr().err
    assert code == EXIT_UNDRIVABLE, err
    assert len(err.strip().splitlines()) == 1 and said in err and "Traceback" not in err
