"""Mutants of the tool result and its reserved key (RT-TOOL-1, RT-TOOL-2)."""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.artifacts import RESERVED_KEY, ArtifactPolicy
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


class _FailedResultWithoutData(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if not success:  # "no data" is left out rather than said
            del result["data"]
        return result


class _FalsyDataAsNull(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        result["data"] = result["data"] or None  # a truthiness test where a null test belongs
        return result


class _RepeatResultMarkedSkipped(ToolNode):
    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        stored = super().recorded(ctx, call)
        if stored is None:
            return None
        tool, message, result = stored
        return tool, message, {**result, "skipped": True}  # the repeat annotated on its result


class _SingleArtifactNotInAList(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        attached = result.get("artifacts")
        if isinstance(attached, list) and len(attached) == 1:
            result["artifacts"] = attached[0]
        return result


class _SeveralArtifactsKeyedByType(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        attached = result.get("artifacts")
        if isinstance(attached, list) and len(attached) > 1:
            # stored as a framework stores named artifacts: one payload per type
            result["artifacts"] = {str(entry["type"]): entry["payload"] for entry in attached}
        return result


def _lift_nested(value: object, kept: list[dict[str, object]], policy: ArtifactPolicy) -> object:
    if isinstance(value, Mapping):
        out: dict[str, object] = {}
        for key, item in value.items():
            if key == RESERVED_KEY and isinstance(item, list):
                kept += [dict(entry) for entry in item if policy.well_formed(entry)]
                continue
            out[key] = _lift_nested(item, kept, policy)
        return out
    if isinstance(value, list):
        return [_lift_nested(item, kept, policy) for item in value]
    return value


class _NestedArtifactsKeyLifted(ArtifactPolicy):
    """Treats an `artifacts` key at any depth of the output as the reserved one."""

    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        data = _lift_nested(data, kept, self)
        return data, kept


class _DataKeysBeforeReservedOneDropped(ArtifactPolicy):
    """Lifting the reserved key keeps only the keys of `data` that sort after it."""

    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        if isinstance(output, Mapping) and RESERVED_KEY in output and isinstance(data, Mapping):
            data = {key: value for key, value in data.items() if str(key) > RESERVED_KEY}
        return data, kept


class _DataEndsAtTheReservedKey(ArtifactPolicy):
    """Reads `data` from the output up to the reserved key, as if the tool wrote its data
    first: the keys written after `artifacts` are lost."""

    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        if isinstance(output, Mapping) and RESERVED_KEY in output:
            keys = list(output)
            data = {key: output[key] for key in keys[: keys.index(RESERVED_KEY)]}
        return data, kept


class _ChannelFilteredByExposure(ToolNode):
    """Passes a tool's `artifacts` output on only when the author exposed that port."""

    def execute(
        self, ctx: PassContext, call: Call, tool: ToolSpec, args: object
    ) -> tuple[str, dict[str, object], str]:
        disposition, result, message = super().execute(ctx, call, tool, args)
        if not tool.expose_artifacts_port:
            result = {key: value for key, value in result.items() if key != "artifacts"}
        return disposition, result, message

    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        if tool.expose_artifacts_port:
            super().collect(ctx, call, tool, result)


class _MalformedEntryFailsCall(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        if success and isinstance(output, Mapping) and RESERVED_KEY in output:
            raw = output[RESERVED_KEY]
            if not isinstance(raw, list) or not all(self.well_formed(e) for e in raw):
                return super().tool_result(
                    success=False, output=None, error="malformed artifacts on the reserved key"
                )
        return super().tool_result(success=success, output=output, error=error)


class _ReservedKeyEmptiedNotRemoved(ArtifactPolicy):
    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        if isinstance(output, Mapping) and RESERVED_KEY in output and isinstance(data, dict):
            data = {**data, RESERVED_KEY: []}  # its entries taken, the key left behind
        return data, kept


class _FailedResultKeepsRawOutput(ArtifactPolicy):
    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if not success and output is not None:
            result["data"] = output  # what the node emitted, reserved key and all
        return result


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
        hunted=True,
    ),
    Mutant(
        "artifact-folded-into-data",
        ("RT-TOOL-1#c3",),
        "attached artifacts are also copied into the result's `data`",
        with_node(policy=_ArtifactFoldedIntoData),
        hunted=True,
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
        hunted=True,
    ),
    Mutant(
        "declined-call-runs-anyway",
        ("RT-TOOL-2#c5",),
        "a call the operator declined still runs, and keeps (and delivers) what it attached",
        with_node(_DeclinedCallRunsAnyway),
    ),
    Mutant(
        "failed-result-without-data",
        ("RT-TOOL-1#c1",),
        "a failed call's result leaves out its `data` key",
        with_node(policy=_FailedResultWithoutData),
    ),
    Mutant(
        "falsy-data-reported-as-null",
        ("RT-TOOL-1#c1",),
        "a tool output that is false, 0, an empty string, list or map becomes null `data`",
        with_node(policy=_FalsyDataAsNull),
    ),
    Mutant(
        "repeat-result-marked-skipped",
        ("RT-TOOL-1#c1",),
        "a repeat's re-emitted result carries a `skipped` key of its own",
        with_node(_RepeatResultMarkedSkipped),
    ),
    Mutant(
        "single-artifact-not-in-a-list",
        ("RT-TOOL-1#c2",),
        "a result with exactly one artifact attached carries it bare, not in a list",
        with_node(policy=_SingleArtifactNotInAList),
    ),
    Mutant(
        "several-artifacts-keyed-by-type",
        ("RT-TOOL-1#c2",),
        "a result with several artifacts attached carries them as a map from type to "
        "payload, not a list",
        with_node(policy=_SeveralArtifactsKeyedByType),
    ),
    Mutant(
        "nested-artifacts-key-lifted",
        ("RT-TOOL-1#c3",),
        "an `artifacts` key nested inside `data` is taken for the reserved key and lifted",
        with_node(policy=_NestedArtifactsKeyLifted),
    ),
    Mutant(
        "data-keys-before-the-reserved-one-dropped",
        ("RT-TOOL-1#c3",),
        "attaching artifacts drops the keys of `data` that sort before `artifacts`",
        with_node(policy=_DataKeysBeforeReservedOneDropped),
    ),
    Mutant(
        "data-ends-at-the-reserved-key",
        ("RT-TOOL-1#c3",),
        "attaching artifacts keeps only the keys the tool wrote before `artifacts`",
        with_node(policy=_DataEndsAtTheReservedKey),
    ),
    Mutant(
        "artifacts-channel-filtered-by-exposure",
        ("RT-TOOL-2#c2",),
        "a tool's `artifacts` output is passed on only when the author exposed that port",
        with_node(_ChannelFilteredByExposure),
    ),
    Mutant(
        "malformed-entry-fails-call",
        ("RT-TOOL-2#c3",),
        "a malformed entry on the reserved key fails the whole call",
        with_node(policy=_MalformedEntryFailsCall),
    ),
    Mutant(
        "reserved-key-emptied-not-removed",
        ("RT-TOOL-2#c4",),
        "the reserved key's entries are taken but the key stays in `data`, empty",
        with_node(policy=_ReservedKeyEmptiedNotRemoved),
    ),
    Mutant(
        "failed-result-keeps-raw-output",
        ("RT-TOOL-2#c4",),
        "a failed call's `data` is what its node emitted, reserved key included",
        with_node(policy=_FailedResultKeepsRawOutput),
    ),
)
