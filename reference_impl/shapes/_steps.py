"""A shape of where a run's artifacts are persisted: on the message of the step that made
them (RT-TOOL-4 ¶1)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence

from reference_impl import records
from reference_impl.artifacts import Collector
from reference_impl.behaviour import Behaviour, Components
from reference_impl.passes import PassContext, PassResult, ToolNode
from reference_impl.shapes._model import Shape

__all__ = ["SHAPES"]


class _Steps:
    """Which assistant message each call's reply wrote, per run: shared by the node that
    sees the replies and the behaviour that persists the artifacts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_row: dict[str, str | None] = {}
        self._row_of_call: dict[str, dict[str, str]] = {}

    def see_pass(self, run_id: str, latest_row: str | None, call_ids: Sequence[str]) -> None:
        """A pass begins: the reply behind it wrote ``latest_row`` if that row is new."""
        with self._lock:
            row = latest_row if latest_row != self._last_row.get(run_id) else None
            self._last_row[run_id] = latest_row
            if row is not None:
                calls = self._row_of_call.setdefault(run_id, {})
                calls.update((call_id, row) for call_id in call_ids)

    def rows(self, run_id: str) -> dict[str, str]:
        """Call id -> the assistant message its reply wrote, in this run."""
        with self._lock:
            return dict(self._row_of_call.get(run_id, {}))

    def forget(self, run_id: str) -> None:
        """The run ended."""
        with self._lock:
            self._last_row.pop(run_id, None)
            self._row_of_call.pop(run_id, None)


class _NotesEachStep(ToolNode):
    def __init__(self, steps: _Steps) -> None:
        super().__init__()
        self._steps = steps

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        row = (
            ctx.store.read()
            .execute(
                "SELECT id FROM messages WHERE run_id = ? AND role = 'assistant'"
                " ORDER BY seq DESC LIMIT 1",
                (ctx.run_id,),
            )
            .fetchone()
        )
        ids = [c.id for c in (self.parse_call(raw) for raw in batch) if c is not None and c.id]
        self._steps.see_pass(ctx.run_id, None if row is None else row["id"], ids)
        return super().run_pass(ctx, batch)


class _PersistsOnEachStep(Behaviour):
    """Persists each artifact on the assistant message of the step whose call made it
    (the text the model wrote with its calls); the rest, and what was held, on the run's
    last message."""

    def __init__(self, steps: _Steps) -> None:
        self._steps = steps

    def persist(
        self, conn: sqlite3.Connection, turn_id: str, message_id: str, merged: list[object]
    ) -> None:
        row = conn.execute("SELECT run_id FROM messages WHERE id = ?", (message_id,)).fetchone()
        rows = self._steps.rows(row["run_id"]) if row is not None else {}
        placed: dict[str, list[object]] = {}
        for entry in merged:
            call = entry.get("tool_call_id") if isinstance(entry, Mapping) else None
            target = rows.get(call, message_id) if isinstance(call, str) else message_id
            placed.setdefault(target, []).append(entry)
        for target, items in placed.items():
            records.set_artifacts(conn, turn_id, target, items)

    def release(self, collector: Collector, run_id: str) -> None:
        super().release(collector, run_id)
        self._steps.forget(run_id)


def _each_step() -> Components:
    steps = _Steps()
    return Components(behaviour=_PersistsOnEachStep(steps), node=_NotesEachStep(steps))


_RT4_LAST = (
    '"The artifacts a run collected are persisted on the last assistant message that run '
    'wrote, once per run" (RT-TOOL-4 ¶1)'
)

SHAPES: tuple[Shape, ...] = (
    Shape(
        "artifacts-on-each-step-message",
        "gap",
        "each artifact is persisted on the assistant message of the step whose call made "
        "it (the text the model wrote beside its calls), not all on the run's last message; "
        "held artifacts and those of a step that wrote no text go on the last message",
        (),
        ("RT-TOOL-4#c1", "RT-TOOL-7#c2"),
        f"breaks {_RT4_LAST}: a run that wrote several assistant messages spreads its "
        'artifacts over them; and, on its own words, RT-TOOL-7 ¶2 ("prepends them to '
        "whatever the resumed run collected, and delivers the merged list on the resumed "
        "turn's assistant message\"): where the resumed run wrote text beside its calls, "
        "its own artifacts land on that message and the held ones on its last. The turn's "
        "result still aggregates every message's artifacts, each once (RT-TOOL-4 ¶2)",
        _each_step,
    ),
)
