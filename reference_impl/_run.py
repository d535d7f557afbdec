"""One run of a turn: the agent loop, and how the run ends.

A run ends in one of four ways, and the artifacts it collected follow:

* completed: the write-back takes what is held against the turn, prepends it to what
  this run collected and persists the merged list on the run's last assistant message,
  all in one transaction (RT-TOOL-4, RT-TOOL-7);
* paused (a question or a gate): everything is held against the turn (RT-TOOL-7);
* cut off (a time limit, a dropped connection, a stop...): held the same way, and the
  turn waits to continue on its own or for Continue (DR-5);
* a failed write-back: the transaction rolls back, so what was taken is back in the held
  list; this run's own artifacts are held after it (RT-TOOL-7 ¶4), and the turn goes
  back to where the step found it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

from reference_impl import records
from reference_impl.artifacts import Collector
from reference_impl.behaviour import Components
from reference_impl.durable import NUDGE, short_result
from reference_impl.journal import Journal, Snapshot, signature
from reference_impl.passes import REFUSED_MESSAGE, PassContext, prose
from reference_impl.seams import Interruption, Seams, WriteBackFailed
from reference_impl.store import Store
from reference_impl.workflow import Model, Observer, ToolWorld, Workflow

__all__ = [
    "MAX_MODEL_CALLS",
    "SYSTEM_PROMPT",
    "RunExecutor",
    "RunFailed",
    "RunState",
    "Services",
    "note_json",
]

SYSTEM_PROMPT = "You are a helpful agent. Use the tools you are given."
MAX_MODEL_CALLS = 64

#: what a refused retry answers its call with in the history (exactly: a tool whose own
#: output quotes the refusal is not a refusal)
_REFUSAL_TEXT = prose({"success": False, "data": None, "error": REFUSED_MESSAGE})


class RunFailed(Exception):
    """A run ended in a failure its caller must hear about (a failed write-back)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def note_json(journal: Journal) -> dict[str, object]:
    """The structured journal note, as the note text shows it (short results)."""
    return {
        "completed": [
            {"tool": e.tool, "input": e.input, "result": short_result(e.result)}
            for e in journal.completed
        ],
        "interrupted": [{"tool": e.tool, "input": e.input} for e in journal.interrupted],
    }


@dataclass
class Services:
    """What a runtime is made of."""

    store: Store
    collector: Collector
    seams: Seams
    world: ToolWorld
    model: Model
    observer: Observer
    components: Components


@dataclass
class RunState:
    """What one run carries while it runs."""

    run_id: str
    turn_id: str
    conversation_id: str
    cause: str
    entry_point: str
    workflow: Workflow
    #: the turn's status and pending pause before this run claimed it
    before: tuple[str, object]
    collected: list[dict[str, object]] = field(default_factory=list)
    snapshot: Snapshot | None = None
    #: how many ledger events the snapshot was read from (the chunk's prior chunks)
    snapshot_events: int = 0
    history_interrupted: set[str] = field(default_factory=set)
    tools_by_call: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Paused:
    pending: dict[str, object]


@dataclass(frozen=True)
class _Completed:
    text: str


