"""Shapes of durable resume: whether a turn continues on its own, which stop Continue is
offered for, what the resumed run's history shows of an interrupted call (DR-4 … DR-6)."""

from __future__ import annotations

import json

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Snapshot, signature
from reference_impl.passes import PassContext, ToolNode
from reference_impl.shapes._model import Shape
from reference_impl.variants import NewestStopInTime
from reference_impl.workflow import ToolSpec

__all__ = ["SHAPES"]


class _NeverContinuesOnItsOwn(Behaviour):
    """No interruption makes a turn continue by itself: a time limit stops it with
    Continue available, as any error does (the handshake declares none)."""

    def resumes_on_its_own(self) -> frozenset[str]:
        return frozenset()


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


class _RetriesWhenBlind(ToolNode):
    """Where the ledger could not be read, never refuses a retry: the journal is the only
    thing it refuses from (what the reference runtime did before it refused from the
    history)."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if not journal.ledger_read:
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
        lambda: Components(behaviour=NewestStopInTime()),
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
        "retry-after-a-failed-ledger-read",
        "gap",
        "when the ledger read of a resumed chunk fails, an identical retry of an "
        "interrupted write runs, although the history answers the interrupted call with "
        "the placeholder (the journal is the only thing it refuses from)",
        (),
        ("DR-4#c2",),
        f"breaks {_DR4_2}: the history shows the interruption (the placeholder) and the "
        "retry is not refused; the failed read costs the note (DR-2 ¶5), not the history",
        lambda: Components(node=_RetriesWhenBlind()),
    ),
)
