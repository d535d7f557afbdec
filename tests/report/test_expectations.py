"""Expectations files: parsing, line numbers, and every way an entry can be wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.report import ExpectationsError, load_expectations, parse_expectations

GOOD = """\
# known failures
expectations:
  - clause: RT-TOOL-7#c4
    reason: held artifacts lost when a write-back fails
    issue: https://example.org/tracker/12
  - rule: RT-TOOL-5
    reason: optional rule not implemented
  - check: "RT-TOOL-9#c2::repeat-re-emits-stored-result"
    reason: stored result re-emitted without artifacts
"""


def _problems(text: str) -> list[str]:
    with pytest.raises(ExpectationsError) as caught:
        parse_expectations(text, source="exp.yaml")
    return [str(problem) for problem in caught.value.problems]


def test_a_good_file() -> None:
    expectations = parse_expectations(GOOD, source="exp.yaml")
    first, second, third = expectations.entries
    assert (first.scope, first.target, first.line) == ("clause", "RT-TOOL-7#c4", 3)
    assert first.issue == "https://example.org/tracker/12"
    assert (second.scope, second.rule, second.clause, second.line) == ("rule", "RT-TOOL-5", None, 6)
    assert (third.scope, third.clause, third.rule) == ("check", "RT-TOOL-9#c2", "RT-TOOL-9")
    assert expectations.where(third) == "exp.yaml:8"


def test_an_empty_list_is_fine() -> None:
    assert parse_expectations("expectations: []\n").entries == ()
    assert parse_expectations("expectations:\n").entries == ()


def test_missing_reason() -> None:
    assert _problems("expectations:\n  - clause: R-1#c1\n") == [
        "exp.yaml:2: clause R-1#c1 has no reason; say why the failure is expected"
    ]
    assert _problems("expectations:\n  - clause: R-1#c1\n    reason: '  '\n")[0].startswith(
        "exp.yaml:2: clause R-1#c1 has no reason"
    )


def test_the_same_target_twice() -> None:
    text = "expectations:\n" + "  - clause: R-1#c1\n    reason: a\n" * 2
    assert _problems(text) == ["exp.yaml:4: clause R-1#c1 is already listed at line 2"]


def test_more_than_one_target() -> None:
    text = "expectations:\n  - rule: R-1\n    clause: R-1#c1\n    reason: a\n"
    assert _problems(text) == [
        "exp.yaml:2: an entry names exactly one of rule, clause, check; this one names rule "
        "and clause"
    ]


def test_a_clause_under_a_listed_rule() -> None:
    text = "expectations:\n  - clause: R-1#c2\n    reason: a\n  - rule: R-1\n    reason: b\n"
    assert _problems(text) == [
        "exp.yaml:2: clause R-1#c2 is inside rule R-1, listed at line 4; list one or the other"
    ]


def test_a_check_under_a_listed_clause() -> None:
    text = "expectations:\n  - clause: R-1#c2\n    reason: a\n  - check: R-1#c2::x\n    reason: b\n"
    assert _problems(text) == [
        "exp.yaml:4: check R-1#c2::x is inside clause R-1#c2, listed at line 2; list one or "
        "the other"
    ]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("clause: RT-TOOL-7", "clause 'RT-TOOL-7' is not of the form RULE#cN"),
        ("rule: RT-TOOL-7#c1", "rule 'RT-TOOL-7#c1' is not of the form RULE"),
        ("check: RT-TOOL-7#c1", "check 'RT-TOOL-7#c1' is not of the form RULE#cN::CHECK"),
        ("reason: only a reason", "an entry names one of rule, clause or check"),
    ],
)
def test_malformed_targets(entry: str, problem: str) -> None:
    text = f"expectations:\n  - {entry}\n    reason: r\n"
    assert f"exp.yaml:2: {problem}" in _problems(text)


def test_unknown_keys_duplicate_keys_and_types_name_their_lines() -> None:
    text = (
        "expectations:\n"
        "  - clause: R-1#c1\n"
        "    reasn: typo\n"
        "    reason: ok\n"
        "  - clause: R-1#c2\n"
        "    clause: R-1#c3\n"
        "    reason: ok\n"
        "  - rule: R-2\n"
        "    reason: [not, a, string]\n"
    )
    problems = _problems(text)
    assert problems[0].startswith("exp.yaml:3: unknown key 'reasn'")
    assert "exp.yaml:6: key 'clause' given twice" in problems
    assert "exp.yaml:9: reason must be a string" in problems


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("expectations: [\n", "exp.yaml:2: not valid YAML"),
        ("- clause: R-1#c1\n", "exp.yaml:1: expected a mapping with the key 'expectations'"),
        ("", "exp.yaml:1: expected a mapping with the key 'expectations'"),
        ("expectations: 3\n", "exp.yaml:1: 'expectations' is a list"),
        (
            "expect: []\n",
            "exp.yaml:1: unknown top-level key 'expect'; only 'expectations' is allowed",
        ),
        ("expectations:\n  - just a string\n", "exp.yaml:2: an entry is a mapping"),
        ("expectations: !!python/object:os.system {}\n", "exp.yaml:1: not valid YAML"),
    ],
)
def test_bad_files(text: str, problem: str) -> None:
    assert _problems(text)[0].startswith(problem)


def test_every_problem_is_listed_and_the_message_counts_the_rest() -> None:
    text = "expectations:\n  - clause: R-1#c1\n  - clause: R-1#c2\n"
    with pytest.raises(ExpectationsError) as caught:
        parse_expectations(text, source="exp.yaml")
    assert len(caught.value.problems) == 2
    assert str(caught.value).endswith("(and 1 more)")


def test_load_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "exp.yaml"
    path.write_text(GOOD, encoding="utf-8")
    assert load_expectations(path).source == str(path)
    with pytest.raises(ExpectationsError, match="cannot read"):
        load_expectations(tmp_path / "missing.yaml")
