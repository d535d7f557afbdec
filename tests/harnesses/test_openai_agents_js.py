"""The JavaScript harness (the OpenAI Agents SDK, over stdio, no Python in it): its own
tests pass, and it is driven by the suite like any other (its standing is published in
``reports/openai-agents-js/`` and checked against a fresh run with the others)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.cli import main

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "harnesses" / "js" / "openai-agents"
SPEC = "stdio:node harnesses/js/openai-agents/harness.mjs"


def _ready() -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    if not (HARNESS / "node_modules" / "@openai" / "agents").is_dir():
        pytest.skip("its packages are not installed (npm ci --prefix harnesses/js/openai-agents)")


@pytest.mark.slow
def test_the_harness_passes_its_own_tests() -> None:
    _ready()
    done = subprocess.run(
        ["node", "--test"],
        cwd=HARNESS / "test",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.mark.slow
def test_the_doctor_finds_the_harness_ready(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ready()
    monkeypatch.chdir(ROOT)
    code = main(["doctor", "--impl", SPEC])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0, lines
    assert lines[-1].startswith("rttool doctor: ready: "), lines
