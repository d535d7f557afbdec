"""A long hunt stopped by hand (or by a cancelled CI job) keeps what it found."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_an_hour_long_hunt_interrupted_writes_its_findings(tmp_path: Path, stop: int) -> None:
    database = tmp_path / "db"
    argv = [sys.executable, "-m", "conformance.cli", "run", "-q", "--only", "RT-TOOL-10"]
    argv += ["--mutant", "repeats-counted-as-work", "--hunt-seconds", "3600"]
    argv += ["--example-db", f"dir:{database}", "--report-dir", str(tmp_path / "out")]
    run = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        # The hunt saves a counterexample as soon as it finds one: then it is stopped.
        while not any(path.is_file() for path in database.rglob("*")) and run.poll() is None:
            time.sleep(0.2)
        run.send_signal(stop)
        out, err = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    # Ctrl-C exits 130 and SIGTERM 143, as a shell reports a process each one ends.
    assert run.returncode == (130 if stop == signal.SIGINT else 143), out + err
    assert "Traceback" not in err
    standing = json.loads((tmp_path / "out" / "standing.json").read_text(encoding="utf-8"))
    assert standing["hunt"]["counterexamples"] >= 1 and standing["hunt"]["examples"] >= 1
    checks = [
        check
        for rule in standing["rules"]
        for clause in rule["clauses"]
        for check in clause["checks"]
        if check["name"] == "hunt-work-reported"
    ]
    # The counterexample fails the clause it breaks; the invariant's other clauses are
    # untested, naming the clause the failure belongs to.
    failed = [check for check in checks if check["outcome"] == "failed"]
    assert failed, checks
    assert all(
        check["outcome"] == "failed" or "not this clause's" in check["message"] for check in checks
    ), checks
    saved = tmp_path / "out" / str(failed[0]["evidence"]["counterexample"])
    assert json.loads(saved.read_text(encoding="utf-8"))["invariant"] == "work-reported"
