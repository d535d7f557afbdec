"""Shapes of call identifiers, the at-most-once guard and how a batch is run (RT-TOOL-9,
RT-TOOL-10)."""

from __future__ import annotations

import itertools
import sqlite3
import threading
from collections.abc import Mapping

from reference_impl import records
from reference_impl.behaviour import Components
from reference_impl.passes import Call, PassContext, PassResult, ToolNode
from reference_impl.shapes._model import Shape
from reference_impl.shapes._ports import pass_without
from reference_impl.workflow import ToolSpec

__all__ = ["SHAPES", "SideBySide", "UnidentifiedCallRefused"]


class UnidentifiedCallRefused(Exception):
    """A call without an identifier returned, and the runtime refuses its output and fails
    the run."""


class _GeneratesIds(ToolNode):
    """Gives a call that came without an identifier one of its own, reports it as
    generated on the result, the side effect and the tool message, and (unless
    ``lists_generated``) leaves it out of ``executed`` as a call with no identifier."""

    lists_generated = False

    def __init__(self) -> None:
        super().__init__()
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._made = threading.local()  # per thread: two clients may run passes at once

    def parse_call(self, raw: object) -> Call | None:
        call = super().parse_call(raw)
        if call is None or call.id is not None:
            return call
        with self._lock:
            made = f"gen_{next(self._numbers)}"
        made_here: set[str] = getattr(self._made, "ids", set())
        made_here.add(made)
        return Call(call.name, call.args, made)

    def _each_call(
        self,
        ctx: PassContext,
        batch: list[object],
        results: list[dict[str, object]],
        messages: list[dict[str, object]],
        executed: list[str],
        skipped: list[str],
    ) -> None:
        made: set[str] = set()
        self._made.ids = made
        try:
            super()._each_call(ctx, batch, results, messages, executed, skipped)
        finally:
            for entry in results:
                if entry["tool_call_id"] in made:
                    entry["generated_id"] = True
            if not self.lists_generated:
                executed[:] = [call_id for call_id in executed if call_id not in made]
            self._made.ids = set()


class _GeneratedIdsListed(_GeneratesIds):
    lists_generated = True


class _RefusesUnidentifiedOutput(ToolNode):
    """Runs the body of a call that came without an identifier, then refuses its output
    for want of an identifier to answer it under (nothing it emitted is collected), and
    fails the run."""

    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        if call.id is None:  # the body has returned: its output is refused here
            raise UnidentifiedCallRefused(f"{tool.name} returned for a call without an id")
        super().collect(ctx, call, tool, result)


class _NoRecord(ToolNode):
    """Keeps no record of the calls it executed: a repeated identifier runs again (the
    history still answers each declared call)."""

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        return None


class _RecordPerRun(ToolNode):
    """Keeps its record for one stretch of work only: after a pause the node runs the
    whole batch again from the start, so a call that had returned before a gate paused
    runs a second time once the gate is approved."""

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        if call.id is None:
            return None
        return super().recorded(ctx, Call(call.name, call.args, f"{ctx.run_id}:{call.id}"))

    def record(
        self,
        conn: sqlite3.Connection,
        ctx: PassContext,
        call: Call,
        message: str,
        stored: dict[str, object],
    ) -> None:
        super().record(conn, ctx, call, message, stored)  # the turn's, which the history reads
        if call.id is not None:
            per_run = Call(call.name, call.args, f"{ctx.run_id}:{call.id}")
            super().record(conn, ctx, per_run, message, stored)


class SideBySide(ToolNode):
    """Runs a batch's calls side by side: each is checked against the record as it stood
    when the batch began, every call that needs no consent is handled before the node
    pauses on the batch's gated calls, and results are listed in the batch's order.
    (Bodies are started in the batch's order, so that runs are reproducible.)"""

    def __init__(self) -> None:
        super().__init__()
        self._known = threading.local()  # per thread: two clients may run passes at once

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        conn = ctx.store.read()
        ids = {c.id for c in (self.parse_call(raw) for raw in batch) if c is not None and c.id}
        self._known.ids = {i for i in ids if records.executed_call(conn, ctx.turn_id, i)}
        return super().run_pass(ctx, batch)

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        if call.id is None or call.id not in getattr(self._known, "ids", set()):
            return None
        return super().recorded(ctx, call)

    def _gated(self, ctx: PassContext, raw: object) -> bool:
        call = self.parse_call(raw)
        tool = None if call is None else ctx.workflow.tool(call.name)
        return tool is not None and tool.gate

    def _each_call(
        self,
        ctx: PassContext,
        batch: list[object],
        results: list[dict[str, object]],
        messages: list[dict[str, object]],
        executed: list[str],
        skipped: list[str],
    ) -> None:
        order = sorted(range(len(batch)), key=lambda index: self._gated(ctx, batch[index]))
        placed: list[tuple[int, dict[str, object], dict[str, object]]] = []
        try:
            for index in order:
                before = len(results)
                try:
                    super()._each_call(ctx, [batch[index]], results, messages, executed, skipped)
                finally:  # a cut after the call returned still reports it
                    placed += [
                        (index, r, m)
                        for r, m in zip(results[before:], messages[before:], strict=True)
                    ]
        finally:
            placed.sort(key=lambda item: item[0])
            results[:] = [result for _, result, _ in placed]
            messages[:] = [message for _, _, message in placed]


