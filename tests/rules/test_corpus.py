"""The bundled corpus: the ten upstream RT-TOOL rules and rttool's six DR rules."""

from __future__ import annotations

import pytest
import yaml

from conformance.rules import (
    DR_VERDICTS,
    KNOWN_VERDICTS,
    RT_TOOL_VERDICTS,
    collapse_whitespace,
    lint,
    load_corpus,
    load_upstream,
    normative_hash,
    split_clauses,
)
from tests.rules._paths import DR_CLAUSES, RT_TOOL_CLAUSES, UPSTREAM


def test_the_bundled_corpus_lints_clean() -> None:
    report = lint()
    assert report.findings == ()
    assert report.files == 16


def test_clause_counts() -> None:
    corpus = load_corpus()
    counts = {rule.id: len(rule.clauses) for rule in corpus}
    assert counts == {
        **{f"RT-TOOL-{n}": count for n, count in enumerate(RT_TOOL_CLAUSES, start=1)},
        **{f"DR-{n}": count for n, count in enumerate(DR_CLAUSES, start=1)},
    }


def test_rt_tool_clause_counts_and_hashes_match_upstream() -> None:
    corpus = load_corpus()
    for number, count in enumerate(RT_TOOL_CLAUSES, start=1):
        rule_id = f"RT-TOOL-{number}"
        upstream = yaml.safe_load((UPSTREAM / "rules" / f"{rule_id}.yml").read_text("utf-8"))
        narrative = (UPSTREAM / "narrative" / f"{rule_id}.mdx").read_text("utf-8")
        stated_hash = yaml.safe_load(narrative.split("---")[1])["rule_hash"]
        assert len(split_clauses(upstream["normative"])) == count
        assert normative_hash(upstream["normative"]) == stated_hash
        rule = corpus[rule_id]
        assert rule.normative_text == collapse_whitespace(upstream["normative"])
        assert rule.computed_hash == rule.rule_hash == stated_hash
        assert len(rule.clauses) == count


def test_upstream_levels_profiles_and_dates() -> None:
    for rule in load_upstream(UPSTREAM).rules:
        assert rule.level == ("optional" if rule.id == "RT-TOOL-5" else "extended")
        assert rule.profiles == ("runtime",)
        assert rule.posture == "normative-target"
        assert (rule.added, rule.changed) == ("1.0", "1.0")


def test_every_verdict_in_the_corpus_is_in_the_vocabulary() -> None:
    used = {example.verdict for example in load_corpus().examples}
    assert used == KNOWN_VERDICTS
    assert len(RT_TOOL_VERDICTS) == 18
    assert len(DR_VERDICTS) == 10


DR_TEXT = {
    "DR-1": "A runtime records a turn's tool calls in a durable run-event ledger: a `tool_start`",
    "DR-2": "When a run resumes after a soft timeout, a gateway timeout or a resumable transport",
    "DR-3": "Before the loop runs in a resumed chunk, it snapshots the journal once, capturing",
    "DR-4": "The hard-block covers completed calls only: a call whose side effect landed but",
    "DR-5": "When a turn is stopped at its run time limit, it continues on its own in the same",
    "DR-6": "Choosing Continue resumes the stopped run's own turn, with both the journal note",
}
DR_NAMES = {
    "DR-1": ("DR-2", "DR-3", "DR-4"),
    "DR-2": ("DR-1", "DR-5"),
    "DR-3": ("DR-1", "DR-4"),
    "DR-4": ("DR-1", "DR-3"),
    "DR-5": ("DR-2", "DR-3", "DR-6"),
    "DR-6": ("DR-3", "DR-5"),
}


