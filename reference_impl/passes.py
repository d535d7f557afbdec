"""The tool-invoking node: one pass over a batch of tool calls.

Per call, in order: a malformed call is dropped before the guard (RT-TOOL-10); a call id
already recorded in this turn is skipped and its stored result re-emitted (RT-TOOL-9);
otherwise the call is handled for the first time: an unwired tool answers "not an
available tool"; arguments are normalized (RT-TOOL-8) and validated; a consent gate
pauses the node until the operator decides; on a resumed chunk a completed write is
answered from the journal and an interrupted one refused (DR-3, DR-4); else the tool
body runs between ``tool_start`` and ``tool_done`` ledger events (DR-1).  The call is
recorded once it has returned (RT-TOOL-9), and its artifacts are collected (RT-TOOL-5/6)
and surfaced on the ``tool_artifacts`` port (RT-TOOL-3).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

import jsonschema

from reference_impl import records
from reference_impl.artifacts import ArtifactPolicy, Collector
from reference_impl.journal import Snapshot, signature
from reference_impl.normalize import Normalizer
from reference_impl.seams import Seams
from reference_impl.store import Store
from reference_impl.workflow import ToolSpec, ToolWorld, Workflow

__all__ = ["REUSED_NOTE", "Call", "PassContext", "PassResult", "ToolNode", "prose"]

REUSED_NOTE = (
    "(This call already completed in an earlier interrupted attempt of this turn; "
    "it was not run again, to avoid a duplicate side effect. The result above is "
    "the recorded one.)"
)
REFUSED_MESSAGE = (
    "This exact call was interrupted in an earlier attempt of this turn and its "
    "outcome is unknown; it was not retried. Verify the current state before "
    "trying again."
)


def prose(result: Mapping[str, object]) -> str:
    """The text fed back to the model for a result: built from ``data`` alone (RT-TOOL-3)."""
    if not result.get("success"):
        return f"Error: {result.get('error')}"
    data = result.get("data")
    if isinstance(data, str):
        return data
    if isinstance(data, Mapping) and set(data) == {"result"} and isinstance(data["result"], str):
        return data["result"]
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Call:
    """A well-formed call: a scalar, non-blank name; ``id`` is ``None`` when absent."""

    name: str
    args: object
    id: str | None


@dataclass
class PassContext:
    """Everything one pass needs; built by the runtime per run."""

    store: Store
    collector: Collector
    seams: Seams
    world: ToolWorld
    workflow: Workflow
    conversation_id: str
    turn_id: str
    run_id: str
    snapshot: Snapshot | None = None
    history_interrupted: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class PassResult:
    """What a pass produced: the record the observer gets, the tool messages for the
    thread, the artifacts drained for the port, and the gate it paused on, if any."""

    record: dict[str, object]
    tool_messages: list[dict[str, object]]
    artifacts: list[dict[str, object]]
    paused_on: dict[str, object] | None = None


class _GatePause(Exception):
    def __init__(self, pending: dict[str, object]) -> None:
        super().__init__("gate")
        self.pending = pending


class ToolNode:
    """The node that invokes tools; mutants override one method to break one clause."""

    def __init__(
        self, policy: ArtifactPolicy | None = None, normalizer: Normalizer | None = None
    ) -> None:
        self.policy = policy or ArtifactPolicy()
        self.normalizer = normalizer or Normalizer()

    # -- the pass -----------------------------------------------------------------------

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        """Handle every call of ``batch`` (stopping early if a gate pauses the node)."""
        results: list[dict[str, object]] = []
        messages: list[dict[str, object]] = []
        executed: list[str] = []
        skipped: list[str] = []
        paused_on: dict[str, object] | None = None

        def record(*, cut: bool = False) -> dict[str, object]:
            drained = [] if cut else ctx.collector.drain(ctx.run_id)
            # RT-TOOL-10: work was done when any call was handled for the first time.
            executed_any = any(r["disposition"] != "skipped" for r in results)
            return {
                "batch": list(batch),
                "ports": self.ports(drained, executed_any, executed, skipped),
                "exposed": self.exposed(ctx.workflow),
                "results": list(results),
                "tool_messages": [
                    {"tool_call_id": m["tool_call_id"], "content": m["content"]} for m in messages
                ],
                "outcome": self.outcome(results),
                "paused": paused_on is not None,
                "cut": cut,
            }

        try:
            self._each_call(ctx, batch, results, messages, executed, skipped)
        except _GatePause as pause:
            paused_on = pause.pending
        except BaseException as cut:
            # A run cut off mid-pass still reports what the pass did before the cut.
            cut.partial_pass = record(cut=True)  # type: ignore[attr-defined]
            raise
        done = record()
        ports = done["ports"]
        assert isinstance(ports, dict)
        drained = ports["tool_artifacts"]
        assert isinstance(drained, list)
        return PassResult(done, messages, drained, paused_on)

    def _each_call(
        self,
        ctx: PassContext,
        batch: list[object],
        results: list[dict[str, object]],
        messages: list[dict[str, object]],
        executed: list[str],
        skipped: list[str],
    ) -> None:
        """Handle the calls of ``batch`` in order, appending to the pass's lists."""
        for raw in batch:
            call = self.parse_call(raw)
            if call is None:
                continue
            stored = self.recorded(ctx, call)
            arguments: object = None
            if stored is not None:
                skipped.append(str(call.id))
                _, message, result = stored
                disposition = "skipped"
            else:
                disposition, result, message, arguments = self.handle(ctx, call)
                if call.id is not None:
                    executed.append(call.id)
            entry: dict[str, object] = {
                "tool": call.name,
                "tool_call_id": call.id,
                "disposition": disposition,
                "result": result,
            }
            if arguments is not None:
                entry["arguments"] = arguments
            results.append(entry)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": message})
            if disposition == "executed":
                ctx.seams.checkpoint("after_tool_done", call.name)

    def exposed(self, workflow: Workflow) -> dict[str, bool]:
        """Every output port's exposure: the author's choice where made, else the port's
        default (RT-TOOL-3 ¶2, RT-TOOL-10 ¶5)."""
        return workflow.exposed()

    def ports(
        self,
        drained: list[dict[str, object]],
        executed_any: bool,
        executed: list[str],
        skipped: list[str],
    ) -> dict[str, object]:
        """The node's output port values for the pass (RT-TOOL-3, RT-TOOL-10)."""
        return {
            "tool_artifacts": drained,
            "executed_any": executed_any,
            "executed": executed,
            "skipped": skipped,
        }

    def outcome(self, results: list[dict[str, object]]) -> dict[str, object]:
        """The batch's outcome: how many handled calls succeeded and failed."""
        succeeded = sum(
            1
            for r in results
            if isinstance(r["result"], Mapping) and r["result"].get("success") is True
        )
        return {"succeeded": succeeded, "failed": len(results) - succeeded}

    def parse_call(self, raw: object) -> Call | None:
        """A well-formed call, or ``None`` for a malformed one (RT-TOOL-10)."""
        if not isinstance(raw, Mapping):
            return None
        name = raw.get("name")
        if (
            isinstance(name, bool)
            or not isinstance(name, str | int | float)
            or not str(name).strip()
        ):
            return None
        call_id = raw.get("tool_call_id")
        if isinstance(call_id, bool) or not isinstance(call_id, str | int) or call_id == "":
            call_id = None
        return Call(str(name), raw.get("args", {}), None if call_id is None else str(call_id))

    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        """The stored first result of a call this turn already executed (RT-TOOL-9)."""
        if call.id is None:
            return None
        return records.executed_call(ctx.store.read(), ctx.turn_id, call.id)

    # -- one call handled for the first time --------------------------------------------

    def handle(self, ctx: PassContext, call: Call) -> tuple[str, dict[str, object], str, object]:
        """``(disposition, result, tool message, reconciled arguments)`` for a call seen
        for the first time."""
        tool = ctx.workflow.tool(call.name)
        if tool is None:
            result = self.policy.tool_result(
                success=False, output=None, error=f"'{call.name}' is not an available tool"
            )
            return (*self.finish(ctx, call, "unknown_tool", result), None)
        args = self.normalizer.normalize(call.args, tool.input_schema)
        return (*self.dispatch(ctx, call, tool, args), args)

    def dispatch(
        self, ctx: PassContext, call: Call, tool: ToolSpec, args: object
    ) -> tuple[str, dict[str, object], str]:
        """Validate, gate, consult the journal, and run the tool."""
        problem = self.invalid(args, tool)
        if problem is not None:
            result = self.policy.tool_result(
                success=False, output=None, error=f"invalid arguments: {problem}"
            )
            return self.finish(ctx, call, "invalid", result)
        if tool.gate:
            decision = self.consent(ctx, call, args)
            if decision[0] == "declined":
                return self.finish(ctx, call, "declined", self.declined(decision[1]))
        if ctx.snapshot is not None and not tool.read_only:
            entry = ctx.snapshot.claim(tool.name, args)
            if entry is not None:
                journaled = (
                    entry.result
                    if isinstance(entry.result, Mapping)
                    else {"success": True, "data": entry.result, "error": None}
                )
                result = {key: journaled.get(key) for key in ("success", "data", "error")}
                return self.finish(ctx, call, "reused", result, message=self.reused_message(result))
            if self.refuse_interrupted(ctx, tool, args):
                result = self.policy.tool_result(success=False, output=None, error=REFUSED_MESSAGE)
                return self.finish(ctx, call, "refused", result)
        return self.execute(ctx, call, tool, args)

    def declined(self, reason: str | None) -> dict[str, object]:
        """The result of a gated call the operator declined: a recoverable failure."""
        return self.policy.tool_result(
            success=False,
            output=None,
            error=f"declined: the operator declined this call ({reason})",
        )

    def reused_message(self, result: Mapping[str, object]) -> str:
        """What the model reads for a call answered from the journal (DR-3 ¶2): the
        journaled result's prose, then a note saying it was not run again."""
        return f"{self.prose_for(result)}\n{REUSED_NOTE}"

    def refuse_interrupted(self, ctx: PassContext, tool: ToolSpec, args: object) -> bool:
        """DR-4: refuse an identical retry of an interrupted write, only when the resumed
        run's history shows the interruption."""
        assert ctx.snapshot is not None
        return (
            ctx.snapshot.interrupted(tool.name, args)
            and signature(tool.name, args) in ctx.history_interrupted
        )

    def invalid(self, args: object, tool: ToolSpec) -> str | None:
        """Why ``args`` break the tool's input schema, or ``None``."""
        if not isinstance(tool.input_schema, Mapping):
            return None
        try:
            error = jsonschema.exceptions.best_match(
                jsonschema.Draft202012Validator(tool.input_schema).iter_errors(args)
            )
        except RecursionError:
            return "the arguments or the schema nest too deep to be checked"
        return None if error is None else error.message[:200]

    def consent(self, ctx: PassContext, call: Call, args: object) -> tuple[str, str | None]:
        """The operator's decision on this exact call, consumed; pauses when there is none."""
        key = hashlib.sha256(signature(call.name, args).encode()).hexdigest()
        with ctx.store.transaction() as conn:
            decision = records.take_consent(conn, ctx.turn_id, key)
        if decision is None:
            raise _GatePause(
                {
                    "kind": "gate",
                    "tool": call.name,
                    "toolCallId": call.id,
                    "callKey": key,
                    "args": args,
                    "message": f"Allow {call.name} with arguments "
                    f"{json.dumps(args, ensure_ascii=False)}?",
                }
            )
        return decision

    def execute(
        self, ctx: PassContext, call: Call, tool: ToolSpec, args: object
    ) -> tuple[str, dict[str, object], str]:
        """Run the tool body between its ``tool_start`` and ``tool_done`` events."""
        with ctx.store.transaction() as conn:
            self.record_event(conn, ctx, "tool_start", tool.name, tool_input=args)
        ctx.seams.checkpoint("before_tool_body", tool.name)
        outcome = ctx.world.invoke(tool.name, args, call.id, turn_id=ctx.turn_id, run_id=ctx.run_id)
        ctx.seams.checkpoint("after_tool_body", tool.name)
        result = self.policy.tool_result(
            success=outcome.error is None, output=outcome.output, error=outcome.error
        )
        disposition, result, message = self.finish(
            ctx, call, "executed", result, ledger_tool=tool.name, ledger_input=args
        )
        self.collect(ctx, call, tool, result)
        return disposition, result, message

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
        """Append a call's ``tool_start`` (with its input) or ``tool_done`` (with its input
        and result) to the turn's ledger (DR-1 ¶1)."""
        records.append_ledger(conn, ctx.turn_id, ctx.run_id, event, tool, tool_input, result)

    def prose_for(self, result: Mapping[str, object]) -> str:
        """The text fed back to the model for ``result`` (RT-TOOL-3 ¶3)."""
        return prose(result)

    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        """Hand the call's port entries to the run's collection."""
        for entry in self.policy.port_entries(result, call.id):
            ctx.collector.add(ctx.run_id, tool.name, entry)

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
    ) -> tuple[str, dict[str, object], str]:
        """Record the call once it has returned (with its ``tool_done`` event when it ran:
        ``ledger_tool`` and ``ledger_input`` are the name and input its ``tool_start``
        recorded)."""
        text = self.prose_for(result) if message is None else message
        # What is recorded is the result without its artifacts: those are delivered (or
        # held) once, by the run that collected them, never again from a record.
        stored = {key: result.get(key) for key in ("success", "data", "error")}
        with ctx.store.transaction() as conn:
            if ledger_tool is not None:
                self.record_event(
                    conn, ctx, "tool_done", ledger_tool, tool_input=ledger_input, result=stored
                )
            if call.id is not None:
                records.record_call(conn, ctx.turn_id, call.id, call.name, text, stored)
        return disposition, result, text