class _NoWorkPorts(ToolNode):
    """Emits neither ``executed_any`` nor ``executed`` (``skipped`` stays)."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        run = super().run_pass
        return pass_without(("executed_any", "executed"), lambda: run(ctx, batch))


class _OnlyWellFormedBatches(ToolNode):
    """Runs no pass for a reply whose batch holds no well-formed call (an empty batch, or
    nothing but malformed calls): the reply ends the run, as a reply without calls does."""

    def handles(self, batch: list[object]) -> bool:
        return any(self.parse_call(raw) is not None for raw in batch)


SHAPES: tuple[Shape, ...] = (
    Shape(
        "generated-call-ids",
        "legal",
        "a call that came without an identifier gets one the runtime makes up (gen_N), "
        "reported as generated on its result, its side effect and its tool message; it is "
        "listed in neither executed nor skipped",
        (
            "PydanticAI (a ToolCallPart without an id gets a generated one)",
            "ADK (a FunctionCall without an id gets adk-<uuid>)",
        ),
        ("RT-TOOL-9#c5", "RT-TOOL-10#c4"),
        '"A call that carries no identifier cannot be guarded and always runs" (RT-TOOL-9 ¶5): '
        "a fresh identifier each time guards nothing, and the call still runs on every pass; "
        "it stays out of both lists, as RT-TOOL-10 ¶4 has it",
        lambda: Components(node=_GeneratesIds()),
    ),
    Shape(
        "generated-ids-listed-as-executed",
        "gap",
        "as generated-call-ids, but the generated identifier is listed in executed",
        (),
        ("RT-TOOL-10#c4",),
        'breaks "a call with no identifier always runs and appears in neither while setting '
        '`executed_any`" (RT-TOOL-10 ¶4)',
        lambda: Components(node=_GeneratedIdsListed()),
    ),
    Shape(
        "unidentified-call-fails-the-run",
        "gap",
        "a call without an identifier runs, and then the runtime refuses its output for "
        "want of an id to answer it under: the pass never completes and the run fails",
        (
            "LangGraph (the prebuilt ToolNode refuses a tool's bare output for a call without "
            "an id, and the graph fails)",
        ),
        ("RT-TOOL-10#c4",),
        'breaks "a call with no identifier always runs and appears in neither while setting '
        '`executed_any`" (RT-TOOL-10 ¶4): the pass that ran it never reports executed_any. '
        'RT-TOOL-9 ¶5 ("cannot be guarded and always runs") holds: the body runs each time '
        "the call reaches the node; a second sending in the same run never reaches it",
        lambda: Components(node=_RefusesUnidentifiedOutput()),
    ),
    Shape(
        "no-executed-call-record",
        "gap",
        "the runtime keeps no record of executed call identifiers: a repeated identifier "
        "runs again (the history still answers every declared call)",
        ("LangGraph", "PydanticAI", "ADK"),
        ("RT-TOOL-9#c1",),
        'breaks "A run records each tool call it has executed, keyed by the call identifier, '
        'and does not invoke a call whose identifier it has already recorded" (RT-TOOL-9 '
        "¶1); there is then no repeat to skip and re-emit (¶2) and no work to tell apart "
        "from a repeat (RT-TOOL-10)",
        lambda: Components(node=_NoRecord()),
    ),
    Shape(
        "guard-forgets-across-a-pause",
        "gap",
        "the record of executed calls lasts one stretch of work: after a gate is approved "
        "the node runs the batch from its start, and a call that had returned before the "
        "gate paused runs a second time",
        ("LangGraph (an interrupted node runs again from its start on resume)",),
        ("RT-TOOL-9#c1",),
        'breaks "does not invoke a call whose identifier it has already recorded" (RT-TOOL-9 '
        '¶1), whose run goes on through "a re-ask after a human approved a gated call" (its '
        "summary and second example). RT-TOOL-9 ¶4 holds: the gated call is recorded only "
        "once it returned, and runs once approved",
        lambda: Components(node=_RecordPerRun()),
    ),
    Shape(
        "batch-runs-side-by-side",
        "legal",
        "a batch's calls run side by side: each is checked against the record as it stood "
        "when the batch began (an id repeated inside one batch runs twice), and every call "
        "needing no consent runs before the node pauses on the batch's gated calls",
        (
            "ADK (a batch's calls run concurrently)",
            "PydanticAI (tool calls run concurrently)",
            "LangGraph (the ToolNode's default thread pool)",
        ),
        ("RT-TOOL-9#c1", "RT-TOOL-9#c4"),
        '"does not invoke a call whose identifier it has already recorded" (RT-TOOL-9 ¶1) '
        'and "A call is recorded only once it has returned a result" (¶4): a call running '
        "beside its twin finds nothing recorded yet (interpretations: same-batch-repeats); "
        "no clause orders a batch's calls or asks a gate to stop its siblings",
        lambda: Components(node=SideBySide()),
    ),
    Shape(
        "no-work-ports",
        "gap",
        "the tool node emits no executed_any and no executed port (skipped stays)",
        ("LangGraph (ToolNode)", "PydanticAI", "ADK"),
        ("RT-TOOL-10#c1",),
        'breaks "A node that invokes tools reports `executed_any`, a boolean, and '
        '`executed`, the call identifiers behind it" (RT-TOOL-10 ¶1); what ¶2 to ¶5 say of '
        "the two ports cannot be seen without them",
        lambda: Components(node=_NoWorkPorts()),
    ),
    Shape(
        "no-pass-without-well-formed-calls",
        "legal",
        "a reply whose batch is empty or holds only malformed calls gets no tool pass: it "
        "ends the run as a reply without calls does",
        (
            "LangGraph (tools_condition routes a reply without valid tool calls to the end)",
            "ADK (no tool step for a reply without function calls)",
        ),
        ("RT-TOOL-10#c3", "RT-TOOL-10#c4"),
        '"An empty batch reports false" (RT-TOOL-10 ¶3) and a malformed call "leaves '
        '`executed_any` false" (¶4) say what a pass over such a batch reports, not that '
        "one must run; with no pass there is no work to report and no loop to re-enter",
        lambda: Components(node=_OnlyWellFormedBatches()),
    ),
)
