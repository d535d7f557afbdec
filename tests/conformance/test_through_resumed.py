"""The channels of what a resumed run is given (the note, the hard-block, Continue): what
breaks each in a trace, and what does not."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from adapters import Driver, connect
from adapters.scenario import Continue, Reply, StartTurn, Step, Wait
from adapters.trace import Trace
from conformance.toolkit import (
    CONTINUE_ACCEPTED,
    HARD_BLOCK_ANSWERS,
    NOTE_AFTER_THE_NUDGE,
    NOTE_NAMES_COMPLETED,
    Channel,
    call,
    calls,
    cut,
    say,
    scenario,
    send,
    tools,
)
from tests.conformance._support import REFERENCE

ANA = {"to": "ana@example.com"}
BO = {"to": "bo@example.com"}

#: a lookup, then an email cut after it returned, then the email re-dispatched
LOOKUP_THEN_SEND: tuple[Reply, ...] = (
    calls(call("lookup", {"id": 7}, "c1")),
    calls(send(ANA, "c2")),
    calls(send(ANA, "r1")),
    say("done"),
)
TWO_CUTS: tuple[Step, ...] = (
    cut("after_tool_done", on="lookup"),
    cut("after_tool_done", on="send_email"),
    StartTurn("t1"),
    Wait(),
)


@pytest.fixture(scope="module")
def drivers() -> Iterator[dict[str, Driver]]:
    made: dict[str, Driver] = {}
    yield made
    for driver in made.values():
        driver.close()


def _broken(
    drivers: dict[str, Driver],
    channel: Channel,
    choice: str,
    model: Sequence[Reply],
    steps: Sequence[Step],
) -> str | None:
    if choice not in drivers:
        drivers[choice] = Driver(connect(f"{REFERENCE}?{choice}" if choice else REFERENCE))
    runner = drivers[choice]
    made = scenario("channel", tools=tools(), model=list(model), steps=list(steps))
    trace = runner.run(made)
    assert isinstance(trace, Trace)
    return channel.broken(made, trace, runner.handshake())


@pytest.mark.parametrize(
    "channel", [NOTE_AFTER_THE_NUDGE, NOTE_NAMES_COMPLETED, HARD_BLOCK_ANSWERS]
)
def test_the_reference_keeps_the_resumed_runs_channels(
    drivers: dict[str, Driver], channel: Channel
) -> None:
    assert _broken(drivers, channel, "", LOOKUP_THEN_SEND, TWO_CUTS) is None


def test_a_note_before_the_nudge_breaks_its_place(drivers: dict[str, Driver]) -> None:
    why = _broken(
        drivers, NOTE_AFTER_THE_NUDGE, "mutant=note-before-nudge", LOOKUP_THEN_SEND, TWO_CUTS
    )
    assert why is not None and "before the nudge, in the nudge's own message" in why


def test_a_note_of_the_last_chunk_only_leaves_a_completed_call_out(
    drivers: dict[str, Driver],
) -> None:
    why = _broken(
        drivers, NOTE_NAMES_COMPLETED, "mutant=note-of-last-chunk-only", LOOKUP_THEN_SEND, TWO_CUTS
    )
    assert why is not None and 'leaves out lookup {"id": 7}' in why


def test_no_note_at_all_is_no_note_leaving_a_call_out(drivers: dict[str, Driver]) -> None:
    # With the note put before the nudge, nothing follows it: the note's place is what
    # breaks, not what a note after the nudge names.
    assert (
        _broken(
            drivers, NOTE_NAMES_COMPLETED, "mutant=note-before-nudge", LOOKUP_THEN_SEND, TWO_CUTS
        )
        is None
    )


def test_a_hard_block_that_answers_nothing_breaks_it(drivers: dict[str, Driver]) -> None:
    why = _broken(
        drivers, HARD_BLOCK_ANSWERS, "mutant=completed-write-repeated", LOOKUP_THEN_SEND, TWO_CUTS
    )
    assert why is not None and "answered no call from the journal" in why


def test_a_snapshot_too_short_is_a_hard_block_at_work(drivers: dict[str, Driver]) -> None:
    # The chunk just before completed BO, blocked again; ANA, two chunks back, runs: the
    # snapshot's reach (DR-3 ¶1), not the hard-block's absence.
    model = (calls(send(ANA, "c1")), calls(send(BO, "c2")), calls(send(BO, "r2"), send(ANA, "r1")))
    steps = (
        cut("after_tool_done", on="send_email"),
        cut("after_tool_done", on="send_email", nth=2),
        StartTurn("t1"),
        Wait(),
    )
    choice = "mutant=journal-of-last-chunk-only"
    assert _broken(drivers, HARD_BLOCK_ANSWERS, choice, (*model, say("done")), steps) is None


def test_a_continue_refused_after_an_error_breaks_it(drivers: dict[str, Driver]) -> None:
    steps = (cut("during_model_call", "error"), StartTurn("t1"), Continue("t1"))
    assert _broken(drivers, CONTINUE_ACCEPTED, "", (say("done"),), steps) is None
    choice = "mutant=continue-withheld-after-error-stop-or-cancel"
    why = _broken(drivers, CONTINUE_ACCEPTED, choice, (say("done"),), steps)
    assert why is not None and "refused the Continue chosen at /steps/2" in why


def test_a_continue_of_an_older_stop_keeps_it(drivers: dict[str, Driver]) -> None:
    # DR-6 ¶3 offers no Continue for an older stop: its refusal is right.
    steps = (
        cut("during_model_call", "error"),
        StartTurn("t1"),
        cut("during_model_call", "error"),
        StartTurn("t2"),
        Continue("t1"),
    )
    assert _broken(drivers, CONTINUE_ACCEPTED, "", (say("done"),), steps) is None
