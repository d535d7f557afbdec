"""Variants of durable resume (DR-1 … DR-6): other readings of the journal, the note, the
hard-block, the guard, Continue and the new turn that the rule text allows."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Mapping, Sequence

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.durable import NUDGE
from reference_impl.journal import Entry, Journal, LedgerEvent
from reference_impl.passes import ToolNode
from reference_impl.variants._model import Variant

__all__ = ["VARIANTS", "NewestStopInTime"]

#: How many characters of a result's escaped JSON the note shows.
JSON_RESULT_CHARACTERS = 160


class _ClearWhenModelCallCut(Behaviour):
    """Records a ``clear`` whenever a model call is cut in flight: the partial output of
    that call is abandoned, whatever it held (a runtime that journals a call's start as
    the model streams it has to; this one records the ``clear`` either way)."""

    def on_cut(self, conn: sqlite3.Connection, turn_id: str, run_id: str, point: str) -> None:
        if point == "during_model_call":
            records.append_ledger(conn, turn_id, run_id, "clear")


class _NewestFirst(Behaviour):
    """Lists the journal's completed and interrupted calls newest first."""

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        read = super().journal(events)
        return Journal(read.completed[::-1], read.interrupted[::-1])


class _PairsOldestAcrossRuns(Behaviour):
    """Pairs a ``tool_done`` with the oldest still-open start of its tool name in the
    whole turn, whichever run left it open: ¶4 read word for word, with the per-turn
    tally of ¶5, where the runtime prefers the done's own run."""

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return super().journal([dataclasses.replace(event, run=None) for event in events])


class _NamelessStartInterrupted(Behaviour):
    """Lists a ``tool_start`` that names no tool, and that no ``clear`` reset, as an
    interrupted call of tool ``""``: a start with no matching done, read literally."""

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        read = super().journal(events)
        kinds = [event.event for event in events]
        after = len(kinds) - kinds[::-1].index("clear") if "clear" in kinds else 0
        nameless = tuple(
            Entry("", event.input, None, position)
            for position, event in enumerate(events)
            if position >= after and event.event == "tool_start" and event.tool is None
        )
        return Journal(read.completed, read.interrupted + nameless)


class _NoteInItsOwnMessage(Behaviour):
    """Puts the note in a message of its own, right after the message holding the nudge."""

    def resume_messages(self, journal: Journal | None) -> list[dict[str, object]]:
        nudge: dict[str, object] = {"role": "user", "content": NUDGE, "kind": "resume"}
        whole = self.resume_prompt(journal)
        if whole == NUDGE:
            return [nudge]
        note = whole.removeprefix(NUDGE).lstrip("\n")
        return [nudge, {"role": "system", "content": note, "kind": "resume"}]


def _escaped(value: object) -> str:
    return json.dumps(value, sort_keys=True)  # ASCII only: every other character escaped


class _ShortResultAsEscapedJson(Behaviour):
    """Shows each call as escaped JSON, and a completed call's short result as the
    escaped JSON of its data (of its error, when it failed), cut to 160 characters."""

    def note(self, journal: Journal) -> str:
        lines = ["Earlier attempts of this turn:"]
        lines += [f"* done: {self._call(e)} => {self._short(e.result)}" for e in journal.completed]
        lines += [f"* outcome unknown, check first: {self._call(e)}" for e in journal.interrupted]
        return "\n".join(lines)

    @staticmethod
    def _call(entry: Entry) -> str:
        return f"{entry.tool}({_escaped(entry.input)})"

    @staticmethod
    def _short(result: object) -> str:
        if isinstance(result, Mapping) and "success" in result:
            result = result.get("data") if result.get("success") else result.get("error")
        text = _escaped(result)
        cut = text[:JSON_RESULT_CHARACTERS]
        return cut if cut == text else cut + "..."


class _ReusedResultAsJson(ToolNode):
    """Answers a call from the journal with a note first, then the journaled result as
    escaped JSON (not the prose the first execution was answered with)."""

    def reused_message(self, result: Mapping[str, object]) -> str:
        return (
            "Not run again: this call already completed in an earlier interrupted attempt "
            f"of this turn. Its recorded result: {_escaped(dict(result))}"
        )


class _InterruptedCallLeftUnanswered(Behaviour):
    """Shows an interrupted call in the history as the declared call with no result at
    all, instead of answering it with a placeholder."""

    def interrupted_answer(self, call_id: str) -> dict[str, object] | None:
        return None


