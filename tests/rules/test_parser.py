"""Reading rule pages into immutable rules, clauses and examples."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conformance.rules import (
    CorpusError,
    corpus_path,
    load_corpus,
    page_files,
    parse_page,
    render_page,
)
from tests.rules._paths import SEED_PAGES, copy_corpus


def test_clause_ids_and_citations() -> None:
    corpus = load_corpus()
    clause = corpus.clause("RT-TOOL-7#c3")
    assert clause.id == "RT-TOOL-7#c3"
    assert clause.citation == "RT-TOOL-7 ¶3"
    assert clause.number == 3
    assert clause.text.startswith("Taking is destructive, so a delivered artifact")
    assert clause.path.name == "RT-TOOL-7.md"
    source_line = clause.path.read_text("utf-8").splitlines()[clause.line - 1]
    assert source_line.startswith("> 3. Taking is destructive")


def test_every_clause_and_example_points_at_its_source_line() -> None:
    corpus = load_corpus()
    for rule in corpus:
        lines = rule.path.read_text("utf-8").splitlines()
        assert lines[rule.line - 1] == f"# {rule.id} — {rule.title}"
        for clause in rule.clauses:
            assert lines[clause.line - 1] == f"> {clause.number}. {clause.text}"
        for example in rule.examples:
            assert lines[example.line - 1].startswith("```json title=")
            assert f'verdict="{example.verdict}"' in lines[example.line - 1]


def test_rule_objects_are_immutable() -> None:
    rule = load_corpus()["RT-TOOL-4"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.title = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.clauses[0].text = "changed"  # type: ignore[misc]


def test_rule_fields_of_a_published_page() -> None:
    rule = load_corpus()["RT-TOOL-4"]
    assert rule.family == "RT-TOOL"
    assert rule.part == "II"
    assert rule.level == "extended"
    assert rule.profiles == ("runtime",)
    assert rule.posture == "normative-target"
    assert (rule.added, rule.changed) == ("1.0", "1.0")
    assert rule.source == "https://flowdrop.io/spec/rules/rt-tool/rt-tool-4"
    assert rule.specification == "FlowDrop Workflow Specification 1.0-draft"
    assert rule.licence == "CC BY 4.0"
    assert rule.summary is None
    assert rule.names == ("RT-TOOL-3", "RT-TOOL-7")
    assert rule.referenced_by == ("RT-TOOL-3", "RT-TOOL-7")
    assert rule.rule_hash == rule.computed_hash == "72ac9282b98e"
    assert rule.normative_text == " ".join(clause.text for clause in rule.clauses)
    assert rule.what_it_means.startswith("Artifacts are not a run-scoped, in-memory extra")
    assert [example.verdict for example in rule.examples] == ["produced", "reported"]
    assert rule.examples[1].value == {
        "toolArtifacts": [
            {
                "type": "link",
                "payload": {"url": "https://example.com/report"},
                "tool_call_id": "call_1",
            }
        ],
        "metadata": {},
    }
    assert rule.examples[1].prose_after.startswith("The message's `metadata` never carries")
    assert rule.examples[1].id == "RT-TOOL-4#e2"


def test_summary_is_the_paragraph_after_the_meta_line() -> None:
    rule = load_corpus()["RT-TOOL-9"]
    assert rule.summary is not None
    assert rule.summary.startswith("A tool call has side effects. One node can be reached twice")


def test_corpus_order_and_lookup() -> None:
    corpus = load_corpus()
    ids = [rule.id for rule in corpus]
    assert ids == [f"RT-TOOL-{n}" for n in range(1, 11)] + [f"DR-{n}" for n in range(1, 7)]
    assert "DR-3" in corpus
    assert corpus.get("RT-TOOL-11") is None
    with pytest.raises(KeyError):
        corpus.clause("RT-TOOL-7#c9")
    assert corpus.families == ("RT-TOOL", "DR")
    assert [rule.id for rule in corpus.related("DR-5")] == ["DR-2", "DR-3", "DR-6"]
    assert [rule.id for rule in corpus.referencing("RT-TOOL-2")] == [
        "RT-TOOL-1",
        "RT-TOOL-3",
        "RT-TOOL-6",
    ]


def test_referenced_by_on_every_page_matches_the_corpus() -> None:
    corpus = load_corpus()
    for rule in corpus:
        assert rule.referenced_by == tuple(other.id for other in corpus.referencing(rule.id))


def test_every_page_renders_back_to_itself() -> None:
    for path in page_files([corpus_path()]):
        page = parse_page(path)
        assert page.findings == ()
        assert page.rule is not None
        assert render_page(page.rule) == path.read_text("utf-8"), path.name


@pytest.mark.parametrize("name", ["RT-TOOL-4.md", "RT-TOOL-7.md"])
def test_seed_pages_render_back_to_themselves(name: str) -> None:
    path = SEED_PAGES / name
    page = parse_page(path)
    assert page.findings == ()
    assert page.rule is not None
    assert page.rule.rule_hash is None
    assert render_page(page.rule, optional_fields=False) == path.read_text("utf-8")


def test_a_broken_page_never_raises_but_load_corpus_does(tmp_path: Path) -> None:
    folder = copy_corpus(tmp_path)
    target = folder / "RT-TOOL-3.md"
    target.write_text(target.read_text("utf-8").replace("> 2. That port", "> 7. That port"))
    page = parse_page(target)
    assert [finding.code for finding in page.findings] == ["clause-numbering"]
    with pytest.raises(CorpusError, match=r"RT-TOOL-3\.md:26: clause-numbering"):
        load_corpus([folder])


def test_two_pages_with_one_id_do_not_load(tmp_path: Path) -> None:
    folder = copy_corpus(tmp_path)
    (folder / "more").mkdir()
    (folder / "more" / "DR-1.md").write_text((folder / "DR-1.md").read_text("utf-8"))
    with pytest.raises(CorpusError, match="two rule pages share an id"):
        load_corpus([folder])


def test_a_missing_path_is_a_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no such file or folder"):
        load_corpus([tmp_path / "nowhere"])


def test_a_thematic_break_in_the_narrative_is_not_the_footer(tmp_path: Path) -> None:
    folder = copy_corpus(tmp_path)
    page = folder / "DR-4.md"
    text = page.read_text("utf-8")
    changed = text.replace("\n\nNeither clause makes", "\n\n---\n\nNeither clause makes")
    assert changed != text
    page.write_text(changed, "utf-8")
    parsed = parse_page(page)
    assert parsed.findings == ()
    assert parsed.rule is not None
    assert "\n---\n" in parsed.rule.what_it_means
    assert render_page(parsed.rule) == changed


def test_values_yaml_would_misread_are_quoted(tmp_path: Path) -> None:
    rule = load_corpus()["RT-TOOL-5"]
    numeric = dataclasses.replace(rule, rule_hash="123456789012", path=tmp_path / "RT-TOOL-5.md")
    page = render_page(numeric)
    assert '\nrule_hash: "123456789012"\n' in page
    assert '\nadded: "1.0"\n' in page
    numeric.path.write_text(page, "utf-8")
    parsed = parse_page(numeric.path)
    assert parsed.rule is not None
    assert parsed.rule.rule_hash == "123456789012"
