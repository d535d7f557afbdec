"""``rttool rules show ID --cases``: from each clause to every case bound to it, and to the
line of its code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.cli._rules_render import rule_text
from conformance.engine import ClauseSituations, Suite, hunt_case_id, load_suite
from conformance.rules import load_corpus

INVARIANTS = load_suite().invariants

ROOT = Path(__file__).resolve().parents[2]
CORPUS = load_corpus()


def _shown(rule_id: str, capsys: pytest.CaptureFixture[str]) -> dict[str, list[dict[str, object]]]:
    assert main(["rules", "show", rule_id, "--cases", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    return {clause["id"]: clause["cases"] for clause in shown["clauses"]}


def _expected(clause: str) -> list[str]:
    """The ids of the cases a run collects for ``clause``, in the order it reports them."""
    return (
        [
            check.id
            for check in (check for package in load_suite().packages for check in package.checks)
            if clause in check.clauses
        ]
        + [
            case.id
            for case in Suite.over(CORPUS).vectors
            if case.id.startswith(f"{clause.split('#', maxsplit=1)[0]}#") and clause in case.clauses
        ]
        + [hunt_case_id(one.name) for one in INVARIANTS if clause in one.clauses]
    )


def _source(case: dict[str, object]) -> list[str]:
    """The lines of the case's file from its line on."""
    file, line = case["file"], case["line"]
    assert isinstance(file, str) and isinstance(line, int)
    assert not Path(file).is_absolute(), file
    lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
    assert 0 < line <= len(lines), case
    return lines[line - 1 :]


def _points_at_its_definition(clause: str, case: dict[str, object]) -> bool:
    below = _source(case)
    if case["kind"] == "check":
        decorator = "\n".join(below[: next(i for i, t in enumerate(below) if "def " in t) + 1])
        return below[0].lstrip().startswith("@check(") and f'"{clause}"' in decorator
    if case["kind"] == "vector":
        return bool(re.match(r"\s*(def \w+\(ctx|lambda ctx, run: )", below[0]))
    name = str(case["name"]).removeprefix("hunt-")
    return below[0].strip() == "invariant(" and f'"{name}"' in below[1]


@pytest.mark.parametrize("rule", CORPUS.rules, ids=lambda rule: rule.id)
def test_every_clause_lists_every_case_bound_to_it(
    rule: object, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = _shown(rule.id, capsys)  # type: ignore[attr-defined]
    assert list(shown) == [clause.id for clause in rule.clauses]  # type: ignore[attr-defined]
    for clause, cases in shown.items():
        assert cases, f"{clause} lists no case"
        assert [case["id"] for case in cases] == _expected(clause)
        kinds = [case["kind"] for case in cases]
        assert kinds == sorted(kinds, key=("check", "vector", "hunt").index)


@pytest.mark.parametrize("rule", CORPUS.rules, ids=lambda rule: rule.id)
def test_each_file_and_line_points_at_the_definition(
    rule: object, capsys: pytest.CaptureFixture[str]
) -> None:
    for clause, cases in _shown(rule.id, capsys).items():  # type: ignore[attr-defined]
        for case in cases:
            assert str(case["file"]).startswith("conformance/checks/"), case
            assert _points_at_its_definition(clause, case), case


def test_the_text_lists_cases_under_their_clause(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "RT-TOOL-9", "--cases"]) == 0
    out = capsys.readouterr().out
    first = out[out.index("[RT-TOOL-9#c1,") : out.index("[RT-TOOL-9#c2,")]
    assert re.search(
        r"\n +check +recorded-call-not-invoked-again\[second-pass\] +"
        r"conformance/checks/rt_tool_9/checks\.py:\d+\n",
        first,
    )
    assert re.search(r"\n +vector +example-e1-skipped-recorded +\S+/vectors\.py:\d+\n", first)
    assert re.search(r"\n +hunt +hunt-at-most-once +\S+rt_tool_9/invariants\.py:\d+\n", first)


def test_without_cases_nothing_changes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "RT-TOOL-9"]) == 0
    assert "conformance/checks/" not in capsys.readouterr().out
    assert main(["rules", "show", "RT-TOOL-9", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert all("cases" not in clause for clause in shown["clauses"])


def test_each_clause_shows_the_situations_it_names_or_why_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With ``--cases``, a clause lists each situation its text names, with the file and
    line of the test that tells it was reached (every clause names at least one), or the
    reason it names none."""
    assert main(["rules", "show", "RT-TOOL-5", "--cases", "--format", "json"]) == 0
    clauses = {c["id"]: c for c in json.loads(capsys.readouterr().out)["clauses"]}
    returns = [s["words"] for s in clauses["RT-TOOL-5#c4"]["situations"]]
    assert returns == ["a run that returns", "a run that pauses", "a run that fails"]
    for one in clauses["RT-TOOL-5#c4"]["situations"]:
        assert one["file"] == "conformance/checks/rt_tool_5/situations.py" and one["line"] > 0
    # A permission names the circumstance it is about all the same.
    permission = clauses["RT-TOOL-5#c1"]
    assert [s["words"] for s in permission["situations"]] == ["a call that attached an artifact"]
    assert permission["without_situations"] is None
    assert main(["rules", "show", "RT-TOOL-5", "--cases"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\n +situation +a run that fails +\S+situations\.py:\d+\n", out)
    assert "names no situation" not in out
    # A clause that named none would say why.
    rule = CORPUS.get("RT-TOOL-5")
    assert rule is not None
    why = {"RT-TOOL-5#c1": ClauseSituations(named=(), none_because="a permission")}
    shown = rule_text(rule, notes=why)
    assert re.search(r"\n +names no situation: a permission", shown.out)
