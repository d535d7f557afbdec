"""One mutant's run: the workspace copy, the child's environment, the time limit, and how
an ending is classified."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

import pytest

from mutation._execute import (
    EXIT_FINDING,
    EXIT_NOT_STARTED,
    EXIT_UNDRIVABLE,
    HuntPlan,
    Status,
    Workspace,
    classify,
    compile_error,
    failing_clauses,
    failing_kinds,
    suite_arguments,
    suite_command,
)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "reference_impl"


def _standing(path: Path, clauses: dict[str, str]) -> Path:
    rules = [{"id": "R", "clauses": [{"id": c, "standing": s} for c, s in clauses.items()]}]
    path.mkdir(parents=True, exist_ok=True)
    (path / "standing.json").write_text(json.dumps({"rules": rules}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("code", "timed_out", "status", "detail"),
    [
        (0, False, Status.SURVIVED, ""),
        (EXIT_FINDING, False, Status.KILLED, "failing: RT-TOOL-2#c1; erring"),
        (EXIT_UNDRIVABLE, False, Status.CRASHED, "could not be driven: ImportError: boom"),
        (2, False, Status.CRASHED, "exited with 2: ImportError: boom"),
        (-9, False, Status.CRASHED, "exited with -9"),
        (None, True, Status.TIMEOUT, "did not finish in time"),
    ],
    ids=["passed", "finding", "undrivable", "usage", "signal", "timeout"],
)
def test_classify(
    tmp_path: Path, code: int | None, timed_out: bool, status: Status, detail: str
) -> None:
    reports = _standing(
        tmp_path,
        {"RT-TOOL-2#c1": "does-not-conform", "RT-TOOL-2#c2": "conforms", "DR-3#c2": "error"},
    )
    got_status, got_detail = classify(code, timed_out, reports, "warning\nImportError: boom\n\n")
    assert got_status is status
    assert detail in got_detail


def test_rttools_own_undrivable_line_is_not_repeated(tmp_path: Path) -> None:
    line = "rttool: the implementation could not be driven: broke the protocol schema"
    assert classify(EXIT_UNDRIVABLE, False, tmp_path, f"{line}\n") == (
        Status.CRASHED,
        "the implementation could not be driven: broke the protocol schema",
    )


def test_a_finding_without_a_readable_report_is_still_killed(tmp_path: Path) -> None:
    assert classify(EXIT_FINDING, False, tmp_path, "") == (
        Status.KILLED,
        "the run reported a finding",
    )


@pytest.mark.parametrize("code", [EXIT_FINDING, EXIT_NOT_STARTED])
def test_a_run_that_could_not_start_the_suite_is_a_crash_not_a_kill(
    tmp_path: Path, code: int
) -> None:
    """An exception that ended the child before it wrote a report (a fresh interpreter
    exits 1 on one, the warm parent's fork 98) is no finding on the mutant."""
    stderr = 'Traceback (most recent call last):\n  File "x.py", line 1\nOSError: no scratch\n'
    assert classify(code, False, tmp_path, stderr) == (
        Status.CRASHED,
        "the suite could not start: OSError: no scratch",
    )


def test_an_erring_clause_is_told_apart_from_a_failing_one(tmp_path: Path) -> None:
    # An implementation that cannot report where a case reached it is detected, but no
    # check judged it: the detail says which clauses failed and which erred.
    reports = _standing(tmp_path, {"R#c1": "error", "R#c2": "conforms"})
    assert classify(EXIT_FINDING, False, reports, "") == (
        Status.KILLED,
        "erring (an implementation fault): R#c1",
    )
    reports = _standing(tmp_path, {"R#c1": "does-not-conform", "R#c2": "error"})
    assert classify(EXIT_FINDING, False, reports, "")[1] == (
        "failing: R#c1; erring (an implementation fault): R#c2"
    )


@pytest.mark.parametrize(
    "content",
    ["not json", "[]", '{"rules": 3}', '{"rules": [{"clauses": [{"id": 1}]}, 7]}'],
)
def test_failing_clauses_tolerates_any_report(tmp_path: Path, content: str) -> None:
    (tmp_path / "standing.json").write_text(content, encoding="utf-8")
    assert failing_clauses(tmp_path / "standing.json") == []


def test_compile_error_names_what_does_not_compile() -> None:
    assert compile_error("x = 1 is 1\n", "m.py") is None  # a warning, not an error
    problem = compile_error("def f(& , a): pass\n", "m.py")
    assert problem is not None and problem.startswith("the mutated module does not compile")


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


def test_prepare_mutates_a_copy_never_the_package(tmp_path: Path) -> None:
    before = _digest(PACKAGE)
    space = Workspace(tmp_path / "m1", PACKAGE)
    space.prepare("wire.py", "MUTATED = True\n")
    copy = space.source / "reference_impl"
    assert (copy / "wire.py").read_text(encoding="utf-8") == "MUTATED = True\n"
    assert (copy / "harness" / "__init__.py").is_file()
    assert not list(copy.rglob("__pycache__"))
    assert _digest(PACKAGE) == before
    space.remove()
    assert not space.root.exists()


def test_the_child_imports_the_copy_and_keeps_temporary_files_inside(tmp_path: Path) -> None:
    space = Workspace(tmp_path / "m1", PACKAGE)
    space.prepare()
    env = space.environment()
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(space.source)
    assert env["TMPDIR"] == env["RTTOOL_SCRATCH_DIR"] == str(space.scratch)
    report = space.scratch / "where.txt"
    script = (
        "import reference_impl, tempfile, sys; "
        "from reference_impl.harness._database import scratch; "
        f"open({str(report)!r}, 'w').write('\\n'.join("
        "[reference_impl.__file__, tempfile.gettempdir(), scratch() or '']))"
    )
    code, timed_out, _ = space.run([sys.executable, "-P", "-c", script], timeout=120)
    assert (code, timed_out) == (0, False)
    imported, temporary, databases = report.read_text(encoding="utf-8").split("\n")
    assert Path(imported).is_relative_to(space.source)
    assert Path(temporary) == Path(databases) == space.scratch


def test_a_run_over_its_limit_is_stopped_with_its_children(tmp_path: Path) -> None:
    space = Workspace(tmp_path / "m1", PACKAGE)
    space.prepare()
    pid_file = space.scratch / "grandchild.pid"
    script = (
        "import subprocess, sys, time; "
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
        f"open({str(pid_file)!r}, 'w').write(str(c.pid)); time.sleep(600)"
    )
    code, timed_out, _ = space.run([sys.executable, "-c", script], timeout=3)
    assert timed_out and code is None
    grandchild = int(pid_file.read_text(encoding="utf-8"))
    deadline = time.monotonic() + 60
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A killed child that nobody reaped yet is a zombie: gone for our purpose.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.is_file() and stat.read_text().split(")")[-1].split()[0] == "Z")


