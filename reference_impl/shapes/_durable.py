"""Shapes of durable resume: whether a turn continues on its own, which stop Continue is
offered for, what the resumed run's history shows of an interrupted call (DR-4 … DR-6)."""

from __future__ import annotations

import json
import sqlite3
import threading

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Journal, Snapshot, signature
from reference_impl.passes import PassContext, ToolNode
from reference_impl.shapes._model import Shape
from reference_impl.workflow import ToolSpec

__all__ = ["SHAPES"]


class _NeverContinuesOnItsOwn(Behaviour):
    """No interruption makes a turn continue by itself: a time limit stops it with
    Continue available, as any error does (the handshake declares none)."""

    def resumes_on_its_own(self) -> frozenset[str]:
        return frozenset()


class _NewestStopInTime(Behaviour):
    """Offers Continue for the stop that happened last, whichever turn it stopped, rather
    than for the latest stopped turn in conversation order."""

    def continue_offered(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        if turn.status != "stopped":
            return False
        newest = conn.execute(
            "SELECT id FROM turns WHERE conversation_id = ? AND status = 'stopped'"
            " ORDER BY updated_at DESC, seq DESC LIMIT 1",
            (turn.conversation_id,),
        ).fetchone()
        return newest is not None and newest["id"] == turn.id


class _LeavesUnansweredCallsOut(Behaviour):
    """Builds the model's history from the calls that returned only: a declared call
    with no result is left out of it, as a history that must answer every call it
    declares has it."""

    def keeps_unanswered_calls(self) -> bool:
        return False


class _RefusesWhatTheHistoryStillShows(ToolNode):
    """With declared calls that never returned left out of the history, refuses an
    identical retry of an interrupted write only where the history shows the
    interruption some other way: an earlier refusal of it, or the note of an earlier
    chunk of the turn naming it as interrupted (the current chunk's own prompt comes
    after the history, and does not count)."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if not journal.interrupted(tool.name, args):
            return False
        if signature(tool.name, args) in ctx.history_interrupted:
            return True
        line = f"- {tool.name} {json.dumps(args, ensure_ascii=False, sort_keys=True)}"
        prompts = [
            entry.get("content")
            for turn_id, entry in records.thread_entries(ctx.store.read(), ctx.conversation_id)
            if turn_id == ctx.turn_id and entry.get("kind") == "resume"
        ]
        return any(isinstance(text, str) and line in text.splitlines() for text in prompts[:-1])


class _BlindSnapshot(Snapshot):
    """A resumed chunk's snapshot, knowing whether the ledger could be read for it."""

    blind = False


class _KnowsAnUnreadableLedger(Behaviour):
    """Marks the snapshot of a resumed chunk whose ledger read failed as blind (the
    resume prompt is made right after the snapshot, from the same read)."""

    def __init__(self) -> None:
        self._taken = threading.local()  # per thread: two clients may resume at once

    def snapshot(self, journal: Journal) -> Snapshot:
        taken = _BlindSnapshot(journal)
        self._taken.snapshot = taken
        return taken

    def resume_messages(self, journal: Journal | None) -> list[dict[str, object]]:
        taken = getattr(self._taken, "snapshot", None)
        if journal is None and isinstance(taken, _BlindSnapshot):
            taken.blind = True
        return super().resume_messages(journal)


class _RefusesFromTheHistory(ToolNode):
    """Where the ledger could not be read, refuses an identical retry whenever the
    history shows the call interrupted; otherwise as the reference runtime does."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if getattr(journal, "blind", False):
            return signature(tool.name, args) in ctx.history_interrupted
        return super().refuse_interrupted(ctx, journal, tool, args)


class _RetriesWhenBlind(ToolNode):
    """Where the ledger could not be read, never refuses a retry: the journal is the only
    thing it refuses from (what the reference runtime does today)."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if getattr(journal, "blind", False):
            return False
        return super().refuse_interrupted(ctx, journal, tool, args)


_DR4_2 = (
    "\"An identical retry of an interrupted write is refused when the resumed run's history "
    'shows the interruption, and only then" (DR-4 ¶2)'
)

SHAPES: tuple[Shape, ...] = (
    Shape(
        "no-automatic-continuation",
        "gap",
        "no interruption makes a turn continue by itself: a time limit stops the turn with "
        "Continue available (the handshake declares resumes_on_its_own: [])",
        (),
        ("DR-5#c1",),
        'breaks "When a turn is stopped at its run time limit, it continues on its own in '
        'the same turn" (DR-5 ¶1); the count (¶3, ¶4) is never spent, and the turn ends '
        "with Continue available as ¶5 asks after a cut it does not continue",
        lambda: Components(behaviour=_NeverContinuesOnItsOwn()),
    ),
    Shape(
        "newest-stop-in-time",
        "legal",
        "Continue is offered for the stop that happened last in time, whichever turn it "
        "stopped, not for the latest stopped turn in conversation order",
        (),
        ("DR-6#c3",),
        '"It is offered only for the conversation\'s newest stop" (DR-6 ¶3): a stop is an '
        "event, and the newest one is the one that happened last; an older turn stopped "
        "after a newer one (a paused turn stopped later) holds the conversation's newest "
        "stop",
        lambda: Components(behaviour=_NewestStopInTime()),
    ),
    Shape(
        "unanswered-calls-left-out-of-history",
        "legal",
        "a declared call that never returned is left out of the history the model reads, "
        "so the first resumed chunk's history does not show the interruption and its "
        "identical retry runs; a later chunk, whose history holds an earlier note naming "
        "the call as interrupted (or an earlier refusal), refuses it",
        ("Vercel AI SDK (convertToModelMessages with ignoreIncompleteToolCalls)",),
        ("DR-4#c2",),
        f"{_DR4_2}: without the declared call, the first resumed chunk's history does not "
        "show it (the journal note naming it comes after the nudge, not in the history); "
        "an earlier chunk's note in the history does, and then the retry is refused",
        lambda: Components(
            behaviour=_LeavesUnansweredCallsOut(), node=_RefusesWhatTheHistoryStillShows()
        ),
    ),
    Shape(
        "refuse-from-the-history-when-the-ledger-is-unreadable",
        "legal",
        "when the ledger read of a resumed chunk fails, an identical retry of a write the "
        "history shows as interrupted is still refused, from the history alone",
        (),
        ("DR-4#c2", "DR-2#c5"),
        f"{_DR4_2}: the history (its placeholder answer) shows it whether or not the ledger "
        'can be read; "a failed ledger read never blocks a recovery" (DR-2 ¶5), and a '
        "refused retry does not block one",
        lambda: Components(behaviour=_KnowsAnUnreadableLedger(), node=_RefusesFromTheHistory()),
    ),
    Shape(
        "retry-after-a-failed-ledger-read",
        "gap",
        "when the ledger read of a resumed chunk fails, an identical retry of an "
        "interrupted write runs, although the history answers the interrupted call with "
        "the placeholder (what the reference runtime does today)",
        (),
        ("DR-4#c2",),
        f"breaks {_DR4_2}: the history shows the interruption (the placeholder) and the "
        "retry is not refused; the failed read costs the note (DR-2 ¶5), not the history",
        lambda: Components(behaviour=_KnowsAnUnreadableLedger(), node=_RetriesWhenBlind()),
    ),
)
