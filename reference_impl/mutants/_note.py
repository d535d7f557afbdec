"""Mutants of the note a resumed run is given (DR-2)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import replace

from reference_impl.behaviour import Behaviour
from reference_impl.durable import NUDGE, short_result
from reference_impl.journal import Journal, LedgerEvent, Snapshot
from reference_impl.mutants._model import Mutant, with_behaviour
from reference_impl.seams import Interruption

__all__ = ["MUTANTS"]


class _NoteBeforeNudge(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None or journal.empty:
            return super().resume_prompt(journal)
        return f"{self.note(journal)}\n\n{NUDGE}"


class _NoteOmitsCompletedResults(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        blank = tuple(replace(entry, result="") for entry in journal.completed)
        return super().resume_prompt(Journal(blank, journal.interrupted))


class _NoteSkipsEmptyResults(Behaviour):
    """Leaves out of the note a completed call whose short result is empty."""

    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        shown = tuple(e for e in journal.completed if short_result(e.result))
        return super().resume_prompt(Journal(shown, journal.interrupted))


class _NoteMarksEveryResultCut(Behaviour):
    """Follows every completed call's short result with an ellipsis, short or not."""

    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        marked = tuple(
            replace(entry, result=f"{short_result(entry.result).rstrip('…')}…")
            for entry in journal.completed
        )
        return super().resume_prompt(Journal(marked, journal.interrupted))


class _NoteOmitsInterruptedCalls(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        return super().resume_prompt(Journal(journal.completed, ()))


class _EmptyJournalNoteAppended(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        prompt = super().resume_prompt(journal)
        if journal is not None and journal.empty:  # a note of nothing, header and all
            return f"{prompt}\n\n{self.note(journal)}"
        return prompt


class _LedgerReadFailureStopsRecovery(Behaviour):
    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:  # the ledger could not be read: the recovery is abandoned
            raise Interruption("error", "during_model_call")
        return super().resume_prompt(journal)


class _UnreadSnapshot(Snapshot):
    """The snapshot of a ledger that could not be read: carried on (its chunk's claims
    restored after a pause), it stops the recovery instead."""

    def consume(self, positions: Iterable[int]) -> None:
        raise Interruption("error", "during_model_call")


class _LedgerReadFailureStopsCarryingOn(Behaviour):
    """Stops the recovery with an error when the ledger read fails as a paused resumed
    chunk carries on.  (A read that fails as the chunk begins still only costs the note.)"""

    def __init__(self) -> None:
        super().__init__()
        self._read = False  # whether the snapshot about to be taken had its ledger read

    def journal_events(self, conn: sqlite3.Connection, turn_id: str) -> list[LedgerEvent]:
        events = super().journal_events(conn, turn_id)
        self._read = True
        return events

    def snapshot(self, journal: Journal) -> Snapshot:
        read, self._read = self._read, False
        return super().snapshot(journal) if read else _UnreadSnapshot(journal)


MUTANTS = (
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
        hunted=True,
    ),
    Mutant(
        "note-skips-empty-results",
        ("DR-2#c2",),
        "the note leaves out a completed call whose result is empty",
        with_behaviour(_NoteSkipsEmptyResults),
    ),
    Mutant(
        "note-marks-short-results-cut",
        ("DR-2#c2",),
        "the note follows every completed call's result with an ellipsis, so a result short "
        "enough to show whole reads as the start of a longer one",
        with_behaviour(_NoteMarksEveryResultCut),
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
    Mutant(
        "ledger-read-failure-stops-carrying-on",
        ("DR-2#c5",),
        "a failed ledger read as a paused resumed chunk carries on stops the recovery with an "
        "error",
        with_behaviour(_LedgerReadFailureStopsCarryingOn),
    ),
)
