"""Mutants whose bug shows only after a combination of events.

The hand-written checks follow the sequences the rule text names, and miss these; the
property-based hunt must find each, and shrink it to a short scenario.  Their ``breaks``
are the clauses of the hunt invariant that catches them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.mutants._model import Mutant, with_behaviour
from reference_impl.passes import Call, PassContext, PassResult, ToolNode
from reference_impl.store import Store

__all__ = ["MUTANTS"]


class _FailedWriteBackHoldsOwnTwice(Behaviour):
    """After a write-back fails, the artifacts the failing run collected are held twice:
    delivered twice by the retry, but only when that run collected some of its own."""

    def __init__(self) -> None:
        self._failed: set[str] = set()

    def after_failed_write_back(self, store: Store, turn_id: str) -> None:
        self._failed.add(turn_id)

    def on_hold(
        self, conn: sqlite3.Connection, turn_id: str, kept: Sequence[Mapping[str, object]]
    ) -> None:
        if turn_id in self._failed and kept:
            self._failed.discard(turn_id)
            records.add_held(conn, turn_id, list(kept))

    def take_held(self, conn: sqlite3.Connection, turn_id: str) -> list[object]:
        self._failed.discard(turn_id)
        return super().take_held(conn, turn_id)


class _HeldMirroredInMemory(Behaviour):
    """Keeps a copy of the held list in memory and, when the resumed run collected
    artifacts of its own, merges them with that copy instead of the stored list: after a
    restart while paused (a new process, an empty copy) the held artifacts are lost."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Keyed by the connection's id, the connection kept so the id is never reused:
        # a restart opens new connections, as a new process would.
        self._mirror: dict[int, tuple[sqlite3.Connection, dict[str, list[object]]]] = {}
        self._taken: list[object] = []

    def _copy(self, conn: sqlite3.Connection) -> dict[str, list[object]]:
        with self._lock:
            return self._mirror.setdefault(id(conn), (conn, {}))[1]

    def on_hold(
        self, conn: sqlite3.Connection, turn_id: str, kept: Sequence[Mapping[str, object]]
    ) -> None:
        self._copy(conn).setdefault(turn_id, []).extend(kept)

    def take_held(self, conn: sqlite3.Connection, turn_id: str) -> list[object]:
        stored = super().take_held(conn, turn_id)
        self._taken = self._copy(conn).pop(turn_id, [])
        return stored

    def merge(self, held: Sequence[object], collected: Sequence[object]) -> list[object]:
        if collected:
            return [*self._taken, *collected]
        return super().merge(held, collected)


class _SameNameCallsShareProse(ToolNode):
    """When two calls of one batch name the same tool, the second call's prose mentions
    the first call's artifacts."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        self._seen: dict[str, object] = {}
        return super().run_pass(ctx, batch)

    def handle(self, ctx: PassContext, call: Call) -> tuple[str, dict[str, object], str, object]:
        disposition, result, message, arguments = super().handle(ctx, call)
        earlier = self._seen.get(call.name)
        if earlier:
            message = f"{message} (see also {json.dumps(earlier)})"
        self._seen[call.name] = result.get("artifacts")
        return disposition, result, message, arguments


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


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "failed-write-back-holds-own-twice",
        ("RT-TOOL-7#c3",),
        "after a failed write-back the failing run's own artifacts are held twice",
        with_behaviour(_FailedWriteBackHoldsOwnTwice),
        hunt=True,
    ),
    Mutant(
        "held-mirror-lost-on-restart",
        ("RT-TOOL-7#c1",),
        "a resumed run with artifacts of its own merges with an in-memory copy of the "
        "held list, which a restart empties",
        with_behaviour(_HeldMirroredInMemory),
        hunt=True,
    ),
    Mutant(
        "same-name-calls-share-prose",
        ("RT-TOOL-3#c3",),
        "the second of two calls to one tool in a batch mentions the first call's "
        "artifacts in its prose",
        lambda: Components(node=_SameNameCallsShareProse()),
        hunt=True,
    ),
    Mutant(
        "held-shared-by-conversation",
        ("RT-TOOL-7#c1",),
        "a write-back takes what is held against every turn of the conversation",
        with_behaviour(_HeldSharedByConversation),
        hunt=True,
    ),
)
