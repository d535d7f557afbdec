"""Mutants of the guard on interrupted writes (DR-4)."""

from __future__ import annotations

import json
import threading

from reference_impl import records
from reference_impl.artifacts import ArtifactPolicy
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Entry, Journal, Snapshot, classify, signature
from reference_impl.mutants._model import Mutant, unfinished_turn_before, with_node
from reference_impl.normalize import Normalizer
from reference_impl.passes import Call, PassContext, ToolNode
from reference_impl.workflow import ToolSpec

__all__ = ["MUTANTS"]


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
    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
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

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if not super().refuse_interrupted(ctx, journal, tool, args):
            return False
        key = (ctx.run_id, signature(tool.name, args))
        with self._lock:
            first = key not in self._refused
            self._refused.add(key)
        return first


class _RefusalForgottenAfterAPause(ToolNode):
    """Refuses only in the run that resumed: once the resumed run pauses (a question, a
    gate), the run its answer starts lets an identical retry through, though its history
    still shows the interrupted call."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        runs = records.list_runs(ctx.store.read(), ctx.turn_id)
        cause = next((run.cause for run in runs if run.id == ctx.run_id), None)
        if cause in ("answer", "approve", "decline"):
            return False
        return super().refuse_interrupted(ctx, journal, tool, args)


class _InterruptionMatchedAsWritten(ToolNode):
    """Knows the interrupted calls of the history by their arguments as the model wrote
    them, and a retry by its arguments as the tool gets them: where the runtime repaired
    the arguments (RT-TOOL-8), an identical retry is not recognised, and runs."""

    def __init__(
        self, policy: ArtifactPolicy | None = None, normalizer: Normalizer | None = None
    ) -> None:
        super().__init__(policy, normalizer)
        self._call = threading.local()

    def dispatch(
        self, ctx: PassContext, call: Call, tool: ToolSpec, args: object
    ) -> tuple[str, dict[str, object], str]:
        self._call.repaired = call.args != args
        return super().dispatch(ctx, call, tool, args)

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if getattr(self._call, "repaired", False):
            return False
        return super().refuse_interrupted(ctx, journal, tool, args)


class _RefusalIgnoresArguments(ToolNode):
    """Refuses any retry of a tool whose call was interrupted, whatever its arguments."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        prefix = tool.name + "\x00"
        shown = any(sig.startswith(prefix) for sig in ctx.history_interrupted)
        return shown and any(e.tool == tool.name for e in journal.journal.interrupted)


class _RefusalSpansTurns(ToolNode):
    """Refuses, in a new turn, an identical retry of a write the unfinished turn before it
    left interrupted (checked against that turn's interrupted calls, its completed ones
    left out, whatever the new turn's history shows)."""

    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        previous = unfinished_turn_before(ctx) if ctx.snapshot is None else None
        if previous is None or tool.read_only:
            return super().checked_against(ctx, tool)
        interrupted = classify(records.ledger_events(ctx.store.read(), previous.id)).interrupted
        return Snapshot(Journal((), interrupted))

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if ctx.snapshot is None:  # the journal is the turn before's
            return journal.interrupted(tool.name, args)
        return super().refuse_interrupted(ctx, journal, tool, args)


def _calls_of(entry: dict[str, object]) -> list[dict[str, object]]:
    """The calls a thread entry declares."""
    declared = entry.get("tool_calls")
    return [c for c in declared if isinstance(c, dict)] if isinstance(declared, list) else []


class _InterruptionHiddenByAnEarlierAnswer(ToolNode):
    """Takes call identifiers as unique in the conversation: an interrupted call whose
    identifier an earlier turn already answered counts as answered, so its history is not
    taken to show the interruption."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if not super().refuse_interrupted(ctx, journal, tool, args):
            return False
        entries = records.thread_entries(ctx.store.read(), ctx.conversation_id)
        answered = {(turn, e.get("tool_call_id")) for turn, e in entries if e.get("role") == "tool"}
        wanted = signature(tool.name, args)
        declared = {
            c.get("tool_call_id")
            for turn, e in entries
            if turn == ctx.turn_id
            for c in _calls_of(e)
            if signature(tool.name, c.get("args", {})) == wanted
        }
        earlier = {call_id for turn, call_id in answered if turn != ctx.turn_id}
        return not (declared & earlier)


def _declared_in_turn(ctx: PassContext, tool: str, args: object) -> list[object]:
    """The identifiers of the current turn's declared calls of ``tool`` with ``args``'s
    signature, in the order the thread holds them (one per declaration)."""
    wanted = signature(tool, args)
    return [
        c.get("tool_call_id")
        for turn, e in records.thread_entries(ctx.store.read(), ctx.conversation_id)
        if turn == ctx.turn_id
        for c in _calls_of(e)
        if c.get("name") == tool and signature(tool, c.get("args", {})) == wanted
    ]


class _InterruptionHiddenByItsRefusal(ToolNode):
    """Takes a refused retry sent under the interrupted call's own identifier for that
    call's answer: once a run has refused it, the interruption no longer counts as shown,
    and a later identical retry under a new identifier runs."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if not super().refuse_interrupted(ctx, journal, tool, args):
            return False
        declared = _declared_in_turn(ctx, tool.name, args)
        sent_again = {i for i in declared if isinstance(i, str) and declared.count(i) > 1}
        conn = ctx.store.read()
        return not any(records.executed_call(conn, ctx.turn_id, i) for i in sent_again)


