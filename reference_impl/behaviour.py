"""The runtime's policy points, gathered so that a mutant can replace exactly one.

Production uses :class:`Behaviour` as is.  Each mutant in :mod:`reference_impl.mutants`
subclasses it (or the tool node, the artifact policy, the normalizer, the collector or
the wire) and overrides one method to break one clause.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from reference_impl import records
from reference_impl.artifacts import Collector, Drop
from reference_impl.durable import (
    INTERRUPTED_PLACEHOLDER,
    prior_turn_text,
    render_note,
    resume_prompt,
)
from reference_impl.journal import Journal, LedgerEvent, Snapshot, classify
from reference_impl.passes import ToolNode
from reference_impl.seams import RESUMABLE
from reference_impl.store import Store
from reference_impl.wire import Wire

__all__ = ["Behaviour", "Components"]


class Behaviour:
    """Where artifacts go when a run ends, and when a turn continues on its own.

    Each method takes one decision of a rule, so that a mutant or a legal variant
    overrides the one it changes."""

    auto_continue_limit = 3

    def take_held(self, conn: sqlite3.Connection, turn_id: str) -> list[object]:
        """Take (destructively) what is held against the turn (RT-TOOL-7 ¶2-3)."""
        return records.take_held(conn, turn_id)

    def merge(self, held: Sequence[object], collected: Sequence[object]) -> list[object]:
        """Held artifacts first, then what the resumed run collected (RT-TOOL-7 ¶2)."""
        return [*held, *collected]

    def persist(
        self, conn: sqlite3.Connection, turn_id: str, message_id: str, merged: list[object]
    ) -> None:
        """Persist a run's artifacts on the last assistant message it wrote (RT-TOOL-4 ¶1)."""
        if merged:
            records.set_artifacts(conn, turn_id, message_id, merged)

    def held_split(
        self, collected: Sequence[Mapping[str, object]], room: int
    ) -> tuple[list[Mapping[str, object]], list[Mapping[str, object]]]:
        """Which artifacts fit the held list: the oldest are kept, the newest dropped."""
        return list(collected[:room]), list(collected[room:])

    def held_drop_warning(
        self, entry: Mapping[str, object], *, tool: str | None, run: str, bound: int
    ) -> dict[str, object]:
        """The warning for one artifact the full held list dropped (RT-TOOL-7 ¶5)."""
        call = entry.get("tool_call_id")
        kind = entry.get("type")
        return {
            "code": "held_artifact_dropped",
            "run": run,
            "tool": tool,
            "type": kind if isinstance(kind, str) else None,
            "tool_call_id": call if isinstance(call, str) else None,
            "message": f"held list full ({bound}): dropped the newest artifact type={kind} "
            f"tool={tool} call={call} run={run}",
        }

    def hold_on_cut(self) -> bool:
        """Whether a run cut off before it finished holds what it collected."""
        return True

    def persist_cut(
        self, conn: sqlite3.Connection, turn_id: str, run_id: str, collected: list[object]
    ) -> bool:
        """Whether a run cut off before it finished (not paused) persisted what it
        collected itself; ``False`` (this runtime) holds it as a pause does, for the run
        that completes the turn to deliver."""
        return False

    def resumes_on_its_own(self) -> frozenset[str]:
        """The interruption causes after which a turn continues by itself (DR-2 ¶1 names
        a soft timeout, a gateway timeout and a resumable transport error); the harness's
        handshake declares them."""
        return RESUMABLE

    def may_auto_continue(self, automatic_so_far: int) -> bool:
        """Whether a turn cut off by a resumable cause continues on its own (DR-5)."""
        return automatic_so_far < self.auto_continue_limit

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        """The tool-call journal over a turn's ledger (DR-1)."""
        return classify(events)

    def snapshot(self, journal: Journal) -> Snapshot:
        """The journal as a resumed chunk sees it, taken once before its loop (DR-3)."""
        return Snapshot(journal)

    def resume_prompt(self, journal: Journal | None) -> str:
        """The resume prompt: the nudge, then the note when the journal has anything (DR-2)."""
        return resume_prompt(journal, self.note)

    def note(self, journal: Journal) -> str:
        """The note on a non-empty journal: each completed call with its short result,
        then each interrupted call (DR-2 ¶2-3)."""
        return render_note(journal)

    def resume_messages(self, journal: Journal | None) -> list[dict[str, object]]:
        """The messages a resumed chunk appends to the thread: one user message holding
        the resume prompt (the note inside it, right after the nudge)."""
        return [{"role": "user", "content": self.resume_prompt(journal), "kind": "resume"}]

    def journal_events(self, conn: sqlite3.Connection, turn_id: str) -> list[LedgerEvent]:
        """The ledger a resumed chunk's journal is read from: its own turn's (DR-3 ¶1)."""
        return records.ledger_events(conn, turn_id)

    def interrupted_answer(self, call_id: str) -> dict[str, object] | None:
        """How the history shows a declared call that never returned: answered by the
        interrupted placeholder (DR-4 ¶2)."""
        return {"role": "tool", "tool_call_id": call_id, "content": INTERRUPTED_PLACEHOLDER}

    def on_cut(self, conn: sqlite3.Connection, turn_id: str, run_id: str, point: str) -> None:
        """Called as a cut run ends.  Nothing is recorded: this runtime journals a
        ``tool_start`` only as a body is about to run, so a cut never abandons one, and
        never needs a ``clear`` (DR-1 ¶5)."""

    def automatic_continuations(self, conn: sqlite3.Connection, turn_id: str) -> int:
        """How many times the turn has continued on its own, counted from its stored runs."""
        return sum(1 for run in records.list_runs(conn, turn_id) if run.cause == "auto_continue")

    def claim_continuation(
        self, store: Store, turn_id: str, start_run: Callable[[sqlite3.Connection], str]
    ) -> str | None:
        """Claim a resuming turn for its next automatic continuation and start its run
        (``start_run``), or stop the turn when it has none left (DR-5 ¶3-4).  The check,
        the count and the claim share one transaction, so two waiters cannot both win.
        Returns the new run's id, or ``None`` when nothing was claimed."""
        with store.transaction() as conn:
            if not self.resuming(conn, turn_id):
                return None
            return self.continue_or_stop(conn, turn_id, start_run)

    def resuming(self, conn: sqlite3.Connection, turn_id: str) -> bool:
        """Whether the turn still waits for its next automatic continuation: a waiter that
        finds it claimed by another (or gone) does nothing (DR-5 ¶4)."""
        turn = records.get_turn(conn, turn_id)
        return turn is not None and turn.status == "resuming"

    def continue_or_stop(
        self, conn: sqlite3.Connection, turn_id: str, start_run: Callable[[sqlite3.Connection], str]
    ) -> str | None:
        """Start the turn's next automatic continuation (``start_run``), or stop the turn
        with Continue available when its count is used up (DR-5 ¶3, ¶5)."""
        if not self.may_auto_continue(self.automatic_continuations(conn, turn_id)):
            records.set_turn(conn, turn_id, status="stopped", error="time_limit")
            return None
        records.set_turn(conn, turn_id, status="running", expect=("resuming",))
        return start_run(conn)

    def continue_offered(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        """Whether Continue is offered for ``turn``: only for the conversation's newest
        stop (DR-6 ¶3), as often as it is chosen (DR-6 ¶2)."""
        if turn.status != "stopped":
            return False
        stops = [t for t in records.list_turns(conn, turn.conversation_id) if t.status == "stopped"]
        return bool(stops) and stops[-1].id == turn.id

    def collects_artifacts(self) -> bool:
        """Whether this runtime collects tool artifacts at all (RT-TOOL-5 ¶1); the
        harness's handshake declares it."""
        return True

    def opens_collection(self, entry_point: str) -> bool:
        """Whether a run launched from ``entry_point`` collects artifacts (RT-TOOL-5 ¶5)."""
        return True

    def release(self, collector: Collector, run_id: str) -> None:
        """End a run's collection on every way out (RT-TOOL-5 ¶4)."""
        collector.release(run_id)

    def drop_warning(self, drop: Drop) -> dict[str, object]:
        """The warning for an artifact collection dropped or refused (RT-TOOL-6 ¶3)."""
        return {
            "code": "artifact_dropped",
            "tool": drop.tool,
            "run": drop.run,
            "type": drop.type,
            "tool_call_id": drop.tool_call_id,
            "message": f"artifact dropped ({drop.reason}): tool={drop.tool} run={drop.run} "
            f"type={drop.type} call={drop.tool_call_id}",
        }

    def unfinished_to_tell(
        self, turns: Sequence[records.TurnRow], latest: records.TurnRow | None
    ) -> records.TurnRow | None:
        """The unfinished turn whose work a new message's agent is first told (DR-6 ¶4):
        ``latest``, the conversation's latest turn when it is unfinished, the one the
        message is sent instead of continuing (``turns`` are all of them, oldest first)."""
        return latest

    def prior_turn_text(self, journal: Journal) -> str:
        """What a new turn's agent is told about the unfinished turn before it (DR-6)."""
        return prior_turn_text(journal)

    def new_turn_messages(self, prior: str | None, message: str) -> list[dict[str, object]]:
        """The thread entries a new message adds: the prior-turn text as a system message
        before the user's message, when there is an unfinished turn to tell of (DR-6 ¶4)."""
        told: list[dict[str, object]] = (
            [] if prior is None else [{"role": "system", "kind": "prior_turn", "content": prior}]
        )
        return [*told, {"role": "user", "content": message}]

    def may_continue(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        """Whether a Continue chosen on ``turn`` is carried out: only where it is offered."""
        return self.continue_offered(conn, turn)

    def on_hold(
        self, conn: sqlite3.Connection, turn_id: str, kept: Sequence[Mapping[str, object]]
    ) -> None:
        """Called once artifacts were added to the turn's held list (nothing to do)."""

    def after_failed_write_back(self, store: Store, turn_id: str) -> None:
        """Nothing to do: the failed transaction already put the taken list back."""

    def retries_failed_write_back(self) -> bool:
        """Whether a turn whose write-back failed goes back to its pause, so that the same
        answer can be given again (else it stops, and Continue delivers)."""
        return True

    def ignores_stray_answers(self) -> bool:
        """Whether an answer to a turn that is not paused is accepted and ignored (else it
        is refused)."""
        return False

    def ask(self, question: str) -> tuple[list[dict[str, object]], dict[str, object]]:
        """How the model's question enters the thread, and the pause the turn waits in: an
        assistant message asking it, and a pending question."""
        entry: dict[str, object] = {"role": "assistant", "content": question, "kind": "question"}
        return [entry], {"kind": "question", "message": question}

    def answer_entries(self, value: str, pending: Mapping[str, object]) -> list[dict[str, object]]:
        """The thread entries the operator's answer to ``pending`` adds: a user message."""
        return [{"role": "user", "content": value}]

    def may_resume(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        """Whether an answer, an approval or a decline on a paused turn is carried out, also
        when a newer turn of the conversation superseded it (no rule speaks of that)."""
        return True

    def keeps_unanswered_calls(self) -> bool:
        """Whether a declared call that never returned stays in the history the model reads
        (answered by :meth:`interrupted_answer`), rather than being left out of it."""
        return True


@dataclass
class Components:
    """Everything a variant of the runtime may replace."""

    behaviour: Behaviour = field(default_factory=Behaviour)
    node: ToolNode = field(default_factory=ToolNode)
    wire: Wire = field(default_factory=Wire)
    collector_class: type[Collector] = Collector

    def make_collector(self, on_drop: Callable[[Drop], None]) -> Collector:
        """A fresh collector reporting drops to ``on_drop``."""
        return self.collector_class(on_drop)
