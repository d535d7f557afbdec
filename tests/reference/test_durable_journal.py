"""DR-1: the tool-call journal classifies a turn's calls from the durable ledger."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.journal import Journal, LedgerEvent, classify, closed_starts
from reference_impl.seams import ProcessKilled
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec
from tests.reference._support import Rig, call, calls, examples, hypothesis_settings, say
from tests.reference.conftest import MakeRig

LEDGER_FIFO, JOURNAL_FIFO, LEDGER_CLEAR, JOURNAL_CLEAR = examples("DR-1")


def _events(raw: object) -> list[LedgerEvent]:
    assert isinstance(raw, list)
    return [LedgerEvent(e["event"], e.get("tool"), e.get("input"), e.get("result")) for e in raw]


def _rig(make_rig: MakeRig) -> Rig:
    return make_rig(ToolSpec("send_email"), ToolSpec("lookup", read_only=True))


# -- the worked examples ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ledger", "journal"),
    [(LEDGER_FIFO, JOURNAL_FIFO), (LEDGER_CLEAR, JOURNAL_CLEAR)],
    ids=["fifo", "clear"],
)
def test_examples(make_rig: MakeRig, ledger: object, journal: object) -> None:
    assert classify(_events(ledger)).to_json() == journal
    assert _rig(make_rig).runtime.classify(_events(ledger)).to_json() == journal


# -- recording (clause 1) ---------------------------------------------------------------


def test_start_is_recorded_before_the_body_and_done_after_it(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    seen: list[list[str]] = []

    def send(_args: object) -> ToolOutcome:
        (turn,) = rig.runtime.turns(rig.conversation_id)
        seen.append([e.event for e in rig.runtime.ledger(turn)])
        return ToolOutcome(output="sent")

    rig.world.behaviours["send_email"] = send
    rig.model.push(calls(call("send_email", {"to": "ana&amp;co"}, "c1")), say("Sent."))
    turn = rig.start()
    assert seen == [["tool_start"]]
    start, finish = rig.runtime.ledger(turn)
    # The input recorded is what the tool received (normalized), on the start and again on
    # the done; the result, as returned.
    assert (start.event, start.tool, start.input) == ("tool_start", "send_email", {"to": "ana&co"})
    assert (finish.event, finish.tool, finish.input, finish.result) == (
        "tool_done",
        "send_email",
        {"to": "ana&co"},
        {"success": True, "data": "sent", "error": None},
    )


def test_a_recoverable_failure_returned_and_is_recorded_done(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.returns("send_email", error="mailbox full")
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")), say("Failed."))
    turn = rig.start()
    journal = rig.runtime.classify(rig.runtime.ledger(turn))
    assert journal.to_json() == {
        "completed": [
            {
                "tool": "send_email",
                "input": {"to": "ana"},
                "result": {"success": False, "data": None, "error": "mailbox full"},
            }
        ],
        "interrupted": [],
    }


def test_every_done_carries_the_input_of_the_start_it_closes(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.behaviours["send_email"] = lambda args: (
        ToolOutcome(error="mailbox full") if args == {"to": "ana"} else ToolOutcome(output="sent")
    )
    rig.model.push(
        calls(
            call("send_email", {"to": "ana"}, "c1"),
            call("lookup", {"id": 7}, "c2"),
            call("send_email", {"to": "bo&amp;co"}, "c3"),
        ),
        say("Done."),
    )
    events = rig.runtime.ledger(rig.start())
    assert [(e.event, e.tool, e.input) for e in events] == [
        ("tool_start", "send_email", {"to": "ana"}),
        ("tool_done", "send_email", {"to": "ana"}),
        ("tool_start", "lookup", {"id": 7}),
        ("tool_done", "lookup", {"id": 7}),
        ("tool_start", "send_email", {"to": "bo&co"}),
        ("tool_done", "send_email", {"to": "bo&co"}),
    ]
    assert events[1].result == {"success": False, "data": None, "error": "mailbox full"}
    assert closed_starts(events) == {1: 0, 3: 2, 5: 4}


def test_calls_that_never_ran_leave_no_ledger_events(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("strict", input_schema={"type": "object", "required": ["x"]}))
    rig.model.push(calls(call("nowhere", {}, "c1"), call("strict", {}, "c2")), say("Ok."))
    assert rig.runtime.ledger(rig.start()) == []


# -- a pure read (clause 2) -------------------------------------------------------------


def test_reading_the_journal_records_nothing(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_done", "time_limit")
    turn = rig.start()
    before = rig.runtime.ledger(turn)
    events = copy.deepcopy(before)
    assert rig.runtime.classify(events) == rig.runtime.classify(events)
    assert events == before
    rig.runtime.settle()  # the resumed run reads the journal, and calls no tool
    assert rig.status(turn) == "completed"
    assert rig.runtime.ledger(turn) == before


# -- completed and interrupted (clause 3) -----------------------------------------------


@pytest.mark.parametrize("cause", ["time_limit", "crash"])
def test_a_side_effect_without_its_done_is_interrupted(make_rig: MakeRig, cause: str) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_body", cause, "send_email")
    if cause == "crash":
        with pytest.raises(ProcessKilled):
            rig.start()
        rig.restart()
    else:
        rig.start()
    assert rig.world.of("send_email") == [{"to": "ana"}]  # the side effect landed
    journal = rig.runtime.classify(rig.runtime.ledger(rig.turn))
    assert journal.to_json() == {
        "completed": [],
        "interrupted": [{"tool": "send_email", "input": {"to": "ana"}}],
    }


def test_a_done_call_is_completed_even_when_cut_right_after(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.returns("send_email", "sent")
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_done", "crash", "send_email")
    with pytest.raises(ProcessKilled):
        rig.start()
    rig.restart()
    journal = rig.runtime.classify(rig.runtime.ledger(rig.turn))
    assert [(e.tool, e.input, e.result) for e in journal.completed] == [
        ("send_email", {"to": "ana"}, {"success": True, "data": "sent", "error": None})
    ]
    assert journal.interrupted == ()


# -- pairing and clear (clauses 4, 5) ---------------------------------------------------


def _start(tool: str, value: int) -> LedgerEvent:
    return LedgerEvent("tool_start", tool, {"v": value})


def _done(tool: str, result: str) -> LedgerEvent:
    return LedgerEvent("tool_done", tool, None, result)


def test_pairing_is_first_in_first_out_per_tool_name() -> None:
    journal = classify(
        [
            _start("a", 1),
            _start("b", 1),
            _start("a", 2),
            _done("a", "r1"),
            _done("b", "rb"),
            _done("a", "r2"),
            _start("a", 3),
        ]
    )
    assert [(e.tool, e.input, e.result) for e in journal.completed] == [
        ("a", {"v": 1}, "r1"),
        ("b", {"v": 1}, "rb"),
        ("a", {"v": 2}, "r2"),
    ]
    assert [(e.tool, e.input) for e in journal.interrupted] == [("a", {"v": 3})]


def test_a_done_with_nothing_open_is_ignored() -> None:
    journal = classify([_done("a", "stray"), _start("a", 1), _done("b", "other")])
    assert journal.completed == ()
    assert [(e.tool, e.input) for e in journal.interrupted] == [("a", {"v": 1})]


def test_clear_resets_open_starts_and_completed_calls_stay() -> None:
    journal = classify(
        [
            _start("a", 1),
            _done("a", "r1"),
            _start("a", 2),
            _start("b", 1),
            LedgerEvent("clear"),
            _done("a", "late"),
            _start("b", 2),
        ]
    )
    assert [(e.tool, e.input, e.result) for e in journal.completed] == [("a", {"v": 1}, "r1")]
    assert [(e.tool, e.input) for e in journal.interrupted] == [("b", {"v": 2})]


def test_an_empty_ledger_is_an_empty_journal() -> None:
    assert classify([]) == Journal() and Journal().empty


# -- property: the journal against an independent model ---------------------------------

TOOLS = ("a", "b", "c")

_event = st.one_of(
    st.builds(
        lambda t, v: LedgerEvent("tool_start", t, {"v": v}),
        st.sampled_from(TOOLS),
        st.integers(0, 3),
    ),
    st.builds(
        lambda t, r: LedgerEvent("tool_done", t, None, r), st.sampled_from(TOOLS), st.integers(0, 9)
    ),
    st.just(LedgerEvent("clear")),
)


def _model(events: list[LedgerEvent]) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Each start's fate, decided event by event: matched by the first later done of its
    tool while no older start of that tool is still waiting, or cut loose by a clear."""
    matched: dict[int, object] = {}  # start position -> the result of its done
    cleared: set[int] = set()
    for j, event in enumerate(events):
        if event.event == "tool_done":
            waiting = [
                i
                for i in range(j)
                if events[i].event == "tool_start"
                and events[i].tool == event.tool
                and i not in matched
                and i not in cleared
            ]
            if waiting:
                matched[min(waiting)] = event.result
        elif event.event == "clear":
            cleared |= {i for i in range(j) if events[i].event == "tool_start" and i not in matched}
    completed: list[tuple[object, ...]] = [
        (events[i].tool, events[i].input, matched[i]) for i in sorted(matched)
    ]
    interrupted: list[tuple[object, ...]] = [
        (e.tool, e.input)
        for i, e in enumerate(events)
        if e.event == "tool_start" and i not in matched and i not in cleared
    ]
    return completed, interrupted


