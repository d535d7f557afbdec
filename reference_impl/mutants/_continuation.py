"""Mutants of automatic continuation, Continue and the new turn (DR-5, DR-6)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from reference_impl import records
from reference_impl.behaviour import Behaviour
from reference_impl.journal import Journal, Snapshot, classify
from reference_impl.mutants._model import (
    Mutant,
    run_cause,
    unfinished_turn_before,
    with_behaviour,
    with_node,
    with_wire,
)
from reference_impl.passes import PassContext, PassResult, ToolNode
from reference_impl.records import MessageRow, TurnRow
from reference_impl.runtime import UNFINISHED
from reference_impl.seams import waiters_together
from reference_impl.store import Store
from reference_impl.wire import Wire
from reference_impl.workflow import ToolSpec

__all__ = ["MUTANTS"]

#: How long a waiter is held for the others it waits with (``seams.waiting_together``):
#: a guard against one that never looks, never a window a busy machine could miss.
RENDEZVOUS_GUARD_S = 120.0


class _Rendezvous:
    """Holds each of a group of waiters started together (a scenario's
    ``Wait(clients=N)``) between its look at a turn and its claim, until every one of
    them has looked at the same turn at the same count: a race between a look and a
    write then shows however slowly the machine schedules the others, where a fixed
    sleep showed it only when they were scheduled within it.  A waiter alone (no group)
    is not held."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._met: dict[tuple[str, int], threading.Barrier] = {}

    def meet(self, turn_id: str, count: int) -> None:
        together = waiters_together()
        if together <= 1:
            return
        with self._lock:
            barrier = self._met.setdefault((turn_id, count), threading.Barrier(together))
        # One of the group that never came (past the guard) leaves this one to claim alone.
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=RENDEZVOUS_GUARD_S)


class _TimeLimitEndsTurn(Behaviour):
    def may_auto_continue(self, automatic_so_far: int) -> bool:
        return False


class _ResumingReportedRunning(Wire):
    def turn(
        self, turn: TurnRow, messages: Sequence[MessageRow], *, continue_offered: bool
    ) -> dict[str, object]:
        view = super().turn(turn, messages, continue_offered=continue_offered)
        if view["status"] == "resuming":
            view["status"] = "running"
        return view


class _AutoContinueLimitFour(Behaviour):
    auto_continue_limit = 4


