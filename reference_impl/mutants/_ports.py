"""Mutants of the tool node's ports and prose (RT-TOOL-3, RT-TOOL-10)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import replace

from reference_impl.artifacts import ArtifactPolicy
from reference_impl.journal import Entry
from reference_impl.mutants._model import Mutant, with_node
from reference_impl.normalize import Normalizer
from reference_impl.passes import Call, PassContext, PassResult, ToolNode
from reference_impl.workflow import ToolOutcome, ToolSpec, Workflow

__all__ = ["MUTANTS"]


def _with_ports(result: PassResult, **changes: object) -> PassResult:
    """``result`` with some of its port values replaced."""
    ports = result.record.get("ports")
    assert isinstance(ports, dict)
    return replace(result, record={**result.record, "ports": {**ports, **changes}})


def _port(result: PassResult, name: str) -> object:
    ports = result.record.get("ports")
    return ports.get(name) if isinstance(ports, dict) else None


def _entries(result: PassResult) -> list[Mapping[str, object]]:
    listed = result.record.get("results")
    return [r for r in listed if isinstance(r, Mapping)] if isinstance(listed, list) else []


class _ToolCallIdFromToolEntry(ArtifactPolicy):
    def port_entry(
        self, entry: Mapping[str, object], tool_call_id: str | None
    ) -> dict[str, object]:
        built = super().port_entry(entry, tool_call_id)
        if "tool_call_id" in entry:
            built["tool_call_id"] = entry["tool_call_id"]  # the tool's own word wins
        return built


class _ArtifactsPortExposedByDefault(ToolNode):
    def exposed(self, workflow: Workflow) -> dict[str, bool]:
        exposed = super().exposed(workflow)
        exposed["tool_artifacts"] = bool(workflow.expose.get("tool_artifacts", True))
        return exposed


class _ArtifactInModelProse(ToolNode):
    def prose_for(self, result: Mapping[str, object]) -> str:
        text = super().prose_for(result)
        attached = result.get("artifacts")
        return f"{text} {json.dumps(attached, sort_keys=True)}" if attached else text


class _ArtifactsWithheldWhenPortExposed(ToolNode):
    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        if not self.exposed(ctx.workflow).get("tool_artifacts"):
            super().collect(ctx, call, tool, result)


class _ExecutedListsSkippedCalls(ToolNode):
    def ports(
        self,
        drained: list[dict[str, object]],
        executed_any: bool,
        executed: list[str],
        skipped: list[str],
    ) -> dict[str, object]:
        return super().ports(drained, executed_any, [*executed, *skipped], skipped)


class _UnwiredCallNotCountedAsWork(ToolNode):
    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        entries = _entries(result)
        unwired = {e.get("tool_call_id") for e in entries if e.get("disposition") == "unknown_tool"}
        if not unwired:
            return result
        executed = _port(result, "executed")
        return _with_ports(
            result,
            executed=[i for i in executed if i not in unwired]
            if isinstance(executed, list)
            else executed,
            executed_any=any(
                e.get("disposition") not in ("skipped", "unknown_tool") for e in entries
            ),
        )


class _UnwiredCallReportedAsSuccess(ToolNode):
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
        if disposition == "unknown_tool":
            result = {**result, "success": True}  # nothing tells the model to re-plan
        return super().finish(ctx, call, disposition, result, message=message, ran=ran)


class _RepeatsCountedAsWork(ToolNode):
    """``executed_any`` from "the pass emitted results": the loop the rule warns of."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        return _with_ports(result, executed_any=bool(_entries(result)))


class _EmptyBatchReportsWork(ToolNode):
    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        return result if batch else _with_ports(result, executed_any=True)


class _CallWithoutIdGivenFreshId(ToolNode):
    def parse_call(self, raw: object) -> Call | None:
        call = super().parse_call(raw)
        if call is not None and call.id is None:
            return Call(call.name, call.args, f"auto-{uuid.uuid4().hex}")
        return call


class _ExecutedPortExposedByDefault(ToolNode):
    def exposed(self, workflow: Workflow) -> dict[str, bool]:
        exposed = super().exposed(workflow)
        exposed["executed"] = bool(workflow.expose.get("executed", True))
        return exposed


class _PortEntriesCopiedWhole(ArtifactPolicy):
    def port_entry(
        self, entry: Mapping[str, object], tool_call_id: str | None
    ) -> dict[str, object]:
        # copied, then the real id set: a tool's own keys ride along
        return {**entry, "tool_call_id": tool_call_id}


class _PairedWithTheRunsFirstCall(ToolNode):
    """Pairs every port entry with the first call identifier the run saw."""

    def __init__(
        self, policy: ArtifactPolicy | None = None, normalizer: Normalizer | None = None
    ) -> None:
        super().__init__(policy, normalizer)
        self._first: dict[str, str | None] = {}

    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        first = self._first.setdefault(ctx.run_id, call.id)
        super().collect(ctx, Call(call.name, call.args, first), tool, result)


class _ProseCountsAttachments(ToolNode):
    def prose_for(self, result: Mapping[str, object]) -> str:
        text = super().prose_for(result)
        attached = result.get("artifacts")
        return f"{text} ({len(attached)} attached)" if isinstance(attached, list) else text


