"""The durable-resume checks' failure messages, rendered against traces where they fire:
each says what was observed, where (a JSON pointer) and what the clause requires, lists
every failure, and names the reading it relies on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from tests.conformance._dr import dr_cases, failures
from tests.conformance._support import mutant_driver, reference_driver

Doctor = Callable[[dict[str, object]], dict[str, object]]
RECORDING = "DR-1#c1/start-before-and-done-after[several-calls-in-one-batch]"


class _DoctoredDones:
    """The reference runtime, with every `tool_done` of the ledgers it reports rewritten."""

    def __init__(self, doctor: Doctor) -> None:
        self._doctor = doctor

    def handshake(self) -> Handshake:
        return reference_driver().handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = reference_driver().run(scenario)
        if isinstance(trace, Unsupported) or trace.ledger is None:
            return trace
        ledger = tuple(
            self._doctor(dict(e)) if isinstance(e, dict) and e.get("event") == "tool_done" else e
            for e in trace.ledger
        )
        return replace(trace, ledger=ledger)


def _without(key: str) -> Doctor:
    return lambda event: {k: v for k, v in event.items() if k != key}


def _with(key: str, value: object) -> Doctor:
    return lambda event: {**event, key: value}


def test_the_reference_runtime_passes_every_durable_case() -> None:
    for case_id in dr_cases():
        assert failures(case_id, reference_driver()) == [], case_id


@pytest.mark.parametrize(
    ("doctor", "first"),
    [
        (_without("input"), "the tool_done of send_email carries no input"),
        (_with("input", None), "the tool_done of send_email carries no input"),
        (
            _with("input", {"to": "someone@example.com"}),
            'the tool_done of send_email carries input {"to": "someone@example.com"}, not its '
            'tool_start\'s input {"to": "ana@example.com"}',
        ),
        (_without("tool"), "the tool_done after send_email's tool_start carries no tool name"),
        (
            _with("tool", "send_mail"),
            'the tool_done after send_email\'s tool_start carries tool name "send_mail"',
        ),
        (_without("result"), "the tool_done of send_email carries no result"),
        (
            _with("result", {"success": True, "data": "nothing", "error": None}),
            'the tool_done of send_email carries result {"data": "nothing", "error": null, '
            '"success": true}, which holds nothing of what the tool returned, "sent"',
        ),
    ],
    ids=[
        "input-absent",
        "input-null",
        "input-other",
        "tool-absent",
        "tool-other",
        "no-result",
        "other-result",
    ],
)
def test_a_done_that_lacks_part_of_its_call_fails_for_every_call(
    doctor: Doctor, first: str
) -> None:
    found = failures(RECORDING, _DoctoredDones(doctor))
    # Every call of the batch is reported, not only the first: four calls, four dones.
    assert len(found) == 4
    assert found[0].message.startswith(first + "; DR-1 ¶1 records"), found[0].message
    assert [f.pointer for f in found] == ["/ledger/1", "/ledger/3", "/ledger/5", "/ledger/7"]


#: (case, mutant, what every failure's message opens with, pointer prefix, reading)
FIRED = [
    (
        "DR-1#c2/journal-adds-no-recording[refused-retry]",
        "refusal-recorded-in-ledger",
        [
            'the ledger holds a tool_start of send_email {"to": "ana@example.com"} with no '
            "body of that call behind it (1 tool body ran in all)",
            "0 of the 1 tool body returned, and the ledger holds 1 tool_done event",
        ],
        "/ledger",
        None,
    ),
    (
        "DR-1#c4/done-pairs-fifo-per-tool[three-open-two-done]",
        "done-pairs-with-newest-start",
        [
            'send_email {"to": "ana@example.com"} -> "first" has a matching tool_done, and the '
            "journal lists it as interrupted",
            'send_email {"to": "cy@example.com"} has no matching tool_done, and the journal '
            'lists it as completed (send_email {"to": "cy@example.com"} -> "first")',
        ],
        "/steps/0/journal/",
        None,
    ),
    (
        "DR-2#c1/note-right-after-nudge[time-limit]",
        "note-before-nudge",
        [
            "nothing follows the nudge, so no note names any call the turn completed "
            '(create_ticket {"title": "Printer jam"}, …); it is named before the nudge, in '
            "the nudge's own message"
        ],
        "/steps/2/runs/0/model_inputs/0/messages/",
        "right-after-the-nudge",
    ),
    (
        "DR-2#c2/note-names-completed-with-results[map-and-failed-results]",
        "note-omits-completed-results",
        [
            'the note names send_email {"to": "ana@example.com"} but shows no "mailbox full" '
            'of its result "mailbox full"',
            'the note names create_ticket {"title": "Printer jam"} but shows no "T-7" of its '
            'result {"id": "T-7", "queue": "ops"}',
        ],
        "/steps/2/runs/0/model_inputs/0/messages/",
        "short-result",
    ),
    (
        "DR-2#c4/empty-journal-appends-nothing[cut-twice]",
        "empty-journal-note-appended",
        [
            'the resume prompt reads "Continue from where you left off.\\n\\nJournal of this '
            "turn's earlier attempts:\", not exactly the nudge"
        ],
        "/steps/3/runs/1/model_inputs/0/messages/",
        None,
    ),
    (
        "DR-3#c2/completed-write-not-repeated[map-result]",
        "reused-result-without-note",
        [
            'for the re-dispatched call r1 the model reads "{\\"id\\": \\"T-7\\", \\"queue\\": '
            '\\"ops\\"}", exactly what it read when call c1 ran'
        ],
        "/steps/2/runs/0/model_inputs/1/messages/",
        "reused-result",
    ),
    (
        "DR-3#c4/match-by-content-not-position[keys-in-another-order]",
        "signature-depends-on-key-order",
        [
            'send_email {"subject": "Hi", "to": "ana@example.com"} (call r1), dispatched in the '
            "resumed chunk, ran once (at /steps/2/runs/0/side_effects/0); expected it not to "
            "run: an identical call completed in an earlier chunk of the turn"
        ],
        "/steps/2/runs/0/side_effects/0",
        None,
    ),
    (
        "DR-3#c5/entry-consumed-once[two-completions-three-repeats]",
        "claim-consumes-every-identical-entry",
        [
            'send_email {"to": "ana@example.com"} (call r2), dispatched in the resumed chunk, '
            "ran once"
        ],
        "/steps/2/runs/0/side_effects/",
        None,
    ),
    (
        "DR-4#c2/guard-only-when-history-shows[two-retries-in-one-batch]",
        "refusal-consumed-once",
        [
            'the identical retry r2 of the interrupted send_email {"to": "ana@example.com"} '
            "ran (at /steps/2/runs/0/side_effects/0), though the history it was dispatched "
            "from shows the interrupted call (at /steps/2/runs/0/model_inputs/0)"
        ],
        "/steps/2/runs/0/side_effects/0",
        "history-shows-the-interruption",
    ),
    (
        "DR-5#c2/reports-resuming-and-stop-works[after-a-restart]",
        "resuming-turn-reported-running",
        [
            'cut by its time limit 1 time, the turn waiting to continue is status "running" '
            "(declared running), continueOffered false"
        ],
        "/steps/2/wire/main/t1",
        "turn-states",
    ),
    (
        "DR-5#c3/at-most-three-automatic-continuations[continue-in-between]",
        "count-reset-by-continue",
        [
            "turn t1 continued on its own 4 times (runs of cause auto_continue: "
            "/steps/6/runs/0, /steps/6/runs/1, /steps/8/runs/0, /steps/8/runs/1), expected 3",
            "cut by its time limit once more than it may continue, turn t1 ends status "
            '"completed" (declared completed), continueOffered false',
        ],
        "/steps/8/",
        None,
    ),
    (
        "DR-6#c3/offered-only-for-newest-stop[two-conversations]",
        "newest-stop-across-conversations",
        [
            'turn t1, the newest stop of conversation main, is status "stopped" (declared '
            "stopped), continueOffered false: it does not offer Continue"
        ],
        "/steps/3/wire/main/t1",
        "stopped-with-continue",
    ),
    (
        "DR-6#c4/new-message-told-what-unfinished-did[interrupted-call]",
        "new-turn-not-told-what-unfinished-did",
        [
            "before the new message (at /steps/2/runs/0/model_inputs/0/messages/6) the agent "
            'is told "You are a helpful agent. Use the tools you are given.\\nHello\\nThe '
            'previous turn stopped before it finished.", which does not name the unfinished '
            'turn\'s send_email {"to": "ana@example.com"}',
            "before the new message (at /steps/2/runs/0/model_inputs/0/messages/6) the agent "
            'is told "You are a helpful agent. Use the tools you are given.\\nHello\\nThe '
            'previous turn stopped before it finished.", which does not name the unfinished '
            'turn\'s create_ticket {"title": "Printer jam"}',
        ],
        "/steps/2/runs/0/model_inputs/0/messages/6",
        "first-told",
    ),
]


@pytest.mark.parametrize(
    ("case_id", "mutant", "openings", "pointer", "reading"),
    FIRED,
    ids=[f"{mutant}-{case_id.split('/')[0]}" for case_id, mutant, *_ in FIRED],
)
def test_a_message_says_what_was_observed_where_and_what_the_clause_requires(
    case_id: str, mutant: str, openings: list[str], pointer: str, reading: str | None
) -> None:
    driver = mutant_driver(mutant)
    try:
        found = failures(case_id, driver)
    finally:
        driver.close()
    assert [f.message[: len(o)] for f, o in zip(found, openings, strict=False)] == openings
    assert len(found) == len(openings), [f.message for f in found]
    clause = case_id.split("#", maxsplit=1)[0]
    for failure in found:
        assert f"{clause} ¶" in failure.message, failure.message
        assert failure.pointer is not None and failure.pointer.startswith(pointer)
        assert "\n" not in failure.line()
    assert found[0].reading == reading


# Every failure each mutant draws (every rule's, the durable rules' citing their
# paragraph) is held to a report line's wording by the self-test itself
# (conformance.selftest.misworded, tests/mutants/test_misworded.py).
