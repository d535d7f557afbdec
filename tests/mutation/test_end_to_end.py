"""``python -m mutation`` against a few real mutants of the reference runtime."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mutation._catalogue import apply_mutant, enumerate_mutants, load_modules
from mutation._execute import compile_error

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "reference_impl"


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


@pytest.mark.slow
def test_a_run_scores_real_mutants_and_leaves_the_tree_alone(tmp_path: Path) -> None:
    modules = load_modules(PACKAGE)
    sources = {module.name: module.text for module in modules}
    mutants = enumerate_mutants(modules)
    # A mutant that cannot compile (cosmic-ray turns a keyword-only "*" into another
    # operator), one that removes a record class's @dataclass (the runtime cannot build
    # its records: the suite must notice), and one that the equivalents file lists.
    invalid = next(
        m
        for m in mutants
        if m.code.startswith("def ")
        and compile_error(apply_mutant(m, sources[m.module]), m.module) is not None
    )
    broken = next(
        m
        for m in mutants
        if m.operator_short == "RemoveDecorator" and m.code == "@dataclass(frozen=True)"
    )
    listed_equivalent = next(m for m in mutants if m.id not in (invalid.id, broken.id))
    only = tmp_path / "only.txt"
    only.write_text(f"{invalid.id}\n{broken.id}\n{listed_equivalent.id}\n", encoding="utf-8")
    equivalents = tmp_path / "equivalents.txt"
    gone = "gone.py:f:AddNot:00000000"
    equivalents.write_text(
        f"{listed_equivalent.id}  unobservable  listed for the test\n{gone}  conforming  gone\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    before = _digest(PACKAGE)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mutation",
            "--only",
            str(only),
            "--equivalents",
            str(equivalents),
            "--out",
            str(out),
            "--jobs",
            "1",  # one mutant runs: a second job would only share the slow tier's cores
            "--hunt-examples",
            "10",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert _digest(PACKAGE) == before
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    statuses = {entry["id"]: entry["status"] for entry in data["outcomes"]}
    assert statuses[invalid.id] == "invalid"
    assert statuses[broken.id] in ("killed", "crashed")
    assert listed_equivalent.id not in statuses
    assert data["score"]["run"] == 1 and data["score"]["ratio"] == 1.0
    assert data["stale_equivalents"] == [{"id": gone, "line": 2}]
    assert "mutation: score 100.0% (1 of 1 killed" in result.stdout
    assert f"stale equivalent: line 2: {gone}" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "outcomes.jsonl",
        "results.json",
        "survivors.md",
        "survivors.txt",
    ]
