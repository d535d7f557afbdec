"""Mutants whose bug shows only after a combination of events.

The hand-written checks follow the sequences the rule text names, and miss these; the
property-based hunt must find each, and shrink it to a short scenario.  Their ``breaks``
are the clauses of the hunt invariant that catches them.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Journal, LedgerEvent, Snapshot, classify, signature
from reference_impl.mutants._model import Mutant, run_cause, with_behaviour
from reference_impl.passes import Call, PassContext, ToolNode
from reference_impl.store import Store
from reference_impl.workflow import ToolSpec

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


class _SiblingReRunsOnDecline(ToolNode):
    """When one call of a batch paused for the operator and is declined, the batch is
    re-issued without its record: the siblings that had returned run again (the fault a
    widely used agent runtime ships, here only on the decline path)."""

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        if run_cause(ctx) == "decline":
            return None
        return super().recorded(ctx, call)


class _WorkMissedBesideARepeat(ToolNode):
    """`executed_any` is read off `executed` when the pass skipped a repeat: a new call
    without an identifier beside a repeat leaves it false."""

    def ports(
        self,
        drained: list[dict[str, object]],
        executed_any: bool,
        executed: list[str],
        skipped: list[str],
    ) -> dict[str, object]:
        if skipped:
            executed_any = bool(executed)
        return super().ports(drained, executed_any, executed, skipped)


class _StoredFailureGainsArtifactsKey(ToolNode):
    """A stored failure re-emitted by a later run of the turn comes back with an empty
    `artifacts` key."""

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        found = super().recorded(ctx, call)
        if found is None or found[2].get("success") is not False or run_cause(ctx) == "start":
            return found
        tool, message, result = found
        return tool, message, {**result, "artifacts": []}


class _CountResetByContinue(Behaviour):
    """Counts a turn's automatic continuations from its last Continue only: after a
    Continue the turn may continue on its own three times more."""

    def automatic_continuations(self, conn: sqlite3.Connection, turn_id: str) -> int:
        runs = records.list_runs(conn, turn_id)
        since = [i for i, run in enumerate(runs) if run.cause == "continue"]
        start = since[-1] + 1 if since else 0
        return sum(1 for run in runs[start:] if run.cause == "auto_continue")


class _NoteOfLastChunkOnly(Behaviour):
    """The resume note names only what the chunk cut just before did (the hard-block
    still reads the whole turn)."""

    def __init__(self) -> None:
        self._recent = threading.local()

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        runs = [event.run for event in events if event.run is not None]
        last = runs[-1] if runs else None
        self._recent.journal = classify([e for e in events if e.run in (None, last)])
        return classify(events)

    def resume_prompt(self, journal: Journal | None) -> str:
        recent = getattr(self._recent, "journal", None)
        return super().resume_prompt(journal if journal is None or recent is None else recent)


class _InterruptedGuardByName(ToolNode):
    """Refuses a write as a retry of an interrupted one when only its tool name matches:
    a different write of the same tool is refused too."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        shown = {sig.split("\x00", 1)[0] for sig in ctx.history_interrupted}
        return any(
            journal.interrupted(tool.name, entry.input)
            for entry in journal.journal.interrupted
            if entry.tool == tool.name
        ) and (tool.name in shown)


class _ContinueWithheldAfterAnAnswer(Behaviour):
    """A turn that paused on a question earlier and was answered is not offered Continue
    when a later run of it is stopped by an error, a cancellation or a failure (a stop at
    the time limit still offers it: DR-5's checks play that one after an answer)."""

    def continue_offered(self, conn: sqlite3.Connection, turn: records.TurnRow) -> bool:
        if turn.error != "time_limit" and any(
            run.cause == "answer" for run in records.list_runs(conn, turn.id)
        ):
            return False
        return super().continue_offered(conn, turn)


class _NoteSkipsCallsWithoutArguments(Behaviour):
    """The resume note leaves out the calls that took no arguments."""

    def resume_prompt(self, journal: Journal | None) -> str:
        if journal is None:
            return super().resume_prompt(journal)
        kept = Journal(
            tuple(e for e in journal.completed if e.input not in ({}, [], None)),
            tuple(e for e in journal.interrupted if e.input not in ({}, [], None)),
        )
        return super().resume_prompt(kept)


class _RefusalIgnoresToolName(ToolNode):
    """An interrupted write is matched by its input alone: another tool's call with the
    same arguments is refused as its retry."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        same = [e for e in journal.journal.interrupted if e.input == args]
        shown = {sig.split("\x00", 1)[1] for sig in ctx.history_interrupted if "\x00" in sig}
        return any(
            signature(e.tool, e.input).split("\x00", 1)[1] in shown for e in same
        ) or super().refuse_interrupted(ctx, journal, tool, args)


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
        "batch-sibling-re-runs-on-resume",
        ("RT-TOOL-9#c1",),
        "when a call of a batch is declined, its siblings that had returned run again as "
        "the batch is re-issued",
        lambda: Components(node=_SiblingReRunsOnDecline()),
        hunt=True,
    ),
    Mutant(
        "work-missed-beside-a-repeat",
        ("RT-TOOL-10#c4",),
        "a pass that skipped a repeat reports executed_any false when its only new call "
        "has no identifier",
        lambda: Components(node=_WorkMissedBesideARepeat()),
    ),
    Mutant(
        "stored-failure-gains-artifacts-key",
        ("RT-TOOL-1#c2",),
        "a stored failure re-emitted by a later run comes back with an empty artifacts key",
        lambda: Components(node=_StoredFailureGainsArtifactsKey()),
        hunt=True,
    ),
    Mutant(
        "continuation-count-reset-by-continue",
        ("DR-5#c3",),
        "after a Continue, a turn may continue on its own three more times",
        with_behaviour(_CountResetByContinue),
        hunted=True,
    ),
    Mutant(
        "note-of-last-chunk-only",
        ("DR-2#c2",),
        "the resume note names only what the chunk cut just before did",
        with_behaviour(_NoteOfLastChunkOnly),
        hunted=True,
    ),
    Mutant(
        "interrupted-guard-matches-by-name",
        ("DR-4#c2",),
        "any write of a tool with an interrupted call is refused, whatever its arguments",
        lambda: Components(node=_InterruptedGuardByName()),
        hunted=True,
    ),
    Mutant(
        "continue-withheld-after-an-answer",
        ("DR-5#c5",),
        "a turn that was paused on a question and answered is not offered Continue when a "
        "later run of it stops other than at its time limit",
        with_behaviour(_ContinueWithheldAfterAnAnswer),
        hunt=True,
    ),
    Mutant(
        "note-skips-calls-without-arguments",
        ("DR-2#c2",),
        "the resume note leaves out the calls that took no arguments",
        with_behaviour(_NoteSkipsCallsWithoutArguments),
        hunt=True,
    ),
    Mutant(
        "refusal-ignores-tool-name",
        ("DR-4#c2",),
        "an interrupted write is matched by its arguments alone, so another tool's call with "
        "the same arguments is refused",
        lambda: Components(node=_RefusalIgnoresToolName()),
        hunt=True,
    ),
)
