"""Mutants of the guard on interrupted writes (DR-4)."""

from __future__ import annotations

import threading

from reference_impl import records
from reference_impl.artifacts import ArtifactPolicy
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Entry, Journal, Snapshot, classify, signature
from reference_impl.mutants._model import Mutant, with_node
from reference_impl.normalize import Normalizer
from reference_impl.passes import REFUSED_MESSAGE, Call, PassContext, ToolNode
from reference_impl.runtime import UNFINISHED
from reference_impl.workflow import ToolSpec

__all__ = ["MUTANTS"]

Outcome = tuple[str, dict[str, object], str]


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


class _ClaimsInterruptedBehaviour(Behaviour):
    def snapshot(self, journal: Journal) -> Snapshot:
        return _ClaimsInterrupted(journal)


class _InterruptedWriteRetried(ToolNode):
    def refuse_interrupted(self, ctx: PassContext, tool: ToolSpec, args: object) -> bool:
        return False


class _RefusalConsumedOnce(ToolNode):
    """Refuses the first identical retry of an interrupted write in a run, and lets the
    next one run, as if a refusal used the interruption up."""

    def __init__(
        self, policy: ArtifactPolicy | None = None, normalizer: Normalizer | None = None
    ) -> None:
        super().__init__(policy, normalizer)
        self._lock = threading.Lock()
        self._refused: set[tuple[str, str]] = set()

    def refuse_interrupted(self, ctx: PassContext, tool: ToolSpec, args: object) -> bool:
        if not super().refuse_interrupted(ctx, tool, args):
            return False
        key = (ctx.run_id, signature(tool.name, args))
        with self._lock:
            first = key not in self._refused
            self._refused.add(key)
        return first


class _RefusalIgnoresArguments(ToolNode):
    """Refuses any retry of a tool whose call was interrupted, whatever its arguments."""

    def refuse_interrupted(self, ctx: PassContext, tool: ToolSpec, args: object) -> bool:
        assert ctx.snapshot is not None
        prefix = tool.name + "\x00"
        shown = any(sig.startswith(prefix) for sig in ctx.history_interrupted)
        return shown and any(e.tool == tool.name for e in ctx.snapshot.journal.interrupted)


class _RefusalSpansTurns(ToolNode):
    """Refuses, in a new turn, an identical retry of a write the unfinished turn before it
    left interrupted."""

    def dispatch(self, ctx: PassContext, call: Call, tool: ToolSpec, args: object) -> Outcome:
        if ctx.snapshot is None and not tool.read_only:
            conn = ctx.store.read()
            turns = [t.id for t in records.list_turns(conn, ctx.conversation_id)]
            index = turns.index(ctx.turn_id) if ctx.turn_id in turns else 0
            previous = records.get_turn(conn, turns[index - 1]) if index > 0 else None
            if previous is not None and previous.status in UNFINISHED:
                journal = classify(records.ledger_events(conn, previous.id))
                if signature(tool.name, args) in {e.signature for e in journal.interrupted}:
                    result = self.policy.tool_result(
                        success=False, output=None, error=REFUSED_MESSAGE
                    )
                    return self.finish(ctx, call, "refused", result)
        return super().dispatch(ctx, call, tool, args)


MUTANTS = (
    Mutant(
        "interrupted-write-answered-from-journal",
        ("DR-4#c1",),
        "an interrupted write is answered from the journal as if it had completed",
        lambda: Components(behaviour=_ClaimsInterruptedBehaviour()),
    ),
    Mutant(
        "interrupted-write-retried",
        ("DR-4#c2",),
        "an identical retry of an interrupted write runs although the history shows it",
        with_node(_InterruptedWriteRetried),
    ),
    Mutant(
        "refusal-consumed-once",
        ("DR-4#c2",),
        "only the first identical retry of an interrupted write is refused; the next one runs",
        with_node(_RefusalConsumedOnce),
    ),
    Mutant(
        "refusal-ignores-arguments",
        ("DR-4#c2",),
        "a retry of an interrupted write's tool is refused whatever its arguments",
        with_node(_RefusalIgnoresArguments),
    ),
    Mutant(
        "refusal-spans-turns",
        ("DR-4#c2",),
        "a new turn refuses an identical retry of the unfinished turn's interrupted write",
        with_node(_RefusalSpansTurns),
    ),
)
