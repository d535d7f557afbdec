"""Mutants of where a turn's artifacts land: the message, the wire, the held list
(RT-TOOL-4, RT-TOOL-7)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

from reference_impl import records
from reference_impl.behaviour import Behaviour
from reference_impl.mutants._model import Mutant, with_behaviour, with_wire
from reference_impl.records import MessageRow, TurnRow
from reference_impl.store import Store
from reference_impl.wire import Wire

__all__ = ["MUTANTS"]

Split = tuple[list[Mapping[str, object]], list[Mapping[str, object]]]


class _ArtifactsOnFirstAssistantMessage(Behaviour):
    def persist(
        self, conn: sqlite3.Connection, turn_id: str, message_id: str, merged: list[object]
    ) -> None:
        first = next(
            (m.id for m in records.messages_of_turn(conn, turn_id) if m.role == "assistant"),
            message_id,
        )
        super().persist(conn, turn_id, first, merged)


class _TurnResultOmitsArtifacts(Wire):
    def turn(
        self, turn: TurnRow, messages: Sequence[MessageRow], *, continue_offered: bool
    ) -> dict[str, object]:
        view = super().turn(turn, messages, continue_offered=continue_offered)
        view["toolArtifacts"] = []
        return view


class _ArtifactsUnderMetadata(Wire):
    def metadata(self, message: MessageRow) -> dict[str, object]:
        metadata = super().metadata(message)
        if message.tool_artifacts:
            metadata["tool_artifacts"] = message.tool_artifacts  # the storage key leaks
        return metadata


class _HeldDiscardedOnPause(Behaviour):
    def held_split(self, collected: Sequence[Mapping[str, object]], room: int) -> Split:
        return [], []


class _HeldAppendedAfterCollected(Behaviour):
    def merge(self, held: Sequence[object], collected: Sequence[object]) -> list[object]:
        return super().merge(collected, held)


class _HeldCopiedNotTaken(Behaviour):
    def take_held(self, conn: sqlite3.Connection, turn_id: str) -> list[object]:
        return records.peek_held(conn, turn_id)


class _HeldLostOnFailedWriteBack(Behaviour):
    def after_failed_write_back(self, store: Store, turn_id: str) -> None:
        with store.transaction() as conn:
            records.take_held(conn, turn_id)


class _HeldBoundKeepsNewest(Behaviour):
    def held_split(self, collected: Sequence[Mapping[str, object]], room: int) -> Split:
        cut = max(0, len(collected) - room)
        return list(collected[cut:]), list(collected[:cut])


class _HeldBoundOffByOne(Behaviour):
    def held_split(self, collected: Sequence[Mapping[str, object]], room: int) -> Split:
        return super().held_split(collected, room + 1)


class _HeldShownOnWire(Behaviour):
    """Writes what it holds onto the turn's latest message as well, so a paused turn's
    wire already shows it."""

    def on_hold(
        self, conn: sqlite3.Connection, turn_id: str, kept: Sequence[Mapping[str, object]]
    ) -> None:
        latest = records.messages_of_turn(conn, turn_id)[-1:]
        if latest and kept:
            records.set_artifacts(
                conn, turn_id, latest[0].id, [*(latest[0].tool_artifacts or []), *kept]
            )


class _CutRunArtifactsDiscarded(Behaviour):
    """A run cut off by a time limit or an error neither holds nor persists what it
    collected: the artifacts are lost with the run."""

    def hold_on_cut(self) -> bool:
        return False


class _HeldSharedByConversation(Behaviour):
    """Takes what is held against every turn of the conversation, not just this one: an
    older turn's held artifacts surface on a newer turn's message."""

    def take_held(self, conn: sqlite3.Connection, turn_id: str) -> list[object]:
        turn = records.get_turn(conn, turn_id)
        if turn is None:
            return super().take_held(conn, turn_id)
        taken: list[object] = []
        for other in records.list_turns(conn, turn.conversation_id):
            taken += super().take_held(conn, other.id)
        return taken


class _HeldTakenFromTheNewestHoldingTurn(Behaviour):
    """A resumed turn that holds artifacts takes the held list of the newest turn of its
    conversation that holds any: with two turns paused, each answer takes the other's."""

    def take_held(self, conn: sqlite3.Connection, turn_id: str) -> list[object]:
        turn = records.get_turn(conn, turn_id)
        if turn is None or not records.peek_held(conn, turn_id):
            return super().take_held(conn, turn_id)
        holding = [
            t
            for t in records.list_turns(conn, turn.conversation_id)
            if records.peek_held(conn, t.id)
        ]
        return super().take_held(conn, holding[-1].id)


