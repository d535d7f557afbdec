"""Mutants of the hard-block and the interrupted-write guard (DR-3, DR-4)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import replace

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Entry, Journal, Snapshot, classify, signature
from reference_impl.mutants._model import Mutant, with_behaviour, with_node
from reference_impl.passes import Call, PassContext, ToolNode
from reference_impl.workflow import ToolSpec

__all__ = ["MUTANTS"]

Outcome = tuple[str, dict[str, object], str]


def _snapshots(cls: type[Snapshot]) -> type[Behaviour]:
    """A behaviour whose resumed chunks take ``cls`` snapshots."""

    class _Behaviour(Behaviour):
        def snapshot(self, journal: Journal) -> Snapshot:
            return cls(journal)

    return _Behaviour


class _LearningSnapshot(Snapshot):
    """A snapshot that also learns the completions of the chunk it belongs to."""

    def learn(self, entry: Entry) -> None:
        self._unclaimed.setdefault(entry.signature, deque()).append(entry)


class _LiveSnapshotNode(ToolNode):
    def execute(self, ctx: PassContext, call: Call, tool: ToolSpec, args: object) -> Outcome:
        outcome = super().execute(ctx, call, tool, args)
        if isinstance(ctx.snapshot, _LearningSnapshot):
            ctx.snapshot.learn(Entry(tool.name, args, outcome[1]))
        return outcome


def _live_snapshot() -> Components:
    return Components(behaviour=_snapshots(_LearningSnapshot)(), node=_LiveSnapshotNode())


class _ClaimsNothing(Snapshot):
    def claim(self, tool: str, args: object) -> Entry | None:
        return None


class _ReusedResultWithoutNote(ToolNode):
    def finish(
        self,
        ctx: PassContext,
        call: Call,
        disposition: str,
        result: dict[str, object],
        *,
        message: str | None = None,
        ledger_tool: str | None = None,
        ledger_input: object = None,
    ) -> Outcome:
        if disposition == "reused":
            message = None  # the bare result, as if the call had just run
        return super().finish(
            ctx,
            call,
            disposition,
            result,
            message=message,
            ledger_tool=ledger_tool,
            ledger_input=ledger_input,
        )


class _ReadOnlyToolBlocked(ToolNode):
    def dispatch(self, ctx: PassContext, call: Call, tool: ToolSpec, args: object) -> Outcome:
        return super().dispatch(ctx, call, replace(tool, read_only=False), args)


class _PositionalSnapshot(Snapshot):
    """Matches the n-th write of the chunk to the n-th completed entry, by tool name."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self._position = 0

    def claim(self, tool: str, args: object) -> Entry | None:
        position, self._position = self._position, self._position + 1
        completed = self.journal.completed
        if position < len(completed) and completed[position].tool == tool:
            return completed[position]
        return None


class _ReusableSnapshot(Snapshot):
    """Hands the same completed entry to every identical call."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self._answered: dict[str, Entry] = {}

    def claim(self, tool: str, args: object) -> Entry | None:
        entry = super().claim(tool, args)
        if entry is not None:
            self._answered[signature(tool, args)] = entry
            return entry
        return self._answered.get(signature(tool, args))


class _HardBlockOnFreshRuns(ToolNode):
    def dispatch(self, ctx: PassContext, call: Call, tool: ToolSpec, args: object) -> Outcome:
        if ctx.snapshot is None:  # a run never interrupted is checked against its turn too
            events = records.ledger_events(ctx.store.read(), ctx.turn_id)
            ctx = replace(ctx, snapshot=Snapshot(classify(events)))
        return super().dispatch(ctx, call, tool, args)


class _ClaimsInterrupted(Snapshot):
    """Answers an interrupted call as if it had completed (with no result)."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self._open = list(journal.interrupted)

    def claim(self, tool: str, args: object) -> Entry | None:
        entry = super().claim(tool, args)
        if entry is not None:
            return entry
        wanted = signature(tool, args)
        found = next((e for e in self._open if e.signature == wanted), None)
        if found is not None:
            self._open.remove(found)
        return found


class _InterruptedWriteRetried(ToolNode):
    def refuse_interrupted(self, ctx: PassContext, tool: ToolSpec, args: object) -> bool:
        return False


def _snapshot_mutant(cls: type[Snapshot]) -> Callable[[], Components]:
    return with_behaviour(_snapshots(cls))


MUTANTS = (
    Mutant(
        "snapshot-sees-current-chunk",
        ("DR-3#c1",),
        "the resumed chunk's snapshot also learns the writes the chunk itself completes",
        _live_snapshot,
    ),
    Mutant(
        "completed-write-repeated",
        ("DR-3#c2",),
        "a re-dispatched write that matches a completed entry runs again",
        _snapshot_mutant(_ClaimsNothing),
    ),
    Mutant(
        "reused-result-without-note",
        ("DR-3#c2",),
        "a write answered from the journal comes back without the note saying so",
        with_node(_ReusedResultWithoutNote),
    ),
    Mutant(
        "read-only-tool-blocked",
        ("DR-3#c3",),
        "a read-only tool is answered from the journal like a write",
        with_node(_ReadOnlyToolBlocked),
    ),
    Mutant(
        "journal-matched-by-position",
        ("DR-3#c4",),
        "the n-th write of the resumed chunk matches the n-th completed entry by name",
        _snapshot_mutant(_PositionalSnapshot),
    ),
    Mutant(
        "journal-entry-claimed-repeatedly",
        ("DR-3#c5",),
        "one journaled completion answers every identical call",
        _snapshot_mutant(_ReusableSnapshot),
    ),
    Mutant(
        "hard-block-on-fresh-runs",
        ("DR-3#c6",),
        "a run that was never interrupted is hard-blocked against its turn's ledger",
        with_node(_HardBlockOnFreshRuns),
    ),
    Mutant(
        "interrupted-write-answered-from-journal",
        ("DR-4#c1",),
        "an interrupted write is answered from the journal as if it had completed",
        _snapshot_mutant(_ClaimsInterrupted),
    ),
    Mutant(
        "interrupted-write-retried",
        ("DR-4#c2",),
        "an identical retry of an interrupted write runs although the history shows it",
        with_node(_InterruptedWriteRetried),
    ),
)
