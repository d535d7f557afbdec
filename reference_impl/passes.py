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

import functools
import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

import jsonschema

from reference_impl import records
from reference_impl.artifacts import ArtifactPolicy, Collector
from reference_impl.journal import Entry, Snapshot, signature
from reference_impl.normalize import Normalizer
from reference_impl.seams import Seams
from reference_impl.store import Store
from reference_impl.workflow import ToolOutcome, ToolSpec, ToolWorld, Workflow

__all__ = ["REUSED_NOTE", "Call", "GatePause", "PassContext", "PassResult", "ToolNode", "prose"]

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


@functools.lru_cache(maxsize=64)
def _validator(schema: str) -> jsonschema.Draft202012Validator:
    """A validator for the input schema written ``schema``, made once per schema: making
    one costs more than checking a call's arguments with it."""
    return jsonschema.Draft202012Validator(json.loads(schema))


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


class GatePause(Exception):
    def __init__(self, pending: dict[str, object]) -> None:
        super().__init__("gate")
        self.pending = pending


class ToolNode:
    """The node that invokes tools.

    Each decision a rule leaves to the node is a small method of its own (a hook: which
    journal a call is checked against, what the model reads, what a record keeps...),
    so that a mutant or a legal variant overrides the one decision it changes."""

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
        except GatePause as pause:
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
                if self.rest_of_batch_after_malformed():
                    continue
                break
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

    def handles(self, batch: list[object]) -> bool:
        """Whether a reply's batch is given a pass at all (every batch is: an empty or an
        all-malformed one reports that it did no work, RT-TOOL-10 ¶3-4)."""
        return True

    def rest_of_batch_after_malformed(self) -> bool:
        """Whether the calls after a malformed one are still handled: a malformed call is
        dropped alone (RT-TOOL-10 ¶4)."""
        return True

    def parse_call(self, raw: object) -> Call | None:
        """A well-formed call, or ``None`` for a malformed one: not a map, or no usable
        name (RT-TOOL-10 ¶4)."""
        if not isinstance(raw, Mapping):
            return None
        name = self.call_name(raw.get("name"))
        if name is None:
            return None
        return Call(name, raw.get("args", {}), self.call_id(raw.get("tool_call_id")))

    def call_name(self, value: object) -> str | None:
        """A call's name as text, or ``None`` when it is blank or not a scalar, which makes
        the call malformed (RT-TOOL-10 ¶4)."""
        if (
            isinstance(value, bool)
            or not isinstance(value, str | int | float)
            or not str(value).strip()
        ):
            return None
        return str(value)

    def call_id(self, value: object) -> str | None:
        """A call's identifier as text, or ``None`` when it carries none (a missing, empty
        or non-scalar one): such a call cannot be guarded (RT-TOOL-9 ¶5)."""
        if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
            return None
        return str(value)

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
        journal = self.checked_against(ctx, tool)
        if journal is not None:
            entry = journal.claim(tool.name, args)
            if entry is not None:
                journaled = (
                    entry.result
                    if isinstance(entry.result, Mapping)
                    else {"success": True, "data": entry.result, "error": None}
                )
                result = {key: journaled.get(key) for key in ("success", "data", "error")}
                message = self.reused_message(result)
                ran = self.booked_as_run(ctx, call, "reused")
                return self.finish(ctx, call, "reused", result, message=message, ran=ran)
            if self.refuse_interrupted(ctx, journal, tool, args):
                result = self.policy.tool_result(success=False, output=None, error=REFUSED_MESSAGE)
                ran = self.booked_as_run(ctx, call, "refused")
                return self.finish(ctx, call, "refused", result, ran=ran)
        return self.execute(ctx, call, tool, args)

    def declined(self, reason: str | None) -> dict[str, object]:
        """The result of a gated call the operator declined: a recoverable failure."""
        return self.policy.tool_result(
            success=False,
            output=None,
            error=f"declined: the operator declined this call ({reason})",
        )

    def checked_against(self, ctx: PassContext, tool: ToolSpec) -> Snapshot | None:
        """The journal a call is checked against before it runs: the snapshot its resumed
        chunk took of the prior chunks (DR-3 ¶1); none for a read-only tool, which is
        never blocked (DR-3 ¶3), and none on a run that was never interrupted (DR-3 ¶6)."""
        return None if tool.read_only else ctx.snapshot

    def reused_message(self, result: Mapping[str, object]) -> str:
        """What the model reads for a call answered from the journal (DR-3 ¶2): the
        journaled result's prose, then a note saying it was not run again."""
        return f"{self.prose_for(result)}\n{REUSED_NOTE}"

    def refuse_interrupted(
        self, ctx: PassContext, journal: Snapshot, tool: ToolSpec, args: object
    ) -> bool:
        """DR-4: refuse an identical retry of an interrupted write, only when the resumed
        run's history shows the interruption.

        Where the ledger could not be read, the journal knows nothing, and the history
        alone says which calls were interrupted: an identical retry of one it shows is
        refused all the same.  "An identical retry of an interrupted write is refused when
        the resumed run's history shows the interruption" (DR-4 ¶2) holds whatever the
        ledger read did; the failed read costs the note (DR-2 ¶5), never the history, and
        a refused retry blocks no recovery."""
        shown = signature(tool.name, args) in ctx.history_interrupted
        if not journal.ledger_read:
            return shown
        return journal.interrupted(tool.name, args) and shown

    def booked_as_run(self, ctx: PassContext, call: Call, disposition: str) -> Entry | None:
        """The ledger's record of a call answered without its body running (``reused``
        from the journal, or ``refused``): none.  The ledger holds the bodies that ran
        (DR-1 ¶1), and the journal that answered or refused the call is a pure read that
        adds no recording of its own (DR-1 ¶2)."""
        return None

    def invalid(self, args: object, tool: ToolSpec) -> str | None:
        """Why ``args`` break the tool's input schema, or ``None``."""
        if not isinstance(tool.input_schema, Mapping):
            return None
        try:
            error = jsonschema.exceptions.best_match(
                _validator(json.dumps(tool.input_schema)).iter_errors(args)
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
            raise GatePause(
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
        message = self.message_of_run(result, outcome)
        disposition, result, message = self.finish(
            ctx, call, "executed", result, message=message, ran=Entry(tool.name, args)
        )
        self.collect(ctx, call, tool, result)
        return disposition, result, message

    def message_of_run(self, result: Mapping[str, object], outcome: ToolOutcome) -> str:
        """What the model reads for a call whose body ran: its result's prose, whatever
        else the body emitted (RT-TOOL-3 ¶3)."""
        return self.prose_for(result)

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
        ran: Entry | None = None,
    ) -> tuple[str, dict[str, object], str]:
        """Record the call once it has returned, with the ``tool_done`` event of the body
        that ran (``ran``: the call as its ``tool_start`` recorded it); ``message`` is what
        the model reads, the result's prose unless given."""
        text = self.prose_for(result) if message is None else message
        stored = self.kept(result)
        with ctx.store.transaction() as conn:
            if ran is not None:
                self.record_event(
                    conn, ctx, "tool_done", ran.tool, tool_input=ran.input, result=stored
                )
            self.record(conn, ctx, call, text, stored)
        return disposition, result, text

    def kept(self, result: Mapping[str, object]) -> dict[str, object]:
        """What the ledger and the call's record keep of its result: ``success``, ``data``
        and ``error``, which a repeat re-emits (RT-TOOL-9 ¶2).  Its artifacts are not
        kept: they are delivered (or held) once, by the run that collected them, never
        again from a record."""
        return {key: result.get(key) for key in ("success", "data", "error")}

    def record(
        self,
        conn: sqlite3.Connection,
        ctx: PassContext,
        call: Call,
        message: str,
        stored: dict[str, object],
    ) -> None:
        """Record a call once it has returned (RT-TOOL-9 ¶4), keyed by its identifier so
        that the guard and the resumed history find it (RT-TOOL-9 ¶1); a call without an
        identifier cannot be recorded (RT-TOOL-9 ¶5)."""
        if call.id is not None:
            records.record_call(conn, ctx.turn_id, call.id, call.name, message, stored)