@hypothesis_settings(300)
@given(st.lists(_event, max_size=30), st.data())
def test_journal_agrees_with_the_model_at_any_cut_point(
    events: list[LedgerEvent], data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(events)), label="cut")
    prefix = events[:cut]
    journal = classify(prefix)
    completed, interrupted = _model(prefix)
    assert [(e.tool, e.input, e.result) for e in journal.completed] == completed
    assert [(e.tool, e.input) for e in journal.interrupted] == interrupted
    assert all(e.result is None for e in journal.interrupted)


@hypothesis_settings(300)
@given(st.lists(_event, max_size=30))
def test_closed_starts_pairs_as_the_journal_does(events: list[LedgerEvent]) -> None:
    closed = closed_starts(events)
    assert sorted(closed.values()) == [e.seq for e in classify(events).completed]
    for done, start in closed.items():
        assert start < done
        assert (events[start].event, events[done].event) == ("tool_start", "tool_done")
        assert events[start].tool == events[done].tool


# -- what the runtime records keeps the pairing exact -----------------------------------


def test_an_abandoned_start_never_pairs_with_a_later_call(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("before_tool_body", "time_limit", "send_email")
    turn = rig.start()
    rig.model.push(calls(call("send_email", {"to": "bo"}, "c2")), say("Sent to bo."))
    rig.runtime.settle()
    assert rig.world.of("send_email") == [{"to": "bo"}]
    events = rig.runtime.ledger(turn)
    assert [(e.event, e.input) for e in events] == [
        ("tool_start", {"to": "ana"}),
        ("tool_start", {"to": "bo"}),
        ("tool_done", {"to": "bo"}),
    ]
    assert events[0].run != events[2].run == events[1].run
    journal = rig.runtime.classify(events)
    # Pure first-in-first-out pairing would call ana's email (never sent) completed:
    # a done pairs with an open start of its own run.
    assert [e.input for e in journal.completed] == [{"to": "bo"}]
    assert [e.input for e in journal.interrupted] == [{"to": "ana"}]


def test_a_run_after_a_pause_pairs_within_its_own_run(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_body", "time_limit", "send_email")
    turn = rig.start()
    rig.model.push(ModelReply(question="Did ana get it?"))
    rig.runtime.settle()
    assert rig.status(turn) == "paused"
    rig.model.push(calls(call("send_email", {"to": "bo"}, "c2")), say("Sent to bo."))
    rig.runtime.answer(turn, "yes")
    journal = rig.runtime.classify(rig.runtime.ledger(turn))
    assert [e.input for e in journal.completed] == [{"to": "bo"}]


def test_a_run_that_starts_nothing_records_no_clear(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_body", "time_limit", "send_email")
    turn = rig.start()
    rig.model.push(say("I will check first."))
    rig.runtime.settle()
    assert [e.event for e in rig.runtime.ledger(turn)] == ["tool_start"]
