"""Mutants of the hard-block (DR-3; its matching is in ``_matching``)."""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Entry, Journal, LedgerEvent, Snapshot, classify, signature
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


class _LiveSnapshotNode(ToolNode):
    """Adds each call the resumed chunk completes to the chunk's own snapshot."""

    def execute(self, ctx: PassContext, call: Call, tool: ToolSpec, args: object) -> Outcome:
        outcome = super().execute(ctx, call, tool, args)
        if ctx.snapshot is not None:
            ctx.snapshot.add(Entry(tool.name, args, outcome[1]))
        return outcome


class _ClaimsNothing(Snapshot):
    def claim(self, tool: str, args: object) -> Entry | None:
        return None


class _ReusedResultWithoutNote(ToolNode):
    def reused_message(self, result: Mapping[str, object]) -> str:
        return self.prose_for(result)  # the bare result, as if the call had just run


class _ReusedResultTextOnly(ToolNode):
    """Tells a reused map result that holds a ``result`` text as that text alone."""

    def reused_message(self, result: Mapping[str, object]) -> str:
        data = result.get("data")
        if isinstance(data, Mapping) and isinstance(data.get("result"), str):
            return super().reused_message({**result, "data": data["result"]})
        return super().reused_message(result)


class _ReadOnlyToolBlocked(ToolNode):
    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        return ctx.snapshot  # a read-only tool is checked like a write


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
    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        if ctx.snapshot is None:  # a run never interrupted is checked against its turn too
            events = records.ledger_events(ctx.store.read(), ctx.turn_id)
            ctx = replace(ctx, snapshot=Snapshot(classify(events)))
        return super().checked_against(ctx, tool)


class _ClaimsEveryIdentical(Snapshot):
    """Claims the oldest identical entry, and drops every other identical one with it."""

    def claim(self, tool: str, args: object) -> Entry | None:
        entry = super().claim(tool, args)
        if entry is not None:
            self._unclaimed[self.key(tool, args)] = deque()
        return entry


class _JournalSpansTheConversation(Behaviour):
    """Reads a resumed chunk's journal from the ledgers of every turn of the conversation."""

    def journal_events(self, conn: sqlite3.Connection, turn_id: str) -> list[LedgerEvent]:
        turn = records.get_turn(conn, turn_id)
        if turn is None:
            return super().journal_events(conn, turn_id)
        turns = records.list_turns(conn, turn.conversation_id)
        return [event for one in turns for event in records.ledger_events(conn, one.id)]


class _JournalOfLastChunkOnly(Behaviour):
    """The completed calls a resumed chunk snapshots come only from the chunk cut off
    just before it: a write completed two interruptions ago is run again.  (Once a
    combination only the hunt found; DR-3 ¶2's check now plays it.)  (Interrupted
    calls still come from the whole turn, so the interrupted-write guard holds and only
    the hard-block's memory is short.)"""

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        whole = classify(events)
        runs = [event.run for event in events if event.run is not None]
        if not runs:
            return whole
        last = runs[-1]
        recent = classify([event for event in events if event.run in (None, last)])
        return Journal(recent.completed, whole.interrupted)


def _snapshot_mutant(cls: type[Snapshot]) -> Callable[[], Components]:
    return with_behaviour(_snapshots(cls))


class _ClaimsForgottenOnCarryingOn(Snapshot):
    """Rebuilt for the run that carries on a paused resumed chunk, it never learns which
    completions the chunk already claimed before it paused."""

    def consume(self, positions: Iterable[int]) -> None:
        return None


class _HardBlockLostAfterASecondPause(ToolNode):
    """Loses the resumed chunk's snapshot once the chunk has paused twice: the run that
    carries it on after its second answer is checked against an empty journal, as if the
    chunk's prior ledger events had been counted as none."""

    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        chosen = super().checked_against(ctx, tool)
        causes = [run.cause for run in records.list_runs(ctx.store.read(), ctx.turn_id)]
        resumed = [i for i, cause in enumerate(causes) if cause in ("auto_continue", "continue")]
        carried = causes[resumed[-1] + 1 :] if resumed else []
        if chosen is not None and len(carried) >= 2:
            return Snapshot(Journal())
        return chosen


MUTANTS = (
    Mutant(
        "snapshot-sees-current-chunk",
        ("DR-3#c1",),
        "the resumed chunk's snapshot also learns the writes the chunk itself completes",
        with_node(_LiveSnapshotNode),
    ),
    Mutant(
        "journal-spans-the-conversation",
        ("DR-3#c1",),
        "a resumed chunk's journal holds the calls of every turn of the conversation",
        with_behaviour(_JournalSpansTheConversation),
    ),
    Mutant(
        "completed-write-repeated",
        ("DR-3#c2",),
        "a re-dispatched write that matches a completed entry runs again",
        _snapshot_mutant(_ClaimsNothing),
        hunted=True,
    ),
    Mutant(
        "journal-of-last-chunk-only",
        ("DR-3#c1",),
        "a resumed chunk's journal covers only the chunk cut off just before it",
        with_behaviour(_JournalOfLastChunkOnly),
    ),
    Mutant(
        "reused-result-without-note",
        ("DR-3#c2",),
        "a write answered from the journal comes back without the note saying so",
        with_node(_ReusedResultWithoutNote),
    ),
    Mutant(
        "reused-result-told-by-its-result-text",
        ("DR-3#c2",),
        "a write answered from the journal whose result is a map holding a `result` text "
        "gives the model that text alone, without the map's other values",
        with_node(_ReusedResultTextOnly),
    ),
    Mutant(
        "read-only-tool-blocked",
        ("DR-3#c3",),
        "a read-only tool is answered from the journal like a write",
        with_node(_ReadOnlyToolBlocked),
        hunted=True,
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
        "claim-consumes-every-identical-entry",
        ("DR-3#c5",),
        "answering one repeat uses up every identical completed entry, not just one",
        _snapshot_mutant(_ClaimsEveryIdentical),
    ),
    Mutant(
        "hard-block-on-fresh-runs",
        ("DR-3#c6",),
        "a run that was never interrupted is hard-blocked against its turn's ledger",
        with_node(_HardBlockOnFreshRuns),
        hunted=True,
    ),
    Mutant(
        "claims-forgotten-after-a-pause",
        ("DR-3#c5",),
        "a resumed chunk that paused forgets, once it carries on, the completions it already "
        "claimed",
        _snapshot_mutant(_ClaimsForgottenOnCarryingOn),
    ),
    Mutant(
        "hard-block-lost-after-a-second-pause",
        ("DR-3#c2",),
        "a resumed chunk that paused twice is checked against an empty journal once it "
        "carries on, so a completed write re-dispatched then runs again",
        with_node(_HardBlockLostAfterASecondPause),
    ),
)