class _ContinueOnAnyStop(Behaviour):
    """Offers Continue only for the newest stop, but carries out a Continue chosen on an
    older stop anyway."""

    def may_continue(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        return turn.status == "stopped"


class NewestStopInTime(Behaviour):
    """Offers Continue for the conversation's stop that happened last, whichever turn it
    stopped: an older turn stopped after a newer one (answered later, then cut) holds the
    conversation's newest stop.  The reference runtime takes the latest stopped turn in
    conversation order instead."""

    def continue_offered(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        if turn.status != "stopped":
            return False
        newest = conn.execute(
            "SELECT id FROM turns WHERE conversation_id = ? AND status = 'stopped'"
            " ORDER BY updated_at DESC, seq DESC LIMIT 1",
            (turn.conversation_id,),
        ).fetchone()
        return newest is not None and newest["id"] == turn.id


class _PriorTurnPrefixed(Behaviour):
    """Tells a new turn's agent what the unfinished turn did as the opening paragraph of
    the new user message, not in a message of its own."""

    def new_turn_messages(self, prior: str | None, message: str) -> list[dict[str, object]]:
        if prior is None:
            return super().new_turn_messages(prior, message)
        return [{"role": "user", "content": f"{prior}\n\n{message}"}]


def _behaviour(cls: type[Behaviour]) -> Components:
    return Components(behaviour=cls())


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "clear-when-model-call-cut",
        "when-clear-is-recorded",
        ("DR-1#c1", "DR-1#c2", "DR-1#c5"),
        "a `clear` is recorded in the ledger whenever a model call is cut in flight",
        lambda: _behaviour(_ClearWhenModelCallCut),
    ),
    Variant(
        "journal-lists-newest-first",
        "journal-order",
        ("DR-1#c3", "DR-1#c4"),
        "the journal lists its completed and interrupted calls newest first",
        lambda: _behaviour(_NewestFirst),
    ),
    Variant(
        "done-pairs-oldest-across-runs",
        "pairing-across-runs",
        ("DR-1#c3", "DR-1#c4"),
        "a tool_done pairs with the oldest open start of its tool name in the turn, even one "
        "an earlier, interrupted run left open",
        lambda: _behaviour(_PairsOldestAcrossRuns),
    ),
    Variant(
        "nameless-start-journaled-interrupted",
        "nameless-start",
        ("DR-1#c3", "DR-1#c5"),
        'a `tool_start` that names no tool is journaled as an interrupted call of tool `""`',
        lambda: _behaviour(_NamelessStartInterrupted),
    ),
    Variant(
        "note-in-its-own-message",
        "right-after-the-nudge",
        ("DR-2#c1", "DR-2#c4"),
        "the journal note is a message of its own, right after the message holding the nudge",
        lambda: _behaviour(_NoteInItsOwnMessage),
    ),
    Variant(
        "short-result-as-escaped-json",
        "short-result",
        ("DR-2#c2", "DR-2#c3"),
        "the note shows calls and results as ASCII-escaped JSON, a result cut to 160 characters",
        lambda: _behaviour(_ShortResultAsEscapedJson),
    ),
    Variant(
        "reused-result-as-json",
        "reused-result",
        ("DR-3#c2",),
        "a call answered from the journal gets a note, then its journaled result as JSON",
        lambda: Components(node=_ReusedResultAsJson()),
    ),
    Variant(
        "interrupted-call-left-unanswered",
        "history-shows-the-interruption",
        ("DR-4#c2",),
        "the history shows an interrupted call as the declared call left without a result",
        lambda: _behaviour(_InterruptedCallLeftUnanswered),
    ),
    Variant(
        "continue-on-an-older-stop-accepted",
        "continue-on-an-older-stop",
        ("DR-6#c3",),
        "Continue is offered for the newest stop only, but one chosen on an older stop is "
        "carried out",
        lambda: _behaviour(_ContinueOnAnyStop),
    ),
    Variant(
        "continue-offered-for-the-stop-made-last",
        "newest-stop",
        ("DR-6#c3",),
        "Continue is offered for the stop that happened last, not for the latest stopped "
        "turn in conversation order",
        lambda: _behaviour(NewestStopInTime),
    ),
    Variant(
        "prior-turn-note-prefixed-to-the-message",
        "first-told",
        ("DR-6#c4",),
        "a new turn's agent is told what the unfinished turn did at the start of the new "
        "user message",
        lambda: _behaviour(_PriorTurnPrefixed),
    ),
)