@pytest.mark.parametrize("rule_id", sorted(DR_TEXT))
def test_dr_front_matter_and_related_rules(rule_id: str) -> None:
    rule = load_corpus()[rule_id]
    assert rule.normative_text.startswith(DR_TEXT[rule_id])
    assert rule.family == "DR"
    assert rule.level == "optional"
    assert rule.profiles == ("durable-resume",)
    assert rule.posture == "derived"
    assert (rule.added, rule.changed) == ("0.1", "0.1")
    assert rule.part is None
    assert rule.source.startswith("Framework guide “Durable Resume”, section “")
    assert "://" not in rule.source
    assert rule.specification == (
        "rttool durable-resume rules, derived from the framework guide “Durable Resume”"
    )
    assert rule.licence == "CC BY 4.0"
    assert rule.names == DR_NAMES[rule_id]
    assert rule.what_it_means


def _example_values(rule_id: str) -> list[tuple[str, object]]:
    return [(example.verdict, example.value) for example in load_corpus()[rule_id].examples]


def test_dr_1_examples() -> None:
    ana = {"to": "ana@example.com"}
    bo = {"to": "bo@example.com"}
    jam = {"title": "Printer jam"}
    assert _example_values("DR-1") == [
        (
            "ledger",
            [
                {"event": "tool_start", "tool": "send_email", "input": ana},
                {"event": "tool_start", "tool": "send_email", "input": bo},
                {"event": "tool_done", "tool": "send_email", "result": "sent"},
            ],
        ),
        (
            "journal",
            {
                "completed": [{"tool": "send_email", "input": ana, "result": "sent"}],
                "interrupted": [{"tool": "send_email", "input": bo}],
            },
        ),
        (
            "ledger",
            [
                {"event": "tool_start", "tool": "create_ticket", "input": jam},
                {"event": "clear"},
                {"event": "tool_start", "tool": "create_ticket", "input": jam},
                {"event": "tool_done", "tool": "create_ticket", "result": "T-2"},
            ],
        ),
        (
            "journal",
            {
                "completed": [{"tool": "create_ticket", "input": jam, "result": "T-2"}],
                "interrupted": [],
            },
        ),
    ]


def test_dr_2_examples() -> None:
    journaled = {
        "completed": [{"tool": "send_email", "input": {"to": "ana@example.com"}, "result": "sent"}],
        "interrupted": [{"tool": "create_ticket", "input": {"title": "Printer jam"}}],
    }
    assert _example_values("DR-2") == [
        ("journaled", journaled),
        ("noted", journaled),
        ("journaled", {"completed": [], "interrupted": []}),
        ("bare", None),
    ]
    assert all(example.json_error is None for example in load_corpus()["DR-2"].examples)


def test_dr_3_examples() -> None:
    def send(to: str) -> dict[str, object]:
        return {"name": "send_email", "args": {"to": to}}

    lookup = {"name": "lookup_order", "args": {"id": 7}, "read_only": True}
    refund = {"name": "refund_order", "args": {"id": 7}}
    assert _example_values("DR-3") == [
        ("completed", [send("ana@example.com")]),
        (
            "redispatched",
            [send("bo@example.com"), send("ana@example.com"), send("ana@example.com")],
        ),
        ("ran", [send("bo@example.com"), send("ana@example.com")]),
        ("completed", [lookup, refund]),
        ("redispatched", [lookup, refund]),
        ("ran", [lookup]),
    ]


def test_dr_5_examples_and_the_pages_without_examples() -> None:
    assert _example_values("DR-5") == [
        ("cut", {"time_limits": 4}),
        ("capped", {"automatic_continuations": 3, "continue_available": True}),
    ]
    corpus = load_corpus()
    for rule_id in ("DR-4", "DR-6"):
        assert corpus[rule_id].examples == ()
        assert "## Example" not in corpus[rule_id].path.read_text("utf-8")


def test_every_dr_example_pair_is_followed_by_prose() -> None:
    for rule_id in ("DR-1", "DR-2", "DR-3", "DR-5"):
        examples = load_corpus()[rule_id].examples
        closing = [example for example in examples if example.prose_after]
        assert closing, rule_id
        assert examples[-1].prose_after
