"""Mutants of how a call's arguments are reconciled and how repeats are guarded
(RT-TOOL-8, RT-TOOL-9)."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import replace

from adapters.limits import TooDeep
from reference_impl.journal import signature
from reference_impl.mutants._model import Mutant, with_node
from reference_impl.normalize import Normalizer
from reference_impl.passes import Call, GatePause, PassContext, PassResult, ToolNode
from reference_impl.workflow import ToolSpec

__all__ = ["MUTANTS"]

_SHAPES = frozenset({"array", "object"})


class _RawArgumentsReachTool(ToolNode):
    def execute(
        self, ctx: PassContext, call: Call, tool: ToolSpec, args: object
    ) -> tuple[str, dict[str, object], str]:
        # The reconciled arguments are validated and reported; the body gets the raw ones.
        return super().execute(ctx, call, tool, call.args)


class _JsonStringsNeverDecoded(Normalizer):
    def decode_json(self, value: object, declared: set[str]) -> object:
        return value


class _JsonShapeNotMatched(Normalizer):
    def decode_json(self, value: object, declared: set[str]) -> object:
        # A parameter declared either shape takes whichever shape the string parses to.
        return super().decode_json(value, declared | _SHAPES if declared & _SHAPES else declared)


class _DeclaredTypesKeptByParameterName(Normalizer):
    """Works out once, by parameter name, what a parameter is declared as: the first tool
    whose schema declares a name decides it for every tool of the workflow."""

    def __init__(self) -> None:
        super().__init__()
        self._known: dict[str, object] = {}

    def normalize(self, args: object, schema: object) -> object:
        properties = schema.get("properties") if isinstance(schema, Mapping) else None
        if isinstance(properties, Mapping) and isinstance(schema, Mapping):
            kept = {name: self._known.setdefault(name, value) for name, value in properties.items()}
            schema = {**schema, "properties": kept}
        return super().normalize(args, schema)


class _KeysEntityDecoded(Normalizer):
    def decode_leaves(self, value: object) -> object:
        if isinstance(value, Mapping):
            value = {self.decode_text(k) if isinstance(k, str) else k: v for k, v in value.items()}
        return super().decode_leaves(value)


class _ExecutedCallsNotGuarded(ToolNode):
    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        return None


class _GuardKeyedGlobally(ToolNode):
    def recorded(self, ctx: PassContext, call: Call) -> tuple[str, str, dict[str, object]] | None:
        # The record is looked up by identifier alone, in every turn of every conversation.
        rows = ctx.store.read().execute("SELECT DISTINCT turn_id FROM executed_calls").fetchall()
        for (turn_id,) in rows:
            stored = super().recorded(replace(ctx, turn_id=turn_id), call)
            if stored is not None:
                return stored
        return None


class _RepeatLeftOutOfOutcome(ToolNode):
    def outcome(self, results: list[dict[str, object]]) -> dict[str, object]:
        return super().outcome([r for r in results if r["disposition"] != "skipped"])


class _FailuresHiddenByASuccess(ToolNode):
    def outcome(self, results: list[dict[str, object]]) -> dict[str, object]:
        counted = super().outcome(results)
        return {**counted, "failed": 0} if counted["succeeded"] else counted


class _RepeatMessageDropped(ToolNode):
    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        ports = result.record.get("ports")
        skipped = ports.get("skipped") if isinstance(ports, dict) else None
        if not isinstance(skipped, list) or not skipped:
            return result
        messages = [m for m in result.tool_messages if m.get("tool_call_id") not in skipped]
        shown = [{"tool_call_id": m["tool_call_id"], "content": m["content"]} for m in messages]
        return replace(
            result, tool_messages=messages, record={**result.record, "tool_messages": shown}
        )


class _GatedCallRecordedBeforeApproval(ToolNode):
    def consent(self, ctx: PassContext, call: Call, args: object) -> tuple[str, str | None]:
        try:
            return super().consent(ctx, call, args)
        except GatePause:
            awaiting: dict[str, object] = {
                "success": False,
                "data": None,
                "error": "awaiting approval",
            }
            with ctx.store.transaction() as conn:  # recorded as it is asked for, not run
                self.record(conn, ctx, call, "Awaiting the operator's approval.", awaiting)
            raise


class _CallWithoutIdGuardedByContent(ToolNode):
    """Guards a call without an identifier by its name and arguments instead."""

    def handle(self, ctx: PassContext, call: Call) -> tuple[str, dict[str, object], str, object]:
        if call.id is not None:
            return super().handle(ctx, call)
        content = hashlib.sha256(signature(call.name, call.args).encode()).hexdigest()
        keyed = Call(call.name, call.args, f"content:{content}")
        stored = self.recorded(ctx, keyed)
        if stored is not None:
            _tool, message, result = stored
            return "skipped", result, message, None
        disposition, result, message, arguments = super().handle(ctx, call)
        with ctx.store.transaction() as conn:
            self.record(conn, ctx, keyed, message, self.kept(result))
        return disposition, result, message, arguments


class _NumericCallIdFailsRun(ToolNode):
    def call_id(self, value: object) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool):
            raise TypeError(f"call identifier {value!r} is not text")  # escapes the run
        return super().call_id(value)


class _JsonDecodedRegardlessOfSchema(Normalizer):
    def decode_json(self, value: object, declared: set[str]) -> object:
        # Any JSON text that parses to a list or a map is decoded, whatever was declared.
        return super().decode_json(value, set(_SHAPES))


def _finite_or_none(text: str) -> float | None:
    number = float(text)
    return number if math.isfinite(number) else None


def _null(constant: str) -> None:
    return None


class _NonJsonAcceptedAsJson(Normalizer):
    """Parses leniently: NaN and the infinities as null, single quotes as double."""

    def parse_json(self, text: str) -> object:
        try:
            return json.loads(text, parse_constant=_null, parse_float=_finite_or_none)
        except ValueError:
            quoted = text.replace("'", '"')
            return json.loads(quoted, parse_constant=_null, parse_float=_finite_or_none)


class _DecodedArgumentParsedAgain(Normalizer):
    def decode_json(self, value: object, declared: set[str]) -> object:
        if not isinstance(value, str) and declared & _SHAPES:
            # A list or map already sent is handed to the parser too: a TypeError.
            return self.parse_json(value)  # type: ignore[arg-type]
        return super().decode_json(value, declared)


class _UnparsableArgumentFailsRun(Normalizer):
    def parse_json(self, text: str) -> object:
        try:
            return super().parse_json(text)
        except ValueError as err:
            raise RuntimeError("an argument is not JSON") from err  # escapes the run


class _TooDeepArgumentFailsRun(Normalizer):
    def parse_json(self, text: str) -> object:
        try:
            return super().parse_json(text)
        except TooDeep as err:
            raise RuntimeError("an argument nests too deep") from err  # escapes the run


class _PlainTextTrimmed(Normalizer):
    def decode_text(self, text: str) -> str:
        return super().decode_text(text).strip()  # a clean-up the rule does not allow


MUTANTS = (
    Mutant(
        "raw-arguments-reach-tool",
        ("RT-TOOL-8#c1",),
        "the tool body runs with the model's raw arguments, not the reconciled ones",
        with_node(_RawArgumentsReachTool),
        hunted=True,
    ),
    Mutant(
        "json-string-arguments-never-decoded",
        ("RT-TOOL-8#c2",),
        "a JSON string for an `array` or `object` parameter is never decoded",
        with_node(normalizer=_JsonStringsNeverDecoded),
    ),
    Mutant(
        "json-shape-not-matched",
        ("RT-TOOL-8#c3",),
        "a JSON string is decoded even when it parses to the other shape",
        with_node(normalizer=_JsonShapeNotMatched),
    ),
    Mutant(
        "declared-types-kept-by-parameter-name",
        ("RT-TOOL-8#c2", "RT-TOOL-8#c3"),
        "what a parameter is declared as is worked out once by its name, so the first tool "
        "declaring a name decides it for another tool declaring it otherwise",
        with_node(normalizer=_DeclaredTypesKeptByParameterName),
    ),
    Mutant(
        "entities-decoded-once",
        ("RT-TOOL-8#c4",),
        "character references are decoded in one pass, so a doubly-escaped value stays escaped",
        with_node(normalizer=lambda: Normalizer(max_passes=1)),
    ),
    Mutant(
        "keys-entity-decoded",
        ("RT-TOOL-8#c5",),
        "argument keys have their character references decoded too",
        with_node(normalizer=_KeysEntityDecoded),
    ),
    Mutant(
        "executed-calls-not-guarded",
        ("RT-TOOL-9#c1",),
        "a call whose identifier already ran in the turn is invoked again",
        with_node(_ExecutedCallsNotGuarded),
        hunted=True,
    ),
    Mutant(
        "guard-keyed-globally",
        ("RT-TOOL-9#c1",),
        "the repeat guard is keyed by call identifier alone, so a call of one conversation "
        "is skipped when another conversation ran a call with the same identifier",
        with_node(_GuardKeyedGlobally),
    ),
    Mutant(
        "repeat-left-out-of-outcome",
        ("RT-TOOL-9#c2",),
        "a skipped repeat is not counted in the batch's outcome",
        with_node(_RepeatLeftOutOfOutcome),
        hunted=True,
    ),
    Mutant(
        "failures-hidden-by-a-success",
        ("RT-TOOL-9#c2",),
        "a batch's outcome counts no failures once one of its calls succeeded",
        with_node(_FailuresHiddenByASuccess),
    ),
    Mutant(
        "repeat-message-dropped",
        ("RT-TOOL-9#c3",),
        "a skipped repeat's stored tool message is dropped instead of re-emitted",
        with_node(_RepeatMessageDropped),
    ),
    Mutant(
        "gated-call-recorded-before-approval",
        ("RT-TOOL-9#c4",),
        "a gated call is recorded when it pauses for approval, so it is skipped once approved",
        with_node(_GatedCallRecordedBeforeApproval),
        hunted=True,
    ),
    Mutant(
        "call-without-id-guarded-by-content",
        ("RT-TOOL-9#c5",),
        "a call without an identifier is guarded by its name and arguments",
        with_node(_CallWithoutIdGuardedByContent),
        hunted=True,
    ),
    Mutant(
        "numeric-call-id-fails-the-run",
        ("RT-TOOL-9#c5",),
        "a call whose identifier is a number fails the run instead of running",
        with_node(_NumericCallIdFailsRun),
    ),
    Mutant(
        "json-decoded-regardless-of-schema",
        ("RT-TOOL-8#c3",),
        "any JSON text that parses to a list or a map is decoded, whatever the schema declares",
        with_node(normalizer=_JsonDecodedRegardlessOfSchema),
    ),
    Mutant(
        "non-json-accepted-as-json",
        ("RT-TOOL-8#c3",),
        "text JSON does not parse (NaN, Infinity, single quotes) is decoded leniently",
        with_node(normalizer=_NonJsonAcceptedAsJson),
    ),
    Mutant(
        "decoded-argument-parsed-again",
        ("RT-TOOL-8#c3",),
        "a list or map sent for an `array` or `object` parameter is parsed as JSON text, "
        "which fails the run",
        with_node(normalizer=_DecodedArgumentParsedAgain),
    ),
    Mutant(
        "unparsable-argument-fails-the-run",
        ("RT-TOOL-8#c3",),
        "a string for an `array` or `object` parameter that does not parse as JSON fails "
        "the run instead of passing through",
        with_node(normalizer=_UnparsableArgumentFailsRun),
    ),
    Mutant(
        "too-deep-argument-fails-the-run",
        ("RT-TOOL-8#c3",),
        "a JSON string nested past the protocol's nesting limit fails the run instead of "
        "passing through",
        with_node(normalizer=_TooDeepArgumentFailsRun),
    ),
    Mutant(
        "plain-text-whitespace-trimmed",
        ("RT-TOOL-8#c5",),
        "every string argument is trimmed of surrounding whitespace",
        with_node(normalizer=_PlainTextTrimmed),
    ),
)
