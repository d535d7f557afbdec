"""The reference runtime: conversations, turns and runs on one SQLite file.

Every entry point claims the turn it acts on inside one transaction (so two clients
answering the same paused turn cannot both resume it), then runs the turn to its next
resting state: completed, paused, resuming (waiting to continue on its own), or stopped
(waiting for Continue).  :meth:`Runtime.settle` performs pending automatic continuations.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

from reference_impl import records
from reference_impl._run import RunExecutor, RunFailed, RunState, Services
from reference_impl.artifacts import Drop
from reference_impl.behaviour import Components
from reference_impl.errors import Refusal
from reference_impl.journal import Journal, LedgerEvent
from reference_impl.seams import Seams
from reference_impl.store import Store, new_id
from reference_impl.workflow import Model, NullObserver, Observer, ToolWorld, Workflow

__all__ = ["ENTRY_POINTS", "UNFINISHED", "RunFailed", "Runtime"]

ENTRY_POINTS = ("chat", "api", "trigger")
UNFINISHED = ("paused", "resuming", "stopped")


class Runtime:
    """A FlowDrop-style agent runtime over one database file.

    ``model`` and ``world`` (the tool bodies) are supplied by the host; ``observer``
    hears what happens; ``seams`` are for tests only; ``components`` selects a variant
    (a mutant) of the runtime.  Constructing a runtime on an existing file is a restart:
    runs that were running when the previous process died are marked crashed.
    """

    def __init__(
        self,
        db_path: str | Path,
        *,
        model: Model,
        world: ToolWorld,
        observer: Observer | None = None,
        seams: Seams | None = None,
        components: Components | None = None,
    ) -> None:
        self.components = components or Components()
        self.store = Store(db_path)
        self.observer: Observer = observer or NullObserver()
        self.seams = seams or Seams()
        self.collector = self.components.make_collector(self._dropped)
        self.services = Services(
            self.store, self.collector, self.seams, world, model, self.observer, self.components
        )
        self.executor = RunExecutor(self.services)
        self._next_run_ids: dict[str, str] = {}
        self._recover()

    def close(self) -> None:
        """Release the database."""
        self.store.close()

    # -- entry points ---------------------------------------------------------------------

    def create_conversation(self, workflow: Workflow) -> str:
        """A new conversation running ``workflow``."""
        with self.store.transaction() as conn:
            return records.create_conversation(conn, workflow.to_json())

    def start_turn(self, conversation_id: str, message: str, entry_point: str = "chat") -> str:
        """Send a user message: a new turn, run to its next resting state."""
        if entry_point not in ENTRY_POINTS:
            raise Refusal(
                "bad_entry_point", "unknown entry point", status=400, entry_point=entry_point
            )
        workflow = self._workflow(conversation_id)
        turns = records.list_turns(self.store.read(), conversation_id)
        if turns and turns[-1].status == "running":
            raise Refusal(
                "turn_running",
                "the conversation's last turn is still running",
                status=409,
                turn=turns[-1].id,
            )
        previous = turns[-1] if turns and turns[-1].status in UNFINISHED else None
        told_of = self.components.behaviour.unfinished_to_tell(turns, previous)
        prior = self._journal_or_none(told_of.id) if told_of is not None else None
        with self.store.transaction() as conn:
            # Checked again under the write lock: another client may have started a turn
            # since the read above (two requests racing must not both start one).
            latest = records.list_turns(conn, conversation_id)
            if [(t.id, t.status) for t in latest[-1:]] != [(t.id, t.status) for t in turns[-1:]]:
                raise Refusal(
                    "conversation_changed",
                    "the conversation changed while the turn was starting",
                    status=409,
                    turn=latest[-1].id,
                )
            if previous is not None:
                records.set_turn(
                    conn, previous.id, status="stopped", error="superseded", expect=("resuming",)
                )
            turn_id = records.create_turn(conn, conversation_id, entry_point)
            behaviour = self.components.behaviour
            told = None if prior is None else behaviour.prior_turn_text(prior)
            records.insert_message(
                conn,
                conversation_id=conversation_id,
                turn_id=turn_id,
                run_id=None,
                role="user",
                content=message,
                node_id=None,
            )
            for entry in behaviour.new_turn_messages(told, message):
                records.append_thread(conn, conversation_id, turn_id, entry)
            run_id = self._create_run(conn, turn_id, "start")
        state = RunState(
            run_id, turn_id, conversation_id, "start", entry_point, workflow, ("running", None)
        )
        self.executor.execute(state, prior=prior)
        return turn_id

    def answer(self, turn_id: str, value: str, conversation_id: str | None = None) -> None:
        """Answer a paused turn's question; the turn resumes in a new run."""
        with self.store.transaction() as conn:
            turn = self._turn(conn, turn_id, conversation_id)
            behaviour = self.components.behaviour
            if turn.status != "paused" and behaviour.ignores_stray_answers():
                return
            pending = self._pending(turn, "question")
            self._resumable(conn, turn)
            records.set_turn(conn, turn.id, status="running", expect=("paused",))
            records.insert_message(
                conn,
                conversation_id=turn.conversation_id,
                turn_id=turn.id,
                run_id=None,
                role="user",
                content=value,
                node_id=None,
            )
            for entry in behaviour.answer_entries(value, pending):
                records.append_thread(conn, turn.conversation_id, turn.id, entry)
            run_id = self._create_run(conn, turn.id, "answer")
        self._resume(turn, run_id, "answer", pending)

    def approve(self, turn_id: str, conversation_id: str | None = None) -> None:
        """Approve the gated call a turn is paused on; the batch is re-issued."""
        self._decide(turn_id, conversation_id, "approved", None)

    def decline(
        self, turn_id: str, reason: str = "declined", conversation_id: str | None = None
    ) -> None:
        """Decline the gated call; the model gets a recoverable denial and carries on."""
        self._decide(turn_id, conversation_id, "declined", reason)

    def continue_turn(self, turn_id: str, conversation_id: str | None = None) -> None:
        """Continue: resume a stopped turn, with the journal note and the hard-block."""
        with self.store.transaction() as conn:
            turn = self._turn(conn, turn_id, conversation_id)
            if not self.components.behaviour.may_continue(conn, turn):
                raise Refusal(
                    "continue_not_offered",
                    "Continue is offered only for the conversation's newest stop",
                    status=409,
                    turn=turn_id,
                    status_now=turn.status,
                )
            records.set_turn(conn, turn.id, status="running", expect=("stopped",))
            run_id = self._create_run(conn, turn.id, "continue")
        self._run_resumed(turn, run_id, "continue", ("stopped", None))

    def stop(self, turn_id: str, conversation_id: str | None = None) -> None:
        """Stop a turn that is resuming or paused; Continue is then offered."""
        with self.store.transaction() as conn:
            turn = self._turn(conn, turn_id, conversation_id)
            if not records.set_turn(
                conn, turn.id, status="stopped", error="stop", expect=("resuming", "paused")
            ):
                raise Refusal(
                    "not_stoppable",
                    "only a resuming or paused turn can be stopped",
                    status=409,
                    turn=turn_id,
                    status_now=turn.status,
                )

    def settle(self, rounds: int | None = None) -> int:
        """Perform pending automatic continuations (at most ``rounds`` of them); returns
        how many ran."""
        ran = 0
        while rounds is None or ran < rounds:
            waiting = [
                row[0]
                for row in self.store.read().execute(
                    "SELECT id FROM turns WHERE status = 'resuming' ORDER BY updated_at"
                )
            ]
            if not waiting:
                return ran
            progressed = False
            for turn_id in waiting:
                if rounds is not None and ran >= rounds:
                    break
                if self._auto_continue(turn_id):
                    ran += 1
                    progressed = True
            if not progressed:
                return ran
        return ran

    def emit_late(self, turn_id: str, target: str, artifact: object, tool_call_id: str) -> None:
        """Deliver an artifact into collection out of band (a late tool callback):
        ``ended`` for the turn's last run, ``unopened`` for its next one."""
        with self.store.transaction() as conn:
            turn = self._turn(conn, turn_id, None)
            runs = records.list_runs(conn, turn.id)
        if target == "ended":
            run_id = runs[-1].id if runs else new_id()
        else:
            run_id = self._next_run_ids.setdefault(turn.id, new_id())
        if isinstance(artifact, Mapping):
            entry = {
                "type": artifact.get("type"),
                "payload": artifact.get("payload"),
                "tool_call_id": tool_call_id,
            }
            self.collector.add(run_id, "(late)", entry)

    # -- reads ------------------------------------------------------------------------------

    def turn_view(self, turn_id: str, conversation_id: str | None = None) -> dict[str, object]:
        """The turn as the wire reports it."""
        conn = self.store.read()
        turn = self._turn(conn, turn_id, conversation_id)
        return self.components.wire.turn(
            turn,
            records.messages_of_turn(conn, turn.id),
            continue_offered=self._continue_offered(conn, turn),
        )

    def poll(
        self,
        conversation_id: str,
        *,
        limit: int = 50,
        after: str | None = None,
        before: str | None = None,
    ) -> dict[str, object]:
        """The conversation's message poll (PLAY-3)."""
        conn = self.store.read()
        self._workflow(conversation_id)
        turns = records.list_turns(conn, conversation_id)
        return self.components.wire.poll(
            records.messages_of_conversation(conn, conversation_id),
            limit=limit,
            after=after,
            before=before,
            session_status=turns[-1].status if turns else "idle",
        )

    def turns(self, conversation_id: str) -> list[str]:
        """The conversation's turn ids, oldest first."""
        self._workflow(conversation_id)
        return [turn.id for turn in records.list_turns(self.store.read(), conversation_id)]

    def held(self, turn_id: str) -> list[object]:
        """What is held against a turn right now (an observation for the suite)."""
        return records.peek_held(self.store.read(), turn_id)

    def open_collections(self) -> list[str]:
        """Runs whose collection is open (an observation for the suite)."""
        return self.collector.open_runs()

    def ledger(self, turn_id: str) -> list[LedgerEvent]:
        """The turn's run-event ledger."""
        return records.ledger_events(self.store.read(), turn_id)

    def classify(self, events: Sequence[LedgerEvent]) -> Journal:
        """The journal this runtime derives from ``events``."""
        return self.components.behaviour.journal(events)

    # -- internals ------------------------------------------------------------------------

    def _recover(self) -> None:
        """A restart: runs left running by a dead process are crashed, their turns stopped."""
        with self.store.transaction() as conn:
            for row in conn.execute(
                "SELECT id, turn_id FROM runs WHERE status = 'running'"
            ).fetchall():
                records.end_run(conn, row["id"], "crashed", {"cause": "crash"})
                records.set_turn(
                    conn, row["turn_id"], status="stopped", error="crash", expect=("running",)
                )

    def _dropped(self, drop: Drop) -> None:
        self.observer.warning(self.components.behaviour.drop_warning(drop))

    def _workflow(self, conversation_id: str) -> Workflow:
        stored = records.load_workflow(self.store.read(), conversation_id)
        if stored is None:
            raise Refusal(
                "unknown_conversation",
                "no such conversation",
                status=404,
                conversation=conversation_id,
            )
        return Workflow.from_json(stored)

    def _turn(self, conn: object, turn_id: str, conversation_id: str | None) -> records.TurnRow:
        turn = records.get_turn(conn, turn_id, conversation_id)  # type: ignore[arg-type]
        if turn is None:
            raise Refusal("unknown_turn", "no such turn", status=404, turn=turn_id)
        return turn

    def _pending(self, turn: records.TurnRow, kind: str) -> dict[str, object]:
        pending = turn.pending
        if turn.status != "paused" or not isinstance(pending, dict) or pending.get("kind") != kind:
            raise Refusal(
                "not_paused",
                f"the turn is not paused on a {kind}",
                status=409,
                turn=turn.id,
                status_now=turn.status,
            )
        return pending

    def _resumable(self, conn: sqlite3.Connection, turn: records.TurnRow) -> None:
        """Refuse to resume a paused turn the runtime does not resume (one a newer turn
        superseded, where its behaviour says so)."""
        if not self.components.behaviour.may_resume(conn, turn):
            raise Refusal(
                "superseded",
                "a newer turn of the conversation superseded this paused turn",
                status=409,
                turn=turn.id,
            )

    def _create_run(self, conn: object, turn_id: str, cause: str) -> str:
        run_id = records.create_run(conn, turn_id, cause)  # type: ignore[arg-type]
        reserved = self._next_run_ids.pop(turn_id, None)
        if reserved is not None:
            conn.execute("UPDATE runs SET id = ? WHERE id = ?", (reserved, run_id))  # type: ignore[attr-defined]
            return reserved
        return run_id

    def _continue_offered(self, conn: object, turn: records.TurnRow) -> bool:
        return self.components.behaviour.continue_offered(conn, turn)  # type: ignore[arg-type]

    def _journal_or_none(self, turn_id: str) -> Journal | None:
        try:
            return self.components.behaviour.journal(self.ledger(turn_id))
        except Exception:  # best effort: the new turn starts regardless
            return None

    def _decide(
        self, turn_id: str, conversation_id: str | None, decision: str, reason: str | None
    ) -> None:
        with self.store.transaction() as conn:
            turn = self._turn(conn, turn_id, conversation_id)
            pending = self._pending(turn, "gate")
            self._resumable(conn, turn)
            records.put_consent(conn, turn.id, str(pending["callKey"]), decision, reason)
            records.set_turn(conn, turn.id, status="running", expect=("paused",))
            cause = "approve" if decision == "approved" else "decline"
            run_id = self._create_run(conn, turn.id, cause)
        self._resume(turn, run_id, cause, pending)

    def _resume(
        self, turn: records.TurnRow, run_id: str, cause: str, pending: dict[str, object]
    ) -> None:
        batch = pending.get("batch") if pending.get("kind") == "gate" else None
        self.executor.execute(
            self._run_state(turn, run_id, cause, ("paused", pending)),
            refire=list(batch) if isinstance(batch, list) else None,
            chunk=pending.get("chunk"),
        )

    def _run_resumed(
        self, turn: records.TurnRow, run_id: str, cause: str, before: tuple[str, object]
    ) -> None:
        self.executor.execute(self._run_state(turn, run_id, cause, before), resumed=True)

    def _run_state(
        self, turn: records.TurnRow, run_id: str, cause: str, before: tuple[str, object]
    ) -> RunState:
        """A new run of an existing turn, which the step found as ``before``."""
        return RunState(
            run_id,
            turn.id,
            turn.conversation_id,
            cause,
            turn.entry_point,
            self._workflow(turn.conversation_id),
            before,
        )

    def _auto_continue(self, turn_id: str) -> bool:
        run_id = self.components.behaviour.claim_continuation(
            self.store, turn_id, lambda conn: self._create_run(conn, turn_id, "auto_continue")
        )
        turn = None if run_id is None else records.get_turn(self.store.read(), turn_id)
        if run_id is None or turn is None:
            return False
        self._run_resumed(turn, run_id, "auto_continue", ("resuming", None))
        return True
