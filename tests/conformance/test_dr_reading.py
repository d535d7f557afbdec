"""How the durable-resume checks read a model input and a ledger: every form the rule text
allows is recognised, and nothing else."""

from __future__ import annotations

import pytest

from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import ModelInput, RunRecord, StepRecord, Trace
from conformance.checks.dr_1._ledger import done, expect_journal, start, tally
from conformance.checks.dr_2._prompt import appended
from conformance.checks.dr_4._history import mentions
from conformance.toolkit import (
    CheckContext,
    names_call,
    resume_prompt,
    shows,
    text_of,
    unnamed,
)
from conformance.toolkit.machinery import CheckFailed
from tests.conformance._support import reference_driver

NUDGE = "Continue from where you left off."
ZOE = {"to": "zoë@example.com", "subject": 'Grüße "quoted" \\ ✓'}


def _run(*inputs: list[object], run_id: str = "r2") -> RunRecord:
    return RunRecord(
        id=run_id,
        turn="t1",
        conversation="main",
        cause="auto_continue",
        end="completed",
        model_inputs=tuple(ModelInput(tuple(messages)) for messages in inputs),
        passes=(),
        side_effects=(),
    )


def test_a_message_text_is_its_content_or_the_text_of_its_parts() -> None:
    assert text_of({"role": "user", "content": "plain"}) == "plain"
    parts = {"content": [{"type": "text", "text": "one"}, {"type": "image"}, "two"]}
    assert text_of(parts) == "one\ntwo"
    assert text_of({"content": None}) == text_of("not a message") == ""


@pytest.mark.parametrize(
    "text",
    [
        'to zoë@example.com: Grüße "quoted" \\ ✓',
        '{"subject": "Grüße \\"quoted\\" \\\\ ✓", "to": "zoë@example.com"}',
        '{"subject": "Gr\\u00fc\\u00dfe \\"quoted\\" \\\\ \\u2713", "to": "zo\\u00eb@example.com"}',
    ],
    ids=["as-text", "as-json", "as-ascii-escaped-json"],
)
def test_a_value_is_recognised_as_text_or_as_json(text: str) -> None:
    assert shows(text, "zoë@example.com")
    assert shows(text, 'Grüße "quoted" \\ ✓')
    assert names_call("send_email " + text, "send_email", ZOE)
    assert not names_call(text, "send_email", ZOE)  # no tool name


def test_numbers_booleans_and_empty_values() -> None:
    assert shows("id 7", 7) and not shows("id seven", 7)
    assert shows("urgent: true", True) and shows("urgent=True", True)
    # Empty values cannot be seen in text; they never make a call unnamed.
    assert names_call("create_ticket", "create_ticket", {"title": "", "note": None})


def test_a_note_in_the_nudges_message_or_in_the_next_one() -> None:
    same = _run([{"role": "user", "content": f"{NUDGE}\n\nDone: send_email ana"}])
    found = resume_prompt(same, NUDGE)
    assert found is not None and found.note_index == 0 and "send_email" in found.note
    apart = _run(
        [
            {"role": "user", "content": NUDGE},
            {"role": "system", "content": "Done: send_email ana"},
        ]
    )
    found = resume_prompt(apart, NUDGE)
    assert found is not None and found.note_index == 1 and found.note == "Done: send_email ana"
    bare = resume_prompt(_run([{"role": "user", "content": NUDGE}]), NUDGE)
    assert bare is not None and bare.note == "" and bare.note_index is None
    assert unnamed(bare, "the call").startswith("nothing follows the nudge")
    assert resume_prompt(_run([{"role": "user", "content": "Hi"}]), NUDGE) is None


def test_the_last_nudge_is_the_resume_prompt_and_history_after_it_is_not_appended() -> None:
    earlier = [{"role": "user", "content": "Hello"}, {"role": "user", "content": NUDGE}]
    history = {"role": "assistant", "content": "earlier answer"}
    first = _run([*earlier, history], run_id="r1")
    second = _run([*earlier, {"role": "user", "content": NUDGE}, history])
    trace = Trace("s", (StepRecord(0, "wait", "ok", (first, second), (), {}),))
    found = resume_prompt(second, NUDGE)
    assert found is not None and found.index == 2
    assert appended(trace, second, found) == []
    fresh = _run([*earlier, {"role": "user", "content": NUDGE}, {"role": "user", "content": "x"}])
    trace = Trace("s", (StepRecord(0, "wait", "ok", (first, fresh), (), {}),))
    found = resume_prompt(fresh, NUDGE)
    assert found is not None
    assert appended(trace, fresh, found) == [(3, {"role": "user", "content": "x"})]


def test_a_call_is_mentioned_by_its_id_or_by_its_tool_and_input() -> None:
    declared = {"role": "assistant", "tool_calls": [{"name": "x", "tool_call_id": "c-9"}]}
    assert mentions(declared, "c-9", "send_email", {"to": "ana"})
    told = {"role": "system", "content": "send_email to ana: outcome unknown"}
    assert mentions(told, "c-1", "send_email", {"to": "ana"})
    assert not mentions({"role": "system", "content": "nothing"}, "c-1", "send_email", {})


def test_the_tally_pairs_oldest_first_per_tool_and_a_clear_resets_every_tool() -> None:
    events = [
        start("a", 1),
        start("b", 1),
        start("a", 2),
        done("a", "x"),
        {"event": "clear"},
        done("b", "y"),
        start("a", 3),
    ]
    counted = tally(events)
    assert counted.pairs == {0: 3}
    assert counted.cleared == [1, 2]
    assert counted.stray == [5]
    assert counted.open == [6]


class _Nothing:
    def handshake(self) -> Handshake:
        return reference_driver().handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        raise AssertionError("no scenario is run")


def _judged(journal: object) -> list[str]:
    ctx = CheckContext(_Nothing())
    expect_journal(
        ctx,
        journal,
        [("t", 1, "r")],
        [("t", 2)],
        at="/steps/0/journal",
        clause="DR-1 ¶3",
    )
    try:
        ctx.conclude()
    except CheckFailed as failed:
        return [f.message for f in failed.failures]
    return []


def test_a_journal_is_judged_in_any_order_with_extra_keys() -> None:
    listed = {
        "completed": [{"tool": "t", "input": 1, "result": "r", "seq": 4}],
        "interrupted": [{"input": 2, "tool": "t"}],
    }
    assert _judged(listed) == []


def test_every_difference_of_a_journal_is_its_own_failure() -> None:
    swapped = {
        "completed": [{"tool": "t", "input": 2, "result": "r"}],
        "interrupted": [{"tool": "t", "input": 1}],
    }
    assert _judged(swapped) == [
        't 1 -> "r" has a matching tool_done, and the journal lists it as interrupted; DR-1 ¶3',
        't 2 has no matching tool_done, and the journal lists it as completed (t 2 -> "r"); '
        "DR-1 ¶3",
    ]
    wrong = {"completed": [{"tool": "t", "input": 1, "result": "q"}], "interrupted": []}
    assert _judged(wrong) == [
        'the journal lists t 1 -> "q" as completed, where its tool_done carried the result '
        '"r"; DR-1 ¶3',
        "the journal's interrupted calls [] leave out t 2; DR-1 ¶3",
    ]
    with pytest.raises(CheckFailed, match="not two lists"):
        _judged({"completed": "all of them"})
