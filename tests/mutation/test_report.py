"""What a run writes: results.json, survivors with their diffs, the list to re-run, and
the summary it prints."""

from __future__ import annotations

import json
from pathlib import Path

from mutation._catalogue import ModuleSource, Mutant, enumerate_mutants
from mutation._equivalents import Equivalent
from mutation._execute import Outcome, Status
from mutation._report import RunRecord, diff_of, progress_line, summary_lines, write_outputs
from mutation._score import score, timing
from tests.mutation._fixtures import LAZY


def _record(
    outcomes: list[Outcome],
    mode: str = "all",
    interrupted: bool = False,
    conforming: tuple[str, ...] = (),
) -> RunRecord:
    return RunRecord(
        tool="cosmic-ray 0",
        package="pkg",
        enumerated=50,
        equivalents=3,
        mode=mode,
        sample=10 if mode == "sample" else None,
        seed=4,
        listed_from="list.txt" if mode == "listed" else None,
        outcomes=outcomes,
        score=score(outcomes, conforming),
        timing=timing(outcomes, 75.0, 2.0, 2),
        stale=[Equivalent("box.py:gone:AddNot:00000000", "unobservable", "it was", 7)],
        interrupted=interrupted,
        conforming=frozenset(conforming),
    )


def _mutants() -> tuple[list[Mutant], dict[str, str]]:
    return enumerate_mutants([ModuleSource("box.py", LAZY)]), {"box.py": LAZY}


def test_outputs_hold_score_gaps_and_their_diffs(tmp_path: Path) -> None:
    mutants, sources = _mutants()
    survivor, killed, invalid, variant = mutants[5], mutants[1], mutants[2], mutants[7]
    outcomes = [
        Outcome(killed.id, Status.KILLED, 1, 3.0, "failing: R#c1"),
        Outcome(survivor.id, Status.SURVIVED, 0, 4.0, ""),
        Outcome(invalid.id, Status.INVALID, None, 0.0, "does not compile"),
        Outcome(variant.id, Status.SURVIVED, 0, 4.0, ""),
    ]
    record = _record(outcomes, conforming=(variant.id,))
    write_outputs(tmp_path, record, {m.id: m for m in mutants}, sources)
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert (data["score"]["ratio"], data["score"]["rule_ratio"]) == (0.3333, 0.5)
    assert (data["score"]["run"], data["score"]["invalid"]) == (3, 1)
    assert (data["score"]["conforming"], data["score"]["conforming_killed"]) == (1, 0)
    assert data["stale_equivalents"] == [{"id": "box.py:gone:AddNot:00000000", "line": 7}]
    by_id = {entry["id"]: entry for entry in data["outcomes"]}
    assert by_id[survivor.id]["diff"] == diff_of(survivor, LAZY, "pkg")
    assert "diff" not in by_id[killed.id]
    assert by_id[variant.id]["triage"] == "conforming" and "diff" not in by_id[variant.id]
    assert (tmp_path / "survivors.txt").read_text(encoding="utf-8") == f"{survivor.id}\n"
    markdown = (tmp_path / "survivors.md").read_text(encoding="utf-8")
    assert f"`{survivor.id}`" in markdown
    assert killed.id not in markdown and variant.id not in markdown
    assert "```diff" in markdown
    assert "--- a/pkg/box.py" in markdown


def test_a_diff_names_the_module_and_shows_the_change() -> None:
    mutants, _ = _mutants()
    mutant = next(m for m in mutants if m.operator_short == "ReplaceComparisonOperator_Gt_Lt")
    diff = diff_of(mutant, LAZY, "pkg")
    assert diff.startswith("--- a/pkg/box.py\n+++ b/pkg/box.py\n")
    assert "-        if item > 0 and count < limit:" in diff
    assert "+        if item < 0 and count < limit:" in diff


def test_summary_of_a_full_run() -> None:
    outcomes = [Outcome(f"i{n}", Status.KILLED, 1, 3.0, "") for n in range(3)]
    outcomes.append(Outcome("s", Status.SURVIVED, 0, 5.0, ""))
    lines = summary_lines(_record(outcomes), Path("out"))
    assert lines[1] == (
        "mutation: score 75.0% (3 of 4 killed: 3 by failing cases, 0 crashed, "
        "0 timed out; 1 survived)"
    )
    assert not any("interval" in line or "conforming" in line for line in lines)
    assert any("stale equivalent: line 7: box.py:gone:AddNot:00000000" in line for line in lines)
    assert "median 3.0 s per mutant" in lines[-3]


def test_summary_of_a_sample_or_a_cut_short_run_gives_an_interval() -> None:
    outcomes = [Outcome("k", Status.KILLED, 1, 3.0, ""), Outcome("s", Status.SURVIVED, 0, 3, "")]
    for record in (_record(outcomes, "sample"), _record(outcomes, "all", interrupted=True)):
        assert any(
            "95% interval" in line and "seed 4" in line for line in summary_lines(record, Path("o"))
        )
    listed = summary_lines(_record(outcomes, "listed"), Path("o"))
    assert any("listed in list.txt" in line for line in listed)


def test_summary_gives_the_score_without_conforming_variants_and_warns_of_killed_ones() -> None:
    outcomes = [
        Outcome("k", Status.KILLED, 1, 3.0, ""),
        Outcome("s", Status.SURVIVED, 0, 3.0, ""),
        Outcome("c1", Status.SURVIVED, 0, 3.0, ""),
        Outcome("c2", Status.KILLED, 1, 3.0, ""),
    ]
    lines = summary_lines(_record(outcomes, conforming=("c1", "c2")), Path("o"))
    assert "mutation: score 50.0% (2 of 4 killed" in lines[1]
    assert lines[2].endswith("(2 run mutants triaged as conforming variants left out): 50.0%")
    assert "warning: 1 mutants triaged as conforming were killed" in lines[3]


def test_a_progress_line_says_how_far_the_run_is_and_the_time_left() -> None:
    outcome = Outcome("journal.py:_pair:AddNot:50d8c0c3", Status.KILLED, 1, 3.25, "failing")
    line = progress_line(12, 1379, outcome, killed=10, survived=2, left_s=1800.0)
    assert line == (
        "[   12/1379] killed      3.2 s  journal.py:_pair:AddNot:50d8c0c3  "
        "(10 killed, 2 survived so far; about 30m00s left)"
    )
    # Before any pace is known, no estimate is made up.
    assert progress_line(1, 2, outcome, killed=1, survived=0, left_s=None).endswith(
        "(1 killed, 0 survived so far)"
    )
