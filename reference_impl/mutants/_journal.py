"""Mutants of the ledger and the tool-call journal (DR-1)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from reference_impl.behaviour import Behaviour
from reference_impl.journal import Entry, Journal, LedgerEvent
from reference_impl.mutants._model import Mutant, with_behaviour, with_node
from reference_impl.passes import Call, PassContext, ToolNode

__all__ = ["MUTANTS"]


def _classify(
    events: Iterable[LedgerEvent],
    *,
    newest: bool = False,
    any_tool: bool = False,
    clear: str = "all",
    nameless_resets: bool = False,
    by_run_id: bool = False,
) -> Journal:
    """A journal paired wrongly in one way: a done closes the ``newest`` open start instead
    of the oldest, or a start of ``any_tool``; a ``clear`` resets only the tool started
    last (``"last-tool"``), or the completed calls too (``"with-completed"``); an event
    that names no tool resets the open calls as a clear does (``nameless_resets``); the
    open starts are taken in the order of their runs' identifiers (``by_run_id``), so the
    pairing across runs depends on how the runtime happens to name them."""
    ledger = list(events)
    open_starts: list[Entry] = []
    completed: list[Entry] = []
    for position, event in enumerate(ledger):
        if event.event == "clear" or (nameless_resets and event.tool is None):
            last = open_starts[-1].tool if open_starts else None
            kept = [e for e in open_starts if e.tool != last] if clear == "last-tool" else []
            open_starts = kept
            if clear == "with-completed":
                completed = []
        elif event.tool is None:
            continue
        elif event.event == "tool_start":
            open_starts.append(Entry(event.tool, event.input, None, position))
        elif event.event == "tool_done":
            same = [e for e in open_starts if any_tool or e.tool == event.tool]
            if by_run_id:
                same.sort(key=lambda e: (ledger[e.seq].run or "", e.seq))
            if same:
                start = same[-1] if newest else same[0]
                open_starts.remove(start)
                completed.append(replace(start, result=event.result))
    return Journal(
        tuple(sorted(completed, key=lambda e: e.seq)),
        tuple(sorted(open_starts, key=lambda e: e.seq)),
    )


class _ToolDoneWithout(ToolNode):
    """Records every ``tool_done`` without one of its parts (``dropped``)."""

    dropped = ""

    def record_event(
        self,
        conn: sqlite3.Connection,
        ctx: PassContext,
        event: str,
        tool: str,
        *,
        tool_input: object = None,
        result: object = None,
    ) -> None:
        if event == "tool_done":
            tool_input = None if self.dropped == "input" else tool_input
            result = None if self.dropped == "result" else result
        super().record_event(conn, ctx, event, tool, tool_input=tool_input, result=result)


class _ToolDoneMissingResult(_ToolDoneWithout):
    dropped = "result"


class _ToolDoneMissingInput(_ToolDoneWithout):
    dropped = "input"


class _ToolDoneOnlyOnSuccess(ToolNode):
    """A call that failed recoverably is never recorded as returned."""

    def record_event(
        self,
        conn: sqlite3.Connection,
        ctx: PassContext,
        event: str,
        tool: str,
        *,
        tool_input: object = None,
        result: object = None,
    ) -> None:
        if event == "tool_done" and isinstance(result, Mapping) and not result.get("success"):
            return
        super().record_event(conn, ctx, event, tool, tool_input=tool_input, result=result)


class _AnswerRecordedInLedger(ToolNode):
    """Books a call the journal answered (``booked`` dispositions) as a call that ran."""

    booked: tuple[str, ...] = ("reused",)

    def booked_as_run(self, ctx: PassContext, call: Call, disposition: str) -> Entry | None:
        if disposition not in self.booked:
            return super().booked_as_run(ctx, call, disposition)
        with ctx.store.transaction() as conn:  # its tool_done follows once it is answered
            self.record_event(conn, ctx, "tool_start", call.name, tool_input=call.args)
        return Entry(call.name, call.args)


class _RefusalRecordedInLedger(_AnswerRecordedInLedger):
    booked = ("refused",)


class _InterruptedCallsForgotten(Behaviour):
    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return Journal(super().journal(events).completed, ())


class _FailedCallJournaledInterrupted(Behaviour):
    """Counts only a successful call as completed; a failed one as interrupted."""

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        read = super().journal(events)

        def failed(entry: Entry) -> bool:
            return isinstance(entry.result, Mapping) and entry.result.get("success") is False

        moved = tuple(replace(e, result=None) for e in read.completed if failed(e))
        kept = tuple(e for e in read.completed if not failed(e))
        return Journal(kept, tuple(sorted((*read.interrupted, *moved), key=lambda e: e.seq)))


class _Paired(Behaviour):
    """A journal paired by :func:`_classify`, wrongly in the way its class says."""

    newest = False
    any_tool = False
    clear = "all"
    nameless_resets = False
    by_run_id = False

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return _classify(
            events,
            newest=self.newest,
            any_tool=self.any_tool,
            clear=self.clear,
            nameless_resets=self.nameless_resets,
            by_run_id=self.by_run_id,
        )


class _DonePairsWithNewestStart(_Paired):
    newest = True


class _DonePairsAcrossTools(_Paired):
    any_tool = True


class _DonePairsByRunId(_Paired):
    by_run_id = True


class _ClearResetsOneTool(_Paired):
    clear = "last-tool"


class _ClearForgetsCompleted(_Paired):
    clear = "with-completed"


class _NamelessEventResets(_Paired):
    nameless_resets = True


class _ClearEventIgnored(Behaviour):
    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return super().journal([event for event in events if event.event != "clear"])


class _NamedClearClosesACall(Behaviour):
    """Reads a ``clear`` that names a tool as a ``tool_done`` of that tool (with no
    result), so it closes the tool's oldest open call instead of resetting them all."""

    def journal(self, events: Sequence[LedgerEvent]) -> Journal:
        return super().journal(
            [
                replace(event, event="tool_done")
                if event.event == "clear" and event.tool is not None
                else event
                for event in events
            ]
        )


