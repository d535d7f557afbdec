"""The linter: one fixture per finding code, each giving exactly the expected line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.rules import (
    KNOWN_VERDICTS,
    LintPolicy,
    Severity,
    lint,
    load_corpus,
    parse_page,
)
from tests.rules._paths import LINT_FIXTURES

# case folder -> (file inside it, line, code, message); each case breaks exactly one thing.
ERRORS = {
    "front-matter-schema": (
        "RT-TOOL-5.md",
        6,
        "front-matter-schema",
        "/posture: 'binding' is not one of "
        "['normative-target', 'descriptive', 'deprecated', 'withdrawn', 'derived']",
    ),
    "front-matter-unsafe": (
        "RT-TOOL-5.md",
        4,
        "front-matter-unsafe",
        "could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:os.system' (front matter is loaded safely)",
    ),
    "front-matter-yaml": (
        "RT-TOOL-5.md",
        6,
        "front-matter-yaml",
        "expected ',' or ']', but got ':'",
    ),
    "front-matter-missing": (
        "RT-TOOL-5.md",
        1,
        "front-matter-missing",
        "page does not start with '---'",
    ),
    "read-error": (
        "RT-TOOL-5.md",
        1,
        "read-error",
        "cannot read: not UTF-8 (invalid start byte)",
    ),
    "id-filename": (
        "RT-TOOL-50.md",
        2,
        "id-filename",
        "id 'RT-TOOL-5' differs from the file name 'RT-TOOL-50.md'",
    ),
    "heading-id": (
        "RT-TOOL-5.md",
        16,
        "heading-id",
        "heading names 'RT-TOOL-6', front matter id is 'RT-TOOL-5'",
    ),
    "meta-line": (
        "RT-TOOL-5.md",
        18,
        "meta-line",
        "meta line says level 'extended', front matter says 'optional'",
    ),
    "structure": (
        "RT-TOOL-5.md",
        24,
        "structure",
        "the blockquote must open with '**Normative.** This is the rule.'",
    ),
    "clause-numbering": (
        "RT-TOOL-5.md",
        30,
        "clause-numbering",
        "clause numbered 4 where 3 was expected",
    ),
    "clause-split": ("RT-TOOL-5.md", 26, "clause-split", "clause 1 splits into 2 clauses"),
    "clause-join": ("RT-TOOL-5.md", 30, "clause-split", "clauses 2 and 3 are one clause"),
    "example-info": (
        "RT-TOOL-5.md",
        51,
        "example-info",
        "json block has no verdict attribute",
    ),
    "example-json": (
        "RT-TOOL-5.md",
        51,
        "example-json",
        "example 1 ('What the tool call produced') is not valid JSON: "
        "Expecting ',' delimiter at block line 2",
    ),
    "verdict-unknown": (
        "RT-TOOL-5.md",
        55,
        "verdict-unknown",
        "example 2 has unknown verdict 'vanished'",
    ),
    "rule-hash": (
        "RT-TOOL-5.md",
        13,
        "rule-hash",
        "rule_hash 0123456789ab is not the hash of the normative text (6a0cb215d0ff)",
    ),
    "source": (
        "RT-TOOL-5.md",
        9,
        "source",
        "source should be https://flowdrop.io/spec/rules/rt-tool/rt-tool-5",
    ),
    "related-order": (
        "RT-TOOL-5.md",
        61,
        "related-order",
        "related rules must be listed once each, by rule number",
    ),
    "referenced-by": (
        "RT-TOOL-8.md",
        71,
        "referenced-by",
        "RT-TOOL-5 names RT-TOOL-8 but is not listed as referencing it",
    ),
    "id-duplicate": (
        "copy/RT-TOOL-5.md",
        2,
        "id-duplicate",
        "id 'RT-TOOL-5' is also the id of {folder}/RT-TOOL-5.md",
    ),
    "footer": ("RT-TOOL-5.md", 66, "footer", "licence footer differs from the published one"),
}


def test_every_case_has_a_fixture_and_the_clean_one_is_clean() -> None:
    cases = {path.name for path in LINT_FIXTURES.iterdir() if path.is_dir()}
    assert cases == {*ERRORS, "clean", "related-unknown"}
    assert lint([LINT_FIXTURES / "clean"]).findings == ()


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_each_fixture_gives_exactly_its_error_line(case: str) -> None:
    folder = LINT_FIXTURES / case
    name, line, code, message = ERRORS[case]
    report = lint([folder])
    errors = [str(finding) for finding in report.findings if finding.is_error]
    assert errors == [f"{folder / name}:{line}: {code}: {message.format(folder=folder)}"]


def test_an_unknown_related_rule_is_only_a_warning() -> None:
    folder = LINT_FIXTURES / "related-unknown"
    report = lint([folder])
    assert [str(finding) for finding in report.findings] == [
        f"{folder / 'RT-TOOL-5.md'}:61: related-unknown: warning: "
        "names RT-TOOL-99, which is not in the corpus"
    ]
    assert report.errors == 0
    assert report.findings[0].severity is Severity.WARNING


def test_linting_one_page_alone_only_warns_about_its_neighbours() -> None:
    report = lint([load_corpus()["RT-TOOL-7"].path])
    assert report.errors == 0
    assert {finding.code for finding in report.findings} == {"related-unknown"}


def test_the_verdict_vocabulary_is_a_parameter() -> None:
    clean = LINT_FIXTURES / "clean"
    narrow = LintPolicy(verdicts=KNOWN_VERDICTS - {"dropped"})
    assert [finding.code for finding in lint([clean], narrow).findings] == ["verdict-unknown"]


def test_unbound_verdicts_are_errors_when_bindings_are_given() -> None:
    clean = LINT_FIXTURES / "clean"
    policy = LintPolicy(bound=frozenset({("RT-TOOL-5", "produced")}))
    report = lint([clean], policy)
    assert [str(finding) for finding in report.findings] == [
        f"{clean / 'RT-TOOL-5.md'}:55: verdict-unbound: "
        "verdict 'dropped' of RT-TOOL-5 is bound to no check"
    ]


def test_uncovered_clauses_are_warnings_when_coverage_is_given() -> None:
    clean = LINT_FIXTURES / "clean"
    covered = frozenset({f"RT-TOOL-5#c{n}" for n in (1, 2, 3, 5)})
    report = lint([clean], LintPolicy(covered=covered))
    assert [str(finding) for finding in report.findings] == [
        f"{clean / 'RT-TOOL-5.md'}:32: clause-uncovered: warning: "
        "RT-TOOL-5#c4 is covered by no check"
    ]
    assert report.errors == 0


def test_nothing_from_yaml_is_ever_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    page = tmp_path / "RT-TOOL-5.md"
    clean = (LINT_FIXTURES / "clean" / "RT-TOOL-5.md").read_text("utf-8")
    page.write_text(
        clean.replace(
            "level: optional",
            f'level: !!python/object/apply:os.mkdir ["{marker}"]',
        )
    )
    report = lint([page])
    assert report.findings[0].code == "front-matter-unsafe"
    assert not marker.exists()


_CLEAN_LINES = (LINT_FIXTURES / "clean" / "RT-TOOL-5.md").read_text("utf-8").splitlines()


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.integers(min_value=0, max_value=len(_CLEAN_LINES) - 1), max_size=6),
    st.sampled_from(["", "---", "> 9. x", "```json", "## Example", "# X", "- Names: x", "\t"]),
)
def test_a_damaged_page_never_crashes_the_linter(
    tmp_path: Path, dropped: list[int], inserted: str
) -> None:
    lines = [line for index, line in enumerate(_CLEAN_LINES) if index not in set(dropped)]
    lines.insert(len(lines) // 2, inserted)
    page = tmp_path / "RT-TOOL-5.md"
    page.write_text("\n".join(lines), "utf-8")
    report = lint([page])
    for finding in report.findings:
        assert str(finding).startswith(f"{page}:{finding.line}: {finding.code}: ")
        assert "\n" not in str(finding)
    parse_page(page)
