"""Mutants of the tool result and its reserved key (RT-TOOL-1, RT-TOOL-2)."""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.artifacts import ArtifactPolicy
from reference_impl.mutants._model import Mutant, with_node
from reference_impl.passes import Call, PassContext, ToolNode
from reference_impl.workflow import ToolSpec

__all__ = ["MUTANTS"]


class _ResultMissingErrorKey(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if success:  # "no error" is left out rather than said
            del result["error"]
        return result


class _EmptyArtifactsKeyAlways(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if success:
            result.setdefault("artifacts", [])
        return result


class _ArtifactFoldedIntoData(ArtifactPolicy):
    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        if kept and isinstance(data, Mapping):
            data = {**data, "attachments": kept}
        return data, kept


class _ReservedKeyKeepsFirstEntry(ArtifactPolicy):
    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        return data, kept[:1]


class _ArtifactsChannelLostWhenPortExposed(ToolNode):
    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        # An exposed port is taken for an ordinary output: nothing is collected from it.
        if not tool.expose_artifacts_port:
            super().collect(ctx, call, tool, result)


class _PayloadShapeUnchecked(ArtifactPolicy):
    def well_formed(self, entry: object) -> bool:
        return (
            isinstance(entry, Mapping) and isinstance(entry.get("type"), str) and "payload" in entry
        )


class _ReservedKeyKeptWhenNothingValid(ArtifactPolicy):
    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        return (data if kept else output), kept


class _FailedCallKeepsArtifacts(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if not success:
            _, lifted = self.lift(output)
            if lifted:
                result["artifacts"] = lifted
        return result


class _DeclinedCallRunsAnyway(ToolNode):
    """Runs the body of a call the operator declined and keeps what it attached."""

    def dispatch(
        self, ctx: PassContext, call: Call, tool: ToolSpec, args: object
    ) -> tuple[str, dict[str, object], str]:
        disposition, result, message = super().dispatch(ctx, call, tool, args)
        if disposition != "declined":
            return disposition, result, message
        outcome = ctx.world.invoke(tool.name, args, call.id, turn_id=ctx.turn_id, run_id=ctx.run_id)
        _, lifted = self.policy.lift(outcome.output)
        if lifted:
            result = {**result, "artifacts": lifted}
            self.collect(ctx, call, tool, result)
        return disposition, result, message


MUTANTS = (
    Mutant(
        "result-missing-error-key",
        ("RT-TOOL-1#c1",),
        "a successful tool result leaves out its `error` key",
        with_node(policy=_ResultMissingErrorKey),
    ),
    Mutant(
        "empty-artifacts-key-always",
        ("RT-TOOL-1#c2",),
        "every successful result carries `artifacts`, empty when nothing was attached",
        with_node(policy=_EmptyArtifactsKeyAlways),
    ),
    Mutant(
        "artifact-folded-into-data",
        ("RT-TOOL-1#c3",),
        "attached artifacts are also copied into the result's `data`",
        with_node(policy=_ArtifactFoldedIntoData),
    ),
    Mutant(
        "reserved-key-keeps-first-entry",
        ("RT-TOOL-2#c1",),
        "only the first entry of the reserved `artifacts` list is attached",
        with_node(policy=_ReservedKeyKeepsFirstEntry),
    ),
    Mutant(
        "artifacts-channel-lost-when-port-exposed",
        ("RT-TOOL-2#c2",),
        "a tool whose `artifacts` port the author exposed has its entries collected by nobody",
        with_node(_ArtifactsChannelLostWhenPortExposed),
    ),
    Mutant(
        "artifact-payload-shape-unchecked",
        ("RT-TOOL-2#c3",),
        "an entry whose payload is not a map is kept instead of dropped",
        with_node(policy=_PayloadShapeUnchecked),
    ),
    Mutant(
        "reserved-key-kept-when-nothing-valid",
        ("RT-TOOL-2#c4",),
        "when no entry on the reserved key is valid, the key stays in `data`",
        with_node(policy=_ReservedKeyKeptWhenNothingValid),
    ),
    Mutant(
        "failed-call-keeps-artifacts",
        ("RT-TOOL-2#c5",),
        "a failed call still attaches (and delivers) what its node emitted",
        with_node(policy=_FailedCallKeepsArtifacts),
    ),
    Mutant(
        "declined-call-runs-anyway",
        ("RT-TOOL-2#c5",),
        "a call the operator declined still runs, and keeps (and delivers) what it attached",
        with_node(_DeclinedCallRunsAnyway),
    ),
)