class _FailureProseCarriesRawOutput(ToolNode):
    """A failed call's prose quotes what its node emitted, artifacts included."""

    def message_of_run(self, result: Mapping[str, object], outcome: ToolOutcome) -> str:
        message = super().message_of_run(result, outcome)
        if outcome.error is None or outcome.output is None:
            return message
        said = json.dumps(outcome.output, default=str, sort_keys=True)
        return f"{message} (the tool said: {said})"


class _WithheldOnceExposureIsChosen(ToolNode):
    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        # An author who made any choice about the port is taken to consume it themselves.
        if "tool_artifacts" not in ctx.workflow.expose:
            super().collect(ctx, call, tool, result)


class _SameNameCallsShareProse(ToolNode):
    """When two calls of one batch name the same tool, the second call's prose mentions
    the first call's artifacts."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        self._seen: dict[str, object] = {}
        return super().run_pass(ctx, batch)

    def handle(self, ctx: PassContext, call: Call) -> tuple[str, dict[str, object], str, object]:
        disposition, result, message, arguments = super().handle(ctx, call)
        earlier = self._seen.get(call.name)
        if earlier:
            message = f"{message} (see also {json.dumps(earlier)})"
        self._seen[call.name] = result.get("artifacts")
        return disposition, result, message, arguments


MUTANTS = (
    Mutant(
        "tool-call-id-from-tool-entry",
        ("RT-TOOL-3#c1",),
        "a port entry takes the `tool_call_id` the tool wrote instead of the real one",
        with_node(policy=_ToolCallIdFromToolEntry),
        hunted=True,
    ),
    Mutant(
        "artifacts-port-exposed-by-default",
        ("RT-TOOL-3#c2",),
        "`tool_artifacts` is exposed when the author made no choice",
        with_node(_ArtifactsPortExposedByDefault),
    ),
    Mutant(
        "artifact-in-model-prose",
        ("RT-TOOL-3#c3",),
        "the prose fed back to the model mentions the result's artifacts",
        with_node(_ArtifactInModelProse),
    ),
    Mutant(
        "artifacts-withheld-when-port-exposed",
        ("RT-TOOL-3#c4",),
        "when the author exposes `tool_artifacts`, the run's artifacts are not delivered",
        with_node(_ArtifactsWithheldWhenPortExposed),
    ),
    Mutant(
        "executed-lists-skipped-calls",
        ("RT-TOOL-10#c1",),
        "`executed` also lists the calls reported on `skipped`",
        with_node(_ExecutedListsSkippedCalls),
    ),
    Mutant(
        "unwired-call-not-counted-as-work",
        ("RT-TOOL-10#c2",),
        "a call naming a tool that is not wired leaves `executed_any` false",
        with_node(_UnwiredCallNotCountedAsWork),
    ),
    Mutant(
        "unwired-call-reported-as-success",
        ("RT-TOOL-10#c2",),
        "a call naming a tool that is not wired gets a result with `success` true",
        with_node(_UnwiredCallReportedAsSuccess),
    ),
    Mutant(
        "repeats-counted-as-work",
        ("RT-TOOL-10#c2",),
        "a pass of nothing but repeats reports `executed_any` true because it re-emitted results",
        with_node(_RepeatsCountedAsWork),
        hunted=True,
    ),
    Mutant(
        "empty-batch-reports-work",
        ("RT-TOOL-10#c3",),
        "an empty batch reports `executed_any` true",
        with_node(_EmptyBatchReportsWork),
    ),
    Mutant(
        "call-without-id-given-fresh-id",
        ("RT-TOOL-10#c4",),
        "a call without an identifier gets a made-up one and shows up in `executed`",
        with_node(_CallWithoutIdGivenFreshId),
    ),
    Mutant(
        "executed-port-exposed-by-default",
        ("RT-TOOL-10#c5",),
        "`executed` is exposed when the author made no choice",
        with_node(_ExecutedPortExposedByDefault),
    ),
    Mutant(
        "port-entries-copied-whole",
        ("RT-TOOL-3#c1",),
        "a port entry is the tool's entry copied whole, its own keys riding along",
        with_node(policy=_PortEntriesCopiedWhole),
    ),
    Mutant(
        "port-entries-paired-with-the-runs-first-call",
        ("RT-TOOL-3#c1",),
        "every port entry is paired with the first call identifier the run saw",
        with_node(_PairedWithTheRunsFirstCall),
    ),
    Mutant(
        "prose-counts-attachments",
        ("RT-TOOL-3#c3",),
        "the prose fed back to the model says how many artifacts the result carries",
        with_node(_ProseCountsAttachments),
    ),
    Mutant(
        "failure-prose-carries-raw-output",
        ("RT-TOOL-3#c3",),
        "a failed call's prose quotes what its node emitted, artifacts included",
        with_node(_FailureProseCarriesRawOutput),
    ),
    Mutant(
        "artifacts-withheld-once-exposure-is-chosen",
        ("RT-TOOL-3#c4",),
        "once the author makes any choice about `tool_artifacts`, nothing is delivered",
        with_node(_WithheldOnceExposureIsChosen),
    ),
    Mutant(
        "same-name-calls-share-prose",
        ("RT-TOOL-3#c3",),
        "the second of two calls to one tool in a batch mentions the first call's "
        "artifacts in its prose",
        with_node(_SameNameCallsShareProse),
    ),
)