class RunExecutor:
    """Runs one run to its end and settles where its artifacts go."""

    def __init__(self, services: Services) -> None:
        self.s = services

    def execute(
        self,
        state: RunState,
        *,
        refire: list[object] | None = None,
        resumed: bool = False,
        prior: Journal | None = None,
        chunk: object = None,
    ) -> None:
        """Run ``state``'s run until it completes, pauses, is cut off or fails.

        ``chunk`` is what a paused resumed chunk left for the run that carries it on."""
        s = self.s
        s.observer.run_started(state.run_id, state.turn_id, state.cause)
        if s.components.behaviour.opens_collection(state.entry_point):
            s.collector.open(state.run_id, state.workflow.bounds)
        try:
            try:
                if prior is not None:
                    s.observer.prior_turn_note(state.run_id, note_json(prior))
                if resumed:
                    self._prepare_resume(state)
                elif isinstance(chunk, Mapping):
                    self._carry_on(state, chunk, refiring=refire is not None)
                end = self._loop(state, refire)
                self._drain(state)
                if isinstance(end, _Paused):
                    self._pause(state, end.pending)
                else:
                    self._write_back(state, end.text)
            except Interruption as cut:
                self._drain(state)
                self._cut(state, cut)
            except RunFailed:
                raise
            except Exception as err:
                # Whatever went wrong (a tool body that raised, a value the store cannot
                # hold), the turn must not be left running: it stops, with Continue.
                self._fail(state, err)
                raise RunFailed("run_failed", f"{type(err).__name__}: {err}"[:300]) from err
        finally:
            s.components.behaviour.release(s.collector, state.run_id)

    def _fail(self, state: RunState, err: Exception) -> None:
        """End the run as failed and stop its turn; what it collected is held."""
        self._drain(state)
        with self.s.store.transaction() as conn:
            self._hold(conn, state)
            records.end_run(conn, state.run_id, "failed", {"error": type(err).__name__})
            records.set_turn(conn, state.turn_id, status="stopped", error="failed")
        self.s.observer.run_ended(state.run_id, "failed", {"error": type(err).__name__})

    # -- the agent loop ---------------------------------------------------------------

    def _loop(self, state: RunState, refire: list[object] | None) -> _Paused | _Completed:
        s = self.s
        if refire is not None:
            paused = self._tool_pass(state, refire)
            if paused is not None:
                return paused
        for _ in range(MAX_MODEL_CALLS):
            s.seams.checkpoint("during_model_call")
            messages = self._model_input(s.store.read(), state)
            s.observer.model_input(state.run_id, messages)
            reply = s.model.reply(messages)
            if reply.question is not None:
                entries, pending = s.components.behaviour.ask(reply.question)
                with s.store.transaction() as conn:
                    if reply.text is not None:
                        self._assistant_message(conn, state, reply.text)
                    for entry in entries:
                        records.append_thread(conn, state.conversation_id, state.turn_id, entry)
                return _Paused(pending)
            if reply.tool_calls is None or not s.components.node.handles(list(reply.tool_calls)):
                return _Completed(reply.text or "")
            batch = list(reply.tool_calls)
            self._record_reply(
                state,
                reply.text,
                {"role": "assistant", "content": reply.text or "", "tool_calls": batch},
            )
            paused = self._tool_pass(state, batch)
            if paused is not None:
                return paused
        return _Completed("Stopped: the run reached its limit of model calls.")

    def _record_reply(self, state: RunState, text: str | None, entry: dict[str, object]) -> None:
        """A model reply that does not end the run: its text (if any) as an assistant
        message, and ``entry`` on the conversation's thread, in one transaction."""
        with self.s.store.transaction() as conn:
            if text is not None:
                self._assistant_message(conn, state, text)
            records.append_thread(conn, state.conversation_id, state.turn_id, entry)

    @staticmethod
    def _assistant_message(conn: sqlite3.Connection, state: RunState, text: str) -> str:
        """Store an assistant message of the run, written by the agent node; its id."""
        return records.insert_message(
            conn,
            conversation_id=state.conversation_id,
            turn_id=state.turn_id,
            run_id=state.run_id,
            role="assistant",
            content=text,
            node_id="agent",
        )

    def _tool_pass(self, state: RunState, batch: list[object]) -> _Paused | None:
        s = self.s
        context = PassContext(
            s.store,
            s.collector,
            s.seams,
            s.world,
            state.workflow,
            state.conversation_id,
            state.turn_id,
            state.run_id,
            state.snapshot,
            state.history_interrupted,
        )
        try:
            result = s.components.node.run_pass(context, batch)
        except BaseException as cut:
            partial = getattr(cut, "partial_pass", None)
            if isinstance(partial, dict):
                s.observer.pass_done(state.run_id, partial)
            raise
        for entry in result.record["results"]:  # type: ignore[attr-defined]
            if entry["tool_call_id"] is not None:
                state.tools_by_call[entry["tool_call_id"]] = entry["tool"]
        state.collected.extend(result.artifacts)
        s.observer.pass_done(state.run_id, result.record)
        if result.paused_on is not None:
            return _Paused({**result.paused_on, "batch": batch})
        with s.store.transaction() as conn:
            for message in result.tool_messages:
                records.append_thread(conn, state.conversation_id, state.turn_id, message)
        return None

    def _drain(self, state: RunState) -> None:
        state.collected.extend(self.s.collector.drain(state.run_id))

    # -- resuming ---------------------------------------------------------------------

    def _prepare_resume(self, state: RunState) -> None:
        """Snapshot the journal once, before the loop, and append the note (DR-2, DR-3).
        A failed ledger read never blocks the recovery: it only loses the note."""
        s = self.s
        journal: Journal | None
        try:
            s.seams.ledger_read()
            events = s.components.behaviour.journal_events(s.store.read(), state.turn_id)
            journal = s.components.behaviour.journal(events)
            state.snapshot_events = len(events)
        except Exception:  # best effort by design: the recovery must go on
            journal = None
        state.snapshot = s.components.behaviour.snapshot(journal or Journal())
        state.snapshot.ledger_read = journal is not None
        prompt = s.components.behaviour.resume_messages(journal)
        with s.store.transaction() as conn:
            for message in prompt:
                records.append_thread(conn, state.conversation_id, state.turn_id, message)
        note = None if journal is None or journal.empty else note_json(journal)
        s.observer.resumed(state.run_id, NUDGE, note)

    def _carry_on(
        self, state: RunState, chunk: Mapping[str, object], *, refiring: bool = False
    ) -> None:
        """Carry on a resumed chunk that paused (a question, a gate): a pause does not end
        the chunk, so the answer's run keeps its snapshot, rebuilt from the same prior
        ledger events minus what the chunk already claimed, and the history that DR-4
        consults is read before a re-fired batch runs.  Without this, a completed write
        re-dispatched after the answer (or re-issued behind an approved gate) ran again."""
        s = self.s
        events, claimed = chunk.get("events"), chunk.get("claimed")
        read = True
        try:
            s.seams.ledger_read()
            prior = s.components.behaviour.journal_events(s.store.read(), state.turn_id)
            journal = s.components.behaviour.journal(
                prior[: events if isinstance(events, int) else 0]
            )
        except Exception:  # best effort, as when the chunk began
            journal, read = Journal(), False
        state.snapshot_events = events if isinstance(events, int) else 0
        state.snapshot = s.components.behaviour.snapshot(journal)
        # A chunk that began without its ledger stays without it: the events it would
        # have snapshotted are not known.
        state.snapshot.ledger_read = read and chunk.get("ledger_read") is not False
        if isinstance(claimed, list):
            state.snapshot.consume(c for c in claimed if isinstance(c, int))
        # fills state.history_interrupted; the batch about to be re-fired is pending, not
        # interrupted, though its calls have no result in the thread yet
        self._model_input(s.store.read(), state, pending_batch=refiring)

    def _model_input(
        self, conn: sqlite3.Connection, state: RunState, *, pending_batch: bool = False
    ) -> list[dict[str, object]]:
        """The system prompt, then the conversation's thread.  A declared call with no
        result is answered, directly after the turn that declared it, by its recorded
        message if it completed, else by the interrupted placeholder.  With
        ``pending_batch``, the turn's last declared batch is one a gate paused and that is
        about to run again: its calls are not taken for interrupted ones."""
        entries = records.thread_entries(conn, state.conversation_id)
        declaring = [
            index
            for index, (turn_id, entry) in enumerate(entries)
            if turn_id == state.turn_id and entry.get("tool_calls")
        ]
        pending = declaring[-1] if pending_batch and declaring else None
        # Ids are per turn: another turn's answer to the same id answers nothing here.
        answered = {(turn, e.get("tool_call_id")) for turn, e in entries if e.get("role") == "tool"}
        # A refused retry answers its call with the refusal, which names the interruption:
        # the history still shows it, so the guard keeps holding for a later identical
        # retry under a new id (DR-4 ¶2).
        refused = {
            (turn, e.get("tool_call_id"))
            for turn, e in entries
            if e.get("role") == "tool" and e.get("content") == _REFUSAL_TEXT
        }
        behaviour = self.s.components.behaviour
        messages: list[dict[str, object]] = [{"role": "system", "content": SYSTEM_PROMPT}]
        for index, (turn_id, entry) in enumerate(entries):
            shown = {k: v for k, v in entry.items() if k != "kind"}
            messages.append(shown)
            calls = entry.get("tool_calls")
            for call in calls if isinstance(calls, list) else ():
                call_id = call.get("tool_call_id") if isinstance(call, Mapping) else None
                if not isinstance(call_id, str) or not call_id:
                    continue
                if (turn_id, call_id) in answered:
                    if (turn_id, call_id) in refused and turn_id == state.turn_id:
                        self._shown_interrupted(state, call)
                    continue
                stored = records.executed_call(conn, turn_id, call_id)
                if stored is None and not behaviour.keeps_unanswered_calls():
                    # Left out of the history altogether: the declared call goes with it.
                    kept = shown.get("tool_calls")
                    rest = [c for c in kept if c is not call] if isinstance(kept, list) else []
                    if rest:
                        shown["tool_calls"] = rest
                    else:
                        shown.pop("tool_calls", None)
                    continue
                answer: dict[str, object] | None = (
                    {"role": "tool", "tool_call_id": call_id, "content": stored[1]}
                    if stored
                    else behaviour.interrupted_answer(call_id)
                )
                if answer is not None:
                    messages.append(answer)
                refused_record = stored is not None and stored[2].get("error") == REFUSED_MESSAGE
                unanswered = stored is None or refused_record
                if unanswered and turn_id == state.turn_id and index != pending:
                    self._shown_interrupted(state, call)
        return messages

    def _shown_interrupted(self, state: RunState, call: Mapping[str, object]) -> None:
        name = call.get("name")
        tool = state.workflow.tool(name) if isinstance(name, str) else None
        if tool is not None:
            args = self.s.components.node.normalizer.normalize(
                call.get("args", {}), tool.input_schema
            )
            state.history_interrupted.add(signature(tool.name, args))

    # -- ending a run -----------------------------------------------------------------

    def _hold(self, conn: sqlite3.Connection, state: RunState) -> None:
        """Hold this run's artifacts after what is already held, within the bound; the
        newest are dropped, each with a warning (RT-TOOL-7 ¶5)."""
        if state.collected:
            room = max(
                0, state.workflow.bounds.held_artifacts - records.count_held(conn, state.turn_id)
            )
            kept, dropped = self.s.components.behaviour.held_split(state.collected, room)
            records.add_held(conn, state.turn_id, list(kept))
            self.s.components.behaviour.on_hold(conn, state.turn_id, kept)
            for entry in dropped:
                self._warn(state, entry)
        state.collected = []

    def _warn(self, state: RunState, entry: Mapping[str, object]) -> None:
        call = entry.get("tool_call_id")
        warning = self.s.components.behaviour.held_drop_warning(
            entry,
            tool=state.tools_by_call.get(call) if isinstance(call, str) else None,
            run=state.run_id,
            bound=state.workflow.bounds.held_artifacts,
        )
        self.s.observer.warning(warning)

    def _pause(self, state: RunState, pending: dict[str, object]) -> None:
        if state.snapshot is not None:  # a resumed chunk: the run that answers carries it on
            pending = {
                **pending,
                "chunk": {
                    "events": state.snapshot_events,
                    "claimed": list(state.snapshot.claimed),
                    "ledger_read": state.snapshot.ledger_read,
                },
            }
        with self.s.store.transaction() as conn:
            self._hold(conn, state)
            records.end_run(conn, state.run_id, "paused")
            records.set_turn(conn, state.turn_id, status="paused", pending=pending)
        self.s.observer.run_ended(state.run_id, "paused", None)

    def _cut(self, state: RunState, cut: Interruption) -> None:
        interruption: dict[str, object] = {"cause": cut.cause, "point": cut.point}
        behaviour = self.s.components.behaviour
        # No ``clear`` is recorded here, even when the cut abandons a model call's partial
        # output: this runtime records ``tool_start`` only as a body is about to run, so an
        # abandoned partial never holds a start, and a ``clear`` (which resets every open
        # start of the turn) would only erase the genuinely interrupted calls of earlier
        # chunks, and with them DR-2's note and DR-4's refusal.
        with self.s.store.transaction() as conn:
            if behaviour.persist_cut(conn, state.turn_id, state.run_id, list(state.collected)):
                state.collected = []
            elif behaviour.hold_on_cut():
                self._hold(conn, state)
            records.end_run(conn, state.run_id, "interrupted", interruption)
            behaviour.on_cut(conn, state.turn_id, state.run_id, cut.point)
            automatic = behaviour.automatic_continuations(conn, state.turn_id)
            if cut.cause in behaviour.resumes_on_its_own() and behaviour.may_auto_continue(
                automatic
            ):
                records.set_turn(conn, state.turn_id, status="resuming")
            else:
                records.set_turn(conn, state.turn_id, status="stopped", error=cut.cause)
        self.s.observer.run_ended(state.run_id, "interrupted", interruption)

    def _write_back(self, state: RunState, text: str) -> None:
        s = self.s
        behaviour = s.components.behaviour
        try:
            with s.store.transaction() as conn:
                held = behaviour.take_held(conn, state.turn_id)
                s.seams.checkpoint("during_write_back")
                s.seams.write_back()
                merged = behaviour.merge(held, state.collected)
                message_id = self._assistant_message(conn, state, text)
                behaviour.persist(conn, state.turn_id, message_id, merged)
                records.append_thread(
                    conn,
                    state.conversation_id,
                    state.turn_id,
                    {"role": "assistant", "content": text},
                )
                records.end_run(conn, state.run_id, "completed")
                records.set_turn(conn, state.turn_id, status="completed")
        except WriteBackFailed as err:
            behaviour.after_failed_write_back(s.store, state.turn_id)
            self._restore(state)
            raise RunFailed("write_back_failed", str(err)) from err
        state.collected = []
        s.observer.run_ended(state.run_id, "completed", None)

    def _restore(self, state: RunState) -> None:
        """Hold this run's own artifacts after the restored list, and put the turn back
        as the step found it, so that the same step can be tried again."""
        status, pending = state.before
        with self.s.store.transaction() as conn:
            self._hold(conn, state)
            records.end_run(conn, state.run_id, "failed", {"error": "write_back_failed"})
            if status == "paused" and self.s.components.behaviour.retries_failed_write_back():
                records.set_turn(conn, state.turn_id, status="paused", pending=pending)
            else:
                records.set_turn(conn, state.turn_id, status="stopped", error="write_back_failed")
        self.s.observer.run_ended(state.run_id, "failed", {"error": "write_back_failed"})
