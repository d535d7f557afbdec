"""The wire form: message rows (PLAY-4), the turn read, and the message poll (PLAY-3).

A message's artifacts travel as a top-level ``toolArtifacts`` field, present only when
the message carries some; the storage column they live in never reaches the wire, and
``metadata`` never carries them (RT-TOOL-4 ¶3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from reference_impl.records import MessageRow, TurnRow

__all__ = ["PUBLIC_PENDING_KEYS", "Wire"]

#: The parts of a pause a client sees (the stored batch of a gated call stays inside).
PUBLIC_PENDING_KEYS = ("kind", "message", "tool", "toolCallId")


class Wire:
    """Renders stored rows for the HTTP API and the harness alike."""

    def message_row(self, message: MessageRow) -> dict[str, object]:
        """A PLAY-4 row: base keys always, in order; optional keys only when carried."""
        row: dict[str, object] = {
            "id": message.id,
            "sessionId": message.conversation_id,
            "role": message.role,
            "content": message.content,
            "timestamp": message.created_at,
            "status": "complete",
            "sequenceNumber": message.seq,
            "nodeId": message.node_id,
            "metadata": self.metadata(message),
        }
        if message.tool_artifacts:
            row["toolArtifacts"] = message.tool_artifacts
        row["executionId"] = message.turn_id
        return row

    def status_word(self, status: str, *, continue_offered: bool) -> str:
        """The word the wire uses for a stored turn status (the stored word itself)."""
        return status

    def turn_states(self) -> dict[str, list[str]] | None:
        """What the wire's status words mean, for the handshake (``None``: the protocol
        guide's own words, which need no declaration)."""
        return None

    def metadata(self, message: MessageRow) -> dict[str, object]:
        """A message's general metadata (the reference runtime keeps none)."""
        return {}

    def turn(
        self, turn: TurnRow, messages: Sequence[MessageRow], *, continue_offered: bool
    ) -> dict[str, object]:
        """The turn read: status, whether Continue is offered, the pending pause, the
        turn's messages and the aggregate of their artifacts (RT-TOOL-4 ¶2)."""
        rows = [self.message_row(message) for message in messages]
        aggregate: list[object] = []
        for row in rows:
            carried = row.get("toolArtifacts")
            if isinstance(carried, list):
                aggregate.extend(carried)
        pending = turn.pending if isinstance(turn.pending, dict) else None
        return {
            "id": turn.id,
            "status": self.status_word(turn.status, continue_offered=continue_offered),
            "continueOffered": continue_offered,
            "pending": None
            if pending is None
            else {key: pending[key] for key in PUBLIC_PENDING_KEYS if key in pending},
            "messages": rows,
            "toolArtifacts": aggregate,
        }

    def poll(
        self,
        messages: Sequence[MessageRow],
        *,
        limit: int,
        after: str | None,
        before: str | None,
        session_status: str,
    ) -> dict[str, object]:
        """The PLAY-3 envelope.  Cursors are honoured only when they are ASCII digit
        strings (``str.isdigit`` also takes digits ``int`` cannot read, such as ``²``)."""
        after_seq = int(after) if _digits(after) else None
        before_seq = int(before) if _digits(before) else None
        chosen = [
            m
            for m in messages
            if (after_seq is None or m.seq > after_seq)
            and (before_seq is None or m.seq < before_seq)
        ]
        page = chosen[:limit] if after_seq is not None else chosen[-limit:] if limit else []
        older = bool(page) and any(m.seq < page[0].seq for m in messages)
        if not page:
            older = before_seq is not None and any(m.seq < before_seq for m in messages)
        return {
            "success": True,
            "data": [self.message_row(m) for m in page],
            "hasMore": len(page) == limit,
            "hasOlder": older,
            "sessionStatus": session_status,
        }


def _digits(cursor: str | None) -> TypeGuard[str]:
    return isinstance(cursor, str) and cursor.isascii() and cursor.isdigit()