def test_sigterm_stops_a_run_like_ctrl_c() -> None:
    import signal

    from mutation._run import stop_on_terminate

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), stop_on_terminate():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(30)  # the handler raises long before this ends
    assert signal.getsignal(signal.SIGTERM) == before


def test_the_hunt_runs_seeded_and_counted_or_not_at_all(tmp_path: Path) -> None:
    searched = suite_command(suite_arguments(tmp_path, HuntPlan(seed=7, examples=40)))
    assert searched[searched.index("--seed") + 1] == "7"
    assert searched[searched.index("--examples") + 1] == "40"
    assert "--no-hunt" not in searched
    assert "--no-hunt" in suite_command(suite_arguments(tmp_path))
    space = Workspace(tmp_path / "w", tmp_path, HuntPlan(seed=7, examples=40))
    assert space.environment()["CI"] == "true"  # the hunt's reproducible mode


def _cases(path: Path, kinds: dict[str, str]) -> Path:
    checks = [{"id": f"R#c1::{kind}", "kind": kind, "outcome": o} for kind, o in kinds.items()]
    clause = {"id": "R#c1", "standing": "does-not-conform", "checks": checks}
    (path / "standing.json").write_text(json.dumps({"rules": [{"clauses": [clause]}]}))
    return path / "standing.json"


def test_a_mutant_only_the_hunt_killed_is_told_apart(tmp_path: Path) -> None:
    assert failing_kinds(_cases(tmp_path, {"hunt": "failed", "check": "passed"})) == {"hunt"}
    assert failing_kinds(_cases(tmp_path, {"hunt": "failed", "vector": "error"})) == {
        "hunt",
        "vector",
    }
    status, detail = classify(1, False, tmp_path, "")
    assert status is Status.KILLED and "R#c1" in detail and "the hunt only" not in detail
    _cases(tmp_path, {"hunt": "failed"})
    assert classify(1, False, tmp_path, "")[1].endswith("(the hunt only)")
    assert failing_kinds(tmp_path / "missing.json") == set()


def test_a_mutants_run_tries_the_cases_of_its_line_first_and_may_stop_at_a_failure(
    tmp_path: Path,
) -> None:
    """The cases that ran the mutated line go first, each as ``--first``; one of a rule
    the run leaves out is dropped, as it cannot run; ``--exitfirst`` only when asked."""
    first = ("DR-1#c3/done-pairs", "RT-TOOL-9#c1/guard[x]")
    argv = suite_arguments(tmp_path, None, ("DR-1",), first, exitfirst=True)
    assert [argv[i + 1] for i, a in enumerate(argv) if a == "--first"] == ["DR-1#c3/done-pairs"]
    assert "--exitfirst" in argv
    every = suite_arguments(tmp_path, None, (), first)
    assert [every[i + 1] for i, a in enumerate(every) if a == "--first"] == list(first)
    assert "--exitfirst" not in every