MUTANTS = (
    Mutant(
        "tool-done-missing-result",
        ("DR-1#c1",),
        "`tool_done` is recorded without the call's result",
        with_node(_ToolDoneMissingResult),
    ),
    Mutant(
        "tool-done-missing-input",
        ("DR-1#c1",),
        "`tool_done` is recorded without the call's input",
        with_node(_ToolDoneMissingInput),
    ),
    Mutant(
        "tool-done-only-on-success",
        ("DR-1#c1",),
        "a call that failed recoverably gets no `tool_done`",
        with_node(_ToolDoneOnlyOnSuccess),
    ),
    Mutant(
        "reused-answer-recorded-in-ledger",
        ("DR-1#c2",),
        "a call answered from the journal is written to the ledger as a call that ran",
        with_node(_AnswerRecordedInLedger),
        hunted=True,
    ),
    Mutant(
        "refusal-recorded-in-ledger",
        ("DR-1#c2",),
        "a retry refused by the guard is written to the ledger as a call that ran",
        with_node(_RefusalRecordedInLedger),
    ),
    Mutant(
        "interrupted-calls-forgotten",
        ("DR-1#c3",),
        "a `tool_start` without a matching `tool_done` is left out of the journal",
        with_behaviour(_InterruptedCallsForgotten),
    ),
    Mutant(
        "failed-call-journaled-interrupted",
        ("DR-1#c3",),
        "a call whose `tool_done` carries a failed result is journaled as interrupted",
        with_behaviour(_FailedCallJournaledInterrupted),
    ),
    Mutant(
        "done-pairs-with-newest-start",
        ("DR-1#c4",),
        "a `tool_done` closes the newest open start of its tool, not the oldest",
        with_behaviour(_DonePairsWithNewestStart),
    ),
    Mutant(
        "done-pairs-by-run-id",
        ("DR-1#c4",),
        "a `tool_done` closes the open start of its tool whose run's identifier sorts first, "
        "not the oldest",
        with_behaviour(_DonePairsByRunId),
    ),
    Mutant(
        "done-pairs-across-tools",
        ("DR-1#c4",),
        "a `tool_done` closes the oldest open start of any tool, not of its own",
        with_behaviour(_DonePairsAcrossTools),
    ),
    Mutant(
        "clear-event-ignored",
        ("DR-1#c5",),
        "a `clear` event does not reset the open calls",
        with_behaviour(_ClearEventIgnored),
    ),
    Mutant(
        "nameless-event-resets-open-calls",
        ("DR-1#c4", "DR-1#c5"),
        "a `tool_done` or `tool_start` that names no tool resets the open calls, as a `clear` does",
        with_behaviour(_NamelessEventResets),
    ),
    Mutant(
        "clear-resets-one-tool",
        ("DR-1#c5",),
        "a `clear` resets only the open calls of the tool started last",
        with_behaviour(_ClearResetsOneTool),
    ),
    Mutant(
        "clear-forgets-completed",
        ("DR-1#c5",),
        "a `clear` drops the calls completed before it along with the open ones",
        with_behaviour(_ClearForgetsCompleted),
    ),
    Mutant(
        "named-clear-closes-a-call",
        ("DR-1#c5",),
        "a `clear` that names a tool closes that tool's oldest open call, as a `tool_done` would",
        with_behaviour(_NamedClearClosesACall),
    ),
)