class _CountInMemory(Behaviour):
    """Counts only the continuations this process has seen: the first count a connection
    reads for a turn becomes its zero, so a restart (new connections) starts again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Keyed by the connection's id; the connection is kept so the id is never reused.
        self._zeros: dict[int, tuple[sqlite3.Connection, dict[str, int]]] = {}

    def automatic_continuations(self, conn: sqlite3.Connection, turn_id: str) -> int:
        stored = super().automatic_continuations(conn, turn_id)
        with self._lock:
            _, zeros = self._zeros.setdefault(id(conn), (conn, {}))
            zero = zeros.setdefault(turn_id, stored)
        return stored - zero


class _RacyClaim(Behaviour):
    """Looks at the turn outside any transaction, then claims it unconditionally (waiters
    started together all look before any claims)."""

    def __init__(self) -> None:
        self._group = _Rendezvous()

    def claim_continuation(
        self, store: Store, turn_id: str, start_run: Callable[[sqlite3.Connection], str]
    ) -> str | None:
        conn = store.read()
        if not self.resuming(conn, turn_id):
            return None
        self._group.meet(turn_id, self.automatic_continuations(conn, turn_id))
        with store.transaction() as write:
            return self.continue_or_stop(write, turn_id, start_run)


class _CountResetByContinue(Behaviour):
    """Counts only the automatic continuations since the turn was last continued by hand."""

    def automatic_continuations(self, conn: sqlite3.Connection, turn_id: str) -> int:
        count = 0
        for run in records.list_runs(conn, turn_id):
            count = 0 if run.cause == "continue" else count + (run.cause == "auto_continue")
        return count


class _AnsweredRunsCounted(Behaviour):
    """Counts the runs an answer or an approval started as automatic continuations."""

    def automatic_continuations(self, conn: sqlite3.Connection, turn_id: str) -> int:
        answered = [r for r in records.list_runs(conn, turn_id) if r.cause in ("answer", "approve")]
        return super().automatic_continuations(conn, turn_id) + len(answered)


class _IdlessResultLeftOutOfTheThread(ToolNode):
    """Leaves the tool message of a call without an identifier out of the thread, so no
    later model input (a continuation's neither) holds its result."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        kept = [m for m in result.tool_messages if m.get("tool_call_id") is not None]
        return replace(result, tool_messages=kept)


class _CountSpansTheConversation(Behaviour):
    """Counts the automatic continuations of every turn of the conversation."""

    def automatic_continuations(self, conn: sqlite3.Connection, turn_id: str) -> int:
        turn = records.get_turn(conn, turn_id)
        turns = [] if turn is None else records.list_turns(conn, turn.conversation_id)
        return sum(
            super(_CountSpansTheConversation, self).automatic_continuations(conn, t.id)
            for t in turns
        )


class _CountReadOutsideTheClaim(Behaviour):
    """At the last continuation, looks at the turn and its count outside any transaction,
    then claims it unconditionally: two waiters at the last continuation both continue.

    Waiters started together all look before any claims (:class:`_Rendezvous`), so that
    the double continuation shows however slowly the machine schedules the second
    waiter; other continuations are claimed as production claims them."""

    def __init__(self) -> None:
        self._group = _Rendezvous()

    def claim_continuation(
        self, store: Store, turn_id: str, start_run: Callable[[sqlite3.Connection], str]
    ) -> str | None:
        conn = store.read()
        if not self.resuming(conn, turn_id):
            return None
        count = self.automatic_continuations(conn, turn_id)
        if count != self.auto_continue_limit - 1:
            return super().claim_continuation(store, turn_id, start_run)
        self._group.meet(turn_id, count)
        with store.transaction() as write:
            records.set_turn(write, turn_id, status="running")
            return start_run(write)


class _ContinueWithheldAfterErrorStopOrCancel(Behaviour):
    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        return super().continue_offered(conn, turn) and turn.error not in (
            "error",
            "stop",
            "cancel",
        )


class _ContinueWithheldAfterAFailedWriteBack(Behaviour):
    """A turn stopped by its failed write-back is left without Continue, so nothing moves
    it again and what was put back stays held."""

    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        return super().continue_offered(conn, turn) and turn.error != "write_back_failed"


class _ContinueWithheldAfterAFailedRun(Behaviour):
    """A turn stopped because its run failed on an error of its own is left without
    Continue, so nothing moves it again."""

    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        return super().continue_offered(conn, turn) and turn.error != "failed"


class _NewestStopAcrossConversations(Behaviour):
    """Offers Continue only for the newest stop of all conversations together."""

    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        newest = conn.execute(
            "SELECT id FROM turns WHERE status = 'stopped' ORDER BY rowid DESC LIMIT 1"
        ).fetchone()
        return turn.status == "stopped" and newest is not None and newest[0] == turn.id


class _RateLimitStopNotContinuable(Behaviour):
    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        return super().continue_offered(conn, turn) and turn.error not in (
            "credential",
            "rate_limit",
        )


class _ContinueSkipsHardBlock(ToolNode):
    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        if ctx.snapshot is not None and run_cause(ctx) == "continue":
            return None
        return super().checked_against(ctx, tool)


class _ContinueOfferedThreeTimes(Behaviour):
    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        chosen = sum(1 for run in records.list_runs(conn, turn.id) if run.cause == "continue")
        return super().continue_offered(conn, turn) and chosen < 3


class _ContinueOfferedForOlderStops(Behaviour):
    def continue_offered(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        return turn.status == "stopped"


class _NewTurnNotTold(Behaviour):
    def prior_turn_text(self, journal: Journal) -> str:
        return "The previous turn stopped before it finished."


class _NewTurnToldOfTheOldestUnfinished(Behaviour):
    """Tells a new message's agent of the conversation's oldest unfinished turn, not the
    one the message is sent instead of continuing."""

    def unfinished_to_tell(
        self, turns: Sequence[TurnRow], latest: TurnRow | None
    ) -> TurnRow | None:
        if latest is None:
            return None
        return next((turn for turn in turns if turn.status in UNFINISHED), latest)


class _HardBlockSpansTurns(ToolNode):
    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        previous = unfinished_turn_before(ctx) if ctx.snapshot is None else None
        if previous is not None:
            journal = classify(records.ledger_events(ctx.store.read(), previous.id))
            ctx = replace(ctx, snapshot=Snapshot(journal))
        return super().checked_against(ctx, tool)


MUTANTS = (
    Mutant(
        "time-limit-ends-turn",
        ("DR-5#c1",),
        "a turn cut off by its time limit waits for Continue instead of continuing",
        with_behaviour(_TimeLimitEndsTurn),
    ),
    Mutant(
        "resuming-turn-reported-running",
        ("DR-5#c2",),
        "a turn waiting to continue reports itself running",
        with_wire(_ResumingReportedRunning),
    ),
    Mutant(
        "idless-result-left-out-of-the-thread",
        ("DR-5#c1",),
        "the result of a call without an identifier never enters the thread, so a "
        "continuation is not given it",
        with_node(_IdlessResultLeftOutOfTheThread),
    ),
    Mutant(
        "auto-continue-limit-four",
        ("DR-5#c3",),
        "a turn continues on its own up to four times",
        with_behaviour(_AutoContinueLimitFour),
        hunted=True,
    ),
    Mutant(
        "count-reset-by-continue",
        ("DR-5#c3",),
        "a Continue resets the turn's count of automatic continuations",
        with_behaviour(_CountResetByContinue),
    ),
    Mutant(
        "count-spans-the-conversation",
        # A later turn cut by its time limit then never continues on its own: DR-5 ¶1's
        # words ("it continues on its own"); ¶3's "at most three" still holds of it.
        ("DR-5#c1",),
        "the count of automatic continuations is kept for the conversation, not the turn, "
        "so a later turn cut by its time limit does not continue",
        with_behaviour(_CountSpansTheConversation),
    ),
    Mutant(
        "answered-runs-counted-as-automatic",
        ("DR-5#c1",),
        "the runs an answer or an approval started count as automatic continuations",
        with_behaviour(_AnsweredRunsCounted),
    ),
    Mutant(
        "continuation-count-in-memory",
        ("DR-5#c4",),
        "the continuation count lives in the process, so a restart resets it",
        with_behaviour(_CountInMemory),
    ),
    Mutant(
        "continuation-claim-racy",
        ("DR-5#c4",),
        "a waiter checks the turn, then claims it without a guard: two waiters double a "
        "continuation",
        with_behaviour(_RacyClaim),
    ),
    Mutant(
        "continuation-count-read-outside-the-claim",
        ("DR-5#c4",),
        "a waiter reads the turn and its count, then claims it without a guard: two waiters "
        "at the last continuation both continue",
        with_behaviour(_CountReadOutsideTheClaim),
    ),
    Mutant(
        "continue-withheld-after-error-stop-or-cancel",
        ("DR-5#c5",),
        "a turn stopped by an error, a stop or a cancellation does not offer Continue",
        with_behaviour(_ContinueWithheldAfterErrorStopOrCancel),
    ),
    Mutant(
        "rate-limit-stop-not-continuable",
        ("DR-5#c5",),
        "a turn stopped by a credential or rate-limit failure does not offer Continue",
        with_behaviour(_RateLimitStopNotContinuable),
        hunted=True,
    ),
    Mutant(
        "continue-withheld-after-a-failed-write-back",
        ("DR-5#c5",),
        "a turn stopped by a failed write-back does not offer Continue, so what was put back "
        "stays held",
        with_behaviour(_ContinueWithheldAfterAFailedWriteBack),
    ),
    Mutant(
        "continue-withheld-after-a-failed-run",
        ("DR-5#c5",),
        "a turn stopped because its run failed on an error of its own (a tool result the "
        "store cannot hold) does not offer Continue",
        with_behaviour(_ContinueWithheldAfterAFailedRun),
    ),
    Mutant(
        "continue-skips-hard-block",
        ("DR-6#c1",),
        "a run resumed by Continue gets the note but not the hard-block",
        with_node(_ContinueSkipsHardBlock),
    ),
    Mutant(
        "continue-offered-three-times",
        ("DR-6#c2",),
        "Continue stops being offered once it was chosen three times",
        with_behaviour(_ContinueOfferedThreeTimes),
    ),
    Mutant(
        "continue-offered-for-older-stops",
        ("DR-6#c3",),
        "every stopped turn offers Continue, not only the newest stop",
        with_behaviour(_ContinueOfferedForOlderStops),
        hunted=True,
    ),
    Mutant(
        "newest-stop-across-conversations",
        ("DR-6#c3",),
        "Continue is offered only for the newest stop of all conversations together",
        with_behaviour(_NewestStopAcrossConversations),
    ),
    Mutant(
        "new-turn-not-told-what-unfinished-did",
        ("DR-6#c4",),
        "a new turn's agent is told only that the previous turn stopped",
        with_behaviour(_NewTurnNotTold),
    ),
    Mutant(
        "new-turn-told-of-the-oldest-unfinished",
        ("DR-6#c4",),
        "a new message's agent is told what the conversation's oldest unfinished turn did, "
        "not the latest, the one the message is sent instead of continuing",
        with_behaviour(_NewTurnToldOfTheOldestUnfinished),
    ),
    Mutant(
        "hard-block-spans-turns",
        ("DR-6#c5",),
        "a new turn is hard-blocked against the unfinished turn before it",
        with_node(_HardBlockSpansTurns),
    ),
)
