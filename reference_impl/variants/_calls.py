"""Variants of how calls reach the guard and what the guard remembers (RT-TOOL-9, 10)."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace

from reference_impl import records
from reference_impl.behaviour import Components
from reference_impl.passes import Call, PassContext, PassResult, ToolNode
from reference_impl.variants._model import Variant

__all__ = ["VARIANTS"]


class _GuardSpansTheConversation(ToolNode):
    """Remembers every call the conversation executed, in any of its turns: a call id an
    earlier turn recorded is skipped in a later one too."""

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        for turn in records.list_turns(ctx.store.read(), ctx.conversation_id):
            stored = super().recorded(replace(ctx, turn_id=turn.id), call)
            if stored is not None:
                return stored
        return None


class _EmptyListArgumentsReadAsMap(ToolNode):
    """Reads a call's ``"args": []`` (PHP's empty array) as no arguments, an empty map,
    before anything else sees the call."""

    def parse_call(self, raw: object) -> Call | None:
        call = super().parse_call(raw)
        if call is not None and call.args == []:
            return Call(call.name, {}, call.id)
        return call


class _RecordsAfterTheBatch(ToolNode):
    """Looks a batch's calls up in the record as it stood when the batch began, as a
    runtime that runs a batch's calls side by side does: a call id repeated inside one
    batch runs twice, since its first execution had not returned when the second began."""

    def __init__(self) -> None:
        super().__init__()
        self._known = threading.local()  # per thread: two clients may run passes at once

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        ids = {str(raw.get("tool_call_id")) for raw in batch if isinstance(raw, dict)}
        conn = ctx.store.read()
        self._known.ids = {i for i in ids if records.executed_call(conn, ctx.turn_id, i)}
        return super().run_pass(ctx, batch)

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        if call.id is None or call.id not in getattr(self._known, "ids", set()):
            return None
        return super().recorded(ctx, call)


class _ConsentKeyedByCallId(_RecordsAfterTheBatch):
    """Keys the operator's consent by the call's identifier, for the turn: approving (or
    declining) the call the node paused on decides every call the batch declares under
    that identifier.  The guard looks calls up in the record as it stood when the batch
    began, so a second gated call under the same identifier runs on the first one's
    approval, without a pause of its own."""

    def consent(self, ctx: PassContext, call: Call, args: object) -> tuple[str, str | None]:
        if call.id is None:
            return super().consent(ctx, call, args)
        by_id = f"id:{call.id}"
        with ctx.store.transaction() as conn:
            decision = records.take_consent(conn, ctx.turn_id, by_id)
            if decision is not None:
                records.put_consent(conn, ctx.turn_id, by_id, *decision)  # it lasts the turn
        if decision is not None:
            return decision
        decision = super().consent(ctx, call, args)  # the operator's, or a pause
        with ctx.store.transaction() as conn:
            records.put_consent(conn, ctx.turn_id, by_id, *decision)
        return decision


class _GuardResetAfterACut(ToolNode):
    """Keeps a fresh record for each stretch of the turn between cuts: a call recorded
    before the run was cut (a time limit, an error, a crash) and resumed by itself or by
    Continue may run again, as a new chunk of work; across a pause and its answer, the
    record holds, as RT-TOOL-9's own example requires.  (The turn's history still shows
    every call's result: only the guard looks at the stretch.)"""

    def _in_stretch(self, ctx: PassContext, call: Call) -> Call:
        """``call`` keyed for the stretch of the turn it belongs to."""
        if call.id is None:
            return call
        cuts = sum(
            1
            for run in records.list_runs(ctx.store.read(), ctx.turn_id)
            if run.status in ("interrupted", "crashed")
        )
        return Call(call.name, call.args, f"chunk-{cuts}:{call.id}")

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        return super().recorded(ctx, self._in_stretch(ctx, call))

    def record(
        self,
        conn: sqlite3.Connection,
        ctx: PassContext,
        call: Call,
        message: str,
        stored: dict[str, object],
    ) -> None:
        super().record(conn, ctx, call, message, stored)  # the turn's, which the history reads
        super().record(conn, ctx, self._in_stretch(ctx, call), message, stored)


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "guard-spans-the-conversation",
        "guard-scope",
        ("RT-TOOL-9#c1", "RT-TOOL-10#c2"),
        "the at-most-once guard remembers calls across every turn of the conversation",
        lambda: Components(node=_GuardSpansTheConversation()),
    ),
    Variant(
        "guard-resets-after-a-cut",
        "guard-scope",
        ("RT-TOOL-9#c1", "RT-TOOL-10#c2"),
        "the at-most-once guard starts a fresh record when a cut run resumes, and keeps it "
        "across pauses",
        lambda: Components(node=_GuardResetAfterACut()),
    ),
    Variant(
        "empty-list-arguments-read-as-map",
        "args-empty-array",
        ("RT-TOOL-9#c1", "RT-TOOL-10#c4"),
        'a call\'s "args": [] is read as no arguments (an empty map)',
        lambda: Components(node=_EmptyListArgumentsReadAsMap()),
    ),
    Variant(
        "consent-keyed-by-call-id",
        "gated-calls-sharing-an-id",
        ("RT-TOOL-9#c1", "RT-TOOL-9#c4"),
        "a consent is keyed by the call's identifier for the turn: approving one of two "
        "gated calls that share an identifier runs the other as well",
        lambda: Components(node=_ConsentKeyedByCallId()),
    ),
    Variant(
        "calls-recorded-after-the-batch",
        "same-batch-repeats",
        ("RT-TOOL-9#c1", "RT-TOOL-9#c4"),
        "a batch's calls are recorded once the whole batch returned, so an id repeated "
        "within one batch runs twice",
        lambda: Components(node=_RecordsAfterTheBatch()),
    ),
)