class _InterruptionHiddenBehindASkippedCall(ToolNode):
    """Reads each batch of the history only up to its first call that has no identifier
    or whose identifier is already answered: an interrupted call declared behind one does
    not count as shown, so its identical retry runs."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        if not super().refuse_interrupted(ctx, journal, tool, args):
            return False
        entries = records.thread_entries(ctx.store.read(), ctx.conversation_id)
        # The last entry is the batch this pass runs: the retry itself.
        mine = [e for turn, e in entries if turn == ctx.turn_id][:-1]
        replied = {e.get("tool_call_id") for e in mine if e.get("role") == "tool"}
        wanted = signature(tool.name, args)
        for entry in mine:
            for declared in _calls_of(entry):
                call_id = declared.get("tool_call_id")
                if not isinstance(call_id, str) or not call_id or call_id in replied:
                    break  # the rest of this batch is never read
                if signature(str(declared.get("name")), declared.get("args", {})) == wanted:
                    return True
        return False


class _RefusedOnTheHistoryAlone(ToolNode):
    """Refuses an identical retry of any call the history shows without a result, whether
    or not the journal holds it interrupted: a call cut off before it started is refused
    too."""

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        shown = signature(tool.name, args) in ctx.history_interrupted
        return shown or super().refuse_interrupted(ctx, journal, tool, args)


class _InterruptedMatchedInSentOrder(Snapshot):
    """Finds an interrupted call by its input encoded in the order its keys were sent."""

    def interrupted(self, tool: str, args: object) -> bool:
        return any(
            e.tool == tool and json.dumps(e.input) == json.dumps(args)
            for e in self.journal.interrupted
        )


class _InterruptedMatchedInSentOrderBehaviour(Behaviour):
    def snapshot(self, journal: Journal) -> Snapshot:
        return _InterruptedMatchedInSentOrder(journal)


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
        "refusal-forgotten-after-a-pause",
        ("DR-4#c2",),
        "once the resumed run pauses, the run its answer starts no longer refuses an "
        "identical retry of the interrupted write",
        with_node(_RefusalForgottenAfterAPause),
    ),
    Mutant(
        "interruption-matched-as-written",
        ("DR-4#c2",),
        "an identical retry of an interrupted write whose arguments the runtime repaired is "
        "not recognised as the call the history shows, and runs",
        with_node(_InterruptionMatchedAsWritten),
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
    Mutant(
        "interrupted-id-answered-in-an-earlier-turn",
        ("DR-4#c2",),
        "an interrupted call whose id an earlier turn answered counts as answered, so its "
        "identical retry runs",
        with_node(_InterruptionHiddenByAnEarlierAnswer),
    ),
    Mutant(
        "interrupted-match-depends-on-key-order",
        ("DR-4#c2",),
        "an interrupted write is matched with its input's keys in the order they were sent",
        lambda: Components(behaviour=_InterruptedMatchedInSentOrderBehaviour()),
    ),
    Mutant(
        "interruption-hidden-by-its-refusal",
        ("DR-4#c2",),
        "once a retry under the interrupted call's own id is refused, the interruption no "
        "longer counts as shown, so a later identical retry under a new id runs",
        with_node(_InterruptionHiddenByItsRefusal),
    ),
    Mutant(
        "interruption-hidden-behind-a-skipped-call",
        ("DR-4#c2",),
        "an interrupted call declared behind a repeat or a call without an id does not "
        "count as shown, so its identical retry runs",
        with_node(_InterruptionHiddenBehindASkippedCall),
    ),
    Mutant(
        "never-started-call-refused",
        ("DR-4#c2",),
        "an identical retry of a call the history shows without a result is refused though "
        "the call never started, so the journal never held it interrupted",
        with_node(_RefusedOnTheHistoryAlone),
    ),
)
