"""Mutants of the tool-call journal and the note a resumed run is given (DR-1, DR-2)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace

from reference_impl.behaviour import Behaviour
from reference_impl.durable import NUDGE, render_note
from reference_impl.journal import Entry, Journal, LedgerEvent
from reference_impl.mutants._model import Mutant, with_behaviour, with_node
from reference_impl.passes import Call, PassContext, ToolNode
from reference_impl.seams import Interruption

__all__ = ["MUTANTS"]


def _newest_first(events: Iterable[LedgerEvent]) -> Journal:
    """The journal with each ``tool_done`` paired to the newest open start of its tool."""
    open_starts: dict[str, list[Entry]] = {}
    completed: list[Entry] = []
    for position, event in enumerate(events):
        if event.event == "clear":
            open_starts.clear()
        elif event.tool is None:
            continue
        elif event.event == "tool_start":
            open_starts.setdefault(event.tool, []).append(
                Entry(event.tool, event.input, None, position)
            )
        elif event.event == "tool_done" and open_starts.get(event.tool):
            start = open_starts[event.tool].pop()
            completed.append(replace(start, result=event.result))
    interrupted = sorted(
        (e for starts in open_starts.values() for e in starts), key=lambda entry: entry.seq
    )
    return Journal(tuple(sorted(completed, key=lambda entry: entry.seq)), tuple(interrupted))


class _ToolDoneWithout(ToolNode):
    """Records every ``tool_done`` without one of its parts (``dropped``)."""

    dropped = ""

    def record_event(
        self,
        conn: sqlite3.Connection,
        ctx: PassContext,
        event: str,
        tool: str,
        *,
        tool_input: object = None,
        result: object = None,
    ) -> None:
        if event == "tool_done":
            tool_input = None if self.dropped == "input" else tool_input
            result = None if self.dropped == "result" else result
        super().record_event(conn, ctx, event, tool, tool_input=tool_input, result=result)


class _ToolDoneMissingResult(_ToolDoneWithout):
    dropped = "result"


class _ToolDoneMissingInput(_ToolDoneWithout):
    dropped = "input"


class _ReusedAnswerRecordedInLedger(ToolNode):
    def finish(
        self,
        ctx: PassContext,
        call: Call,
        disposition: str,
        result: dict[str, object],
        *,
        message: str | None = None,
        ledger_tool: str | None = None,
        ledger_input: object = None,
    ) -> tuple[str, dict[str, object], str]:
        if disposition == "reused":  # the journal's answer is booked as a call that ran
            with ctx.store.transaction() as conn:
                self.record_event(conn, ctx, "tool_start", call.name, tool_input=call.args)
            ledger_tool, ledger_input = call.name, call.args
        return super().finish(
            ctx,
            call,
            disposition,
            result,
            message=message,
            ledger_tool=ledger_tool,
            ledger_input=ledger_input,
        )


class _InterruptedCallsForgotten(Behaviour):
    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return Journal(super().journal(events).completed, ())


class _DonePairsWithNewestStart(Behaviour):
    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return _newest_first(events)


class _ClearEventIgnored(Behaviour):
    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return super().journal([event for event in events if event.event != "clear"])


class _NoteBeforeNudge(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None or journal.empty:
            return super().resume_prompt(journal)
        return f"{render_note(journal)}\n\n{NUDGE}"


class _NoteOmitsCompletedResults(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        blank = tuple(replace(entry, result="") for entry in journal.completed)
        return super().resume_prompt(Journal(blank, journal.interrupted))


class _NoteOmitsInterruptedCalls(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        return super().resume_prompt(Journal(journal.completed, ()))


class _EmptyJournalNoteAppended(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is not None and journal.empty:
            return f"{NUDGE}\n\n{render_note(journal)}"
        return super().resume_prompt(journal)


class _LedgerReadFailureStopsRecovery(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:  # the ledger could not be read: the recovery is abandoned
            raise Interruption("error", "during_model_call")
        return super().resume_prompt(journal)


MUTANTS = (
    Mutant(
        "tool-done-missing-result",
        ("DR-1#c1",),
        "`tool_done` is recorded without the call's result",
        with_node(_ToolDoneMissingResult),
    ),
    Mutant(
        "tool-done-missing-input",
        ("DR-1#c1",),
        "`tool_done` is recorded without the call's input",
        with_node(_ToolDoneMissingInput),
    ),
    Mutant(
        "reused-answer-recorded-in-ledger",
        ("DR-1#c2",),
        "a call answered from the journal is written to the ledger as a call that ran",
        with_node(_ReusedAnswerRecordedInLedger),
    ),
    Mutant(
        "interrupted-calls-forgotten",
        ("DR-1#c3",),
        "a `tool_start` without a matching `tool_done` is left out of the journal",
        with_behaviour(_InterruptedCallsForgotten),
    ),
    Mutant(
        "done-pairs-with-newest-start",
        ("DR-1#c4",),
        "a `tool_done` closes the newest open start of its tool, not the oldest",
        with_behaviour(_DonePairsWithNewestStart),
    ),
    Mutant(
        "clear-event-ignored",
        ("DR-1#c5",),
        "a `clear` event does not reset the open calls",
        with_behaviour(_ClearEventIgnored),
    ),
    Mutant(
        "note-before-nudge",
        ("DR-2#c1",),
        "the journal note is put before the nudge instead of after it",
        with_behaviour(_NoteBeforeNudge),
    ),
    Mutant(
        "note-omits-completed-results",
        ("DR-2#c2",),
        "the note names completed calls without their results",
        with_behaviour(_NoteOmitsCompletedResults),
    ),
    Mutant(
        "note-omits-interrupted-calls",
        ("DR-2#c3",),
        "the note leaves out the interrupted calls",
        with_behaviour(_NoteOmitsInterruptedCalls),
    ),
    Mutant(
        "empty-journal-note-appended",
        ("DR-2#c4",),
        "an empty journal still appends a note header to the resume prompt",
        with_behaviour(_EmptyJournalNoteAppended),
    ),
    Mutant(
        "ledger-read-failure-stops-recovery",
        ("DR-2#c5",),
        "a failed ledger read stops the recovery with an error",
        with_behaviour(_LedgerReadFailureStopsRecovery),
    ),
)