MUTANTS = (
    Mutant(
        "held-bound-off-by-one",
        ("RT-TOOL-7#c5",),
        "the held list keeps one artifact more than its bound",
        with_behaviour(_HeldBoundOffByOne),
        hunted=True,
    ),
    Mutant(
        "held-shown-on-wire",
        ("RT-TOOL-7#c1",),
        "artifacts held against a paused turn already show on its latest message",
        with_behaviour(_HeldShownOnWire),
        hunted=True,
    ),
    Mutant(
        "artifacts-on-first-assistant-message",
        ("RT-TOOL-4#c1",),
        "a run's artifacts are persisted on the turn's first assistant message, not its last",
        with_behaviour(_ArtifactsOnFirstAssistantMessage),
    ),
    Mutant(
        "turn-result-omits-artifacts",
        ("RT-TOOL-4#c2",),
        "the turn result does not aggregate its messages' artifacts",
        with_wire(_TurnResultOmitsArtifacts),
        hunted=True,
    ),
    Mutant(
        "artifacts-under-metadata",
        ("RT-TOOL-4#c3",),
        "a message also carries its artifacts inside `metadata`, under the storage key",
        with_wire(_ArtifactsUnderMetadata),
        hunted=True,
    ),
    Mutant(
        "held-discarded-on-pause",
        ("RT-TOOL-7#c1",),
        "artifacts produced before a pause are discarded instead of held",
        with_behaviour(_HeldDiscardedOnPause),
        hunted=True,
    ),
    Mutant(
        "held-appended-after-collected",
        ("RT-TOOL-7#c2",),
        "held artifacts are appended after the resumed run's own instead of prepended",
        with_behaviour(_HeldAppendedAfterCollected),
        hunted=True,
    ),
    Mutant(
        "held-taken-from-the-newest-holding-turn",
        ("RT-TOOL-7#c2",),
        "a resumed turn holding artifacts takes the newest holding turn's list of its "
        "conversation: two paused turns, answered in turn, swap their held artifacts",
        with_behaviour(_HeldTakenFromTheNewestHoldingTurn),
    ),
    Mutant(
        "held-shared-by-conversation",
        ("RT-TOOL-7#c2",),
        "a write-back takes what is held against every turn of the conversation",
        with_behaviour(_HeldSharedByConversation),
        hunted=True,
    ),
    Mutant(
        "held-copied-not-taken",
        ("RT-TOOL-7#c3",),
        "the write-back copies the held list and leaves it in place",
        with_behaviour(_HeldCopiedNotTaken),
    ),
    Mutant(
        "held-lost-on-failed-write-back",
        ("RT-TOOL-7#c4",),
        "a write-back that fails after its take throws the held list away",
        with_behaviour(_HeldLostOnFailedWriteBack),
        hunted=True,
    ),
    Mutant(
        "held-bound-keeps-newest",
        ("RT-TOOL-7#c5",),
        "over the held bound, the oldest entries are dropped instead of the newest",
        with_behaviour(_HeldBoundKeepsNewest),
    ),
    Mutant(
        "cut-run-artifacts-discarded",
        ("RT-TOOL-4#c1",),
        "a run cut off by a time limit or an error loses what it collected",
        with_behaviour(_CutRunArtifactsDiscarded),
    ),
)
