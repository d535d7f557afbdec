"""Examples as vectors: grouping by stage, and bindings for every example."""

from __future__ import annotations

import pytest

from adapters.errors import SuiteError
from conformance.engine import Suite, group_examples, load_suite
from conformance.rules import load_corpus

STAGES = load_suite().stages


def test_every_example_of_the_corpus_becomes_a_vector() -> None:
    corpus = load_corpus()
    cases = list(Suite.over(corpus).vectors)
    covered = {example_id for case in cases for example_id in [case.id.split("/")[0]]}
    firsts = {rule.examples[0].id for rule in corpus.rules if rule.examples}
    assert firsts <= covered
    assert len(cases) == 21


def test_every_verdict_in_the_corpus_has_a_stage() -> None:
    corpus = load_corpus()
    pairs = {(e.rule_id, e.verdict) for rule in corpus.rules for e in rule.examples}
    assert pairs <= set(STAGES)


def test_grouping_follows_stages() -> None:
    corpus = load_corpus()
    groups = group_examples(corpus.get("RT-TOOL-8").examples, STAGES)
    assert not isinstance(groups, str)
    assert [g.verdicts for g in groups] == [("sent", "decoded"), ("sent",)]
    dr3 = group_examples(corpus.get("DR-3").examples, STAGES)
    assert not isinstance(dr3, str)
    assert [g.verdicts for g in dr3] == [("completed", "redispatched", "ran")] * 2


def test_an_outcome_without_input_is_reported() -> None:
    corpus = load_corpus()
    outcome_first = [e for e in corpus.get("RT-TOOL-2").examples if e.verdict == "lifted"]
    problem = group_examples(outcome_first, STAGES)
    assert isinstance(problem, str) and "no input before it" in problem


def test_a_new_example_with_a_bound_verdict_needs_no_code(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Adding an example to a rule file adds a test without touching code."""
    corpus_dir = tmp_path / "rules"
    corpus_dir.mkdir()
    source = load_corpus()
    for rule in source.rules:
        (corpus_dir / rule.path.name).write_text(
            rule.path.read_text(encoding="utf-8"), encoding="utf-8"
        )
    page = corpus_dir / "RT-TOOL-7.md"
    text = page.read_text(encoding="utf-8")
    extra = (
        '```json title="Another held artifact" verdict="held"\n'
        '{ "type": "note", "payload": { "text": "x" }, "tool_call_id": "call_9" }\n```\n\n'
    )
    page.write_text(text.replace("## Related rules", extra + "## Related rules"), encoding="utf-8")
    from conformance.rules import load_corpus as load

    cases = list(Suite.over(load([corpus_dir])).vectors)
    assert len([c for c in cases if c.id.startswith("RT-TOOL-7#")]) == 2


def test_an_unbound_verdict_is_an_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = load_corpus()
    for rule in source.rules:
        (tmp_path / rule.path.name).write_text(
            rule.path.read_text(encoding="utf-8"), encoding="utf-8"
        )
    page = tmp_path / "RT-TOOL-7.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace('verdict="held"', 'verdict="kept"'),
        encoding="utf-8",
    )
    from conformance.rules import load_corpus as load

    with pytest.raises(SuiteError, match=r"cannot be run as a vector|no vector binding"):
        Suite.over(load([tmp_path]))
