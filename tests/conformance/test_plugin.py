"""The pytest plugin end to end, with pytester, from an unrelated directory."""

from __future__ import annotations

import json

import pytest

from conformance.engine import Selection, Suite
from conformance.rules import load_corpus

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")


def _selected(*only: str, levels: tuple[str, ...] = ()) -> int:
    """How many cases (checks and vectors) a selection runs."""
    corpus = load_corpus()
    selection = Selection(only=only, levels=levels, kinds=("check", "vector"))
    return len(Suite.over(corpus).cases(selection))


def test_plugin_is_inert_without_impl(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_own():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_runs_selected_rule_with_clause_ids_in_test_ids(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-7",
        "--rttool-no-hunt",
        "-v",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(passed=_selected("RT-TOOL-7"))
    result.stdout.fnmatch_lines(
        [
            "*test_rttool?RT-TOOL-7#c4/failed-write-back-puts-back?fails-once?? PASSED*",
            "*rttool: RT-TOOL-7*conforms*",
        ]
    )


def test_selects_a_single_clause_and_writes_standing(pytester: pytest.Pytester) -> None:
    report = pytester.path / "out"
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-9#c5",
        "--rttool-no-hunt",
        "--rttool-report-dir",
        str(report),
        "-p",
        "no:cacheprovider",
    )
    corpus = load_corpus()
    selected = Suite.over(corpus).cases(Selection(only=("RT-TOOL-9#c5",)))
    result.assert_outcomes(passed=len(selected))
    standing = json.loads((report / "standing.json").read_text())
    assert [rule["id"] for rule in standing["rules"]] == ["RT-TOOL-9"]
    clause = next(c for c in standing["rules"][0]["clauses"] if c["id"] == "RT-TOOL-9#c5")
    assert clause["standing"] == "conforms"


def test_level_selection(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-level",
        "optional",
        "--rttool-only",
        "RT-TOOL-5",
        "--rttool-only",
        "RT-TOOL-6",
        "--rttool-no-hunt",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(passed=_selected("RT-TOOL-5", "RT-TOOL-6", levels=("optional",)))


def test_allure_labels(pytester: pytest.Pytester) -> None:
    results = pytester.path / "allure"
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-1#c1",
        "--rttool-no-hunt",
        "--alluredir",
        str(results),
        "-p",
        "no:cacheprovider",
    )
    corpus = load_corpus()
    selected = Suite.over(corpus).cases(Selection(only=("RT-TOOL-1#c1",)))
    result.assert_outcomes(passed=len(selected))  # the clause's checks and first example
    written = [json.loads(p.read_text()) for p in results.glob("*-result.json")]
    labels = {(label["name"], label.get("value")) for item in written for label in item["labels"]}
    assert {
        ("epic", "RT-TOOL"),
        ("feature", "RT-TOOL-1"),
        ("story", "RT-TOOL-1#c1"),
        ("severity", "normal"),
    } <= labels


def test_undrivable_implementation_exits_3(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--rttool-impl", "stdio:definitely-not-a-command-xyz", "-p", "no:cacheprovider"
    )
    assert result.ret == 3


def test_unknown_selection_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--rttool-impl", "reference", "--rttool-only", "NOPE-1", "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rttool-only names no rule or clause*value=NOPE-1*"])


def test_a_level_no_rule_has_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--rttool-impl", "reference", "--rttool-level", "core", "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rttool-level core selects nothing*"])


def test_live_lines_agree_with_the_standing_and_stay_in_the_selection(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # RT-TOOL-7's hunt invariants also bear on RT-TOOL-4: the partial run must not
    # report on RT-TOOL-4, and each rule's live line must say what the table says.
    monkeypatch.setenv("CI", "true")  # a hunt of exactly the examples asked for
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-7",
        "--rttool-examples",
        "3",
        "-p",
        "no:cacheprovider",
    )
    assert result.ret == 0
    text = result.stdout.str()
    assert "RT-TOOL-4" not in text
    result.stdout.fnmatch_lines(
        ["*rttool: RT-TOOL-7*conforms*5/5 clauses conform*", "RT-TOOL-7*extended*conforms*5/5"]
    )


@pytest.mark.slow
def test_mixed_rule_and_clause_selection_prints_every_rule_once_in_parallel(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hunt's no-loss and isolation cases are admitted through RT-TOOL-7 but are also
    # bound to RT-TOOL-4, which is selected by one clause only: every rule's line must
    # still come out, once, in corpus order, and agree with the table.  The run is in two
    # worker processes (pytest-xdist), where the lines come from the workers' reports.
    monkeypatch.setenv("CI", "true")  # a hunt of exactly the examples asked for
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-3#c1",
        "--rttool-only",
        "RT-TOOL-4#c3",
        "--rttool-only",
        "RT-TOOL-7",
        "--rttool-only",
        "RT-TOOL-10",
        "--rttool-examples",
        "3",
        "-n",
        "2",
        "-p",
        "no:cacheprovider",
    )
    lines = [line for line in result.stdout.lines if "rttool: RT-TOOL-" in line]
    rules = [line.split("rttool: ")[1].split()[0] for line in lines]
    assert rules == ["RT-TOOL-3", "RT-TOOL-4", "RT-TOOL-7", "RT-TOOL-10"]
    # Every case of the rule selected whole passes in the workers as in one process.
    assert "rttool: RT-TOOL-10" in lines[3] and "conforms" in lines[3]
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= _selected("RT-TOOL-10")
    assert not {"failed", "errors"} & outcomes.keys()
    # A rule run in part is untested until all of its clauses run.
    assert "untested" in lines[0] and "1/4 clauses conform" in lines[0]
    assert "1/3 clauses conform" in lines[1]
    result.stdout.fnmatch_lines(["RT-TOOL-4*extended*untested*1/3"])
