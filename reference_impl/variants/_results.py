"""Variants of tool results, their artifacts, the prose, where a cut run's artifacts go,
and how arguments are reconciled (RT-TOOL-1 … RT-TOOL-4, RT-TOOL-8)."""

from __future__ import annotations

import html
import json
import math
import re
import sqlite3
from collections.abc import Mapping
from html.entities import html5

from reference_impl import records
from reference_impl.artifacts import RESERVED_KEY, ArtifactPolicy
from reference_impl.behaviour import Behaviour, Components
from reference_impl.normalize import Normalizer
from reference_impl.passes import ToolNode
from reference_impl.store import dumps
from reference_impl.variants._model import Variant

__all__ = ["VARIANTS"]


class _CutRunPersistsOnItsMessage(Behaviour):
    """A run cut off by a time limit or an error is not paused: what it collected is
    persisted on the last assistant message it wrote, as RT-TOOL-4 ¶1 reads literally
    (held, as for a pause, only when it wrote none)."""

    def persist_cut(
        self, conn: sqlite3.Connection, turn_id: str, run_id: str, collected: list[object]
    ) -> bool:
        row = conn.execute(
            "SELECT id, tool_artifacts FROM messages WHERE run_id = ? AND role = 'assistant'"
            " ORDER BY seq DESC LIMIT 1",
            (run_id,),
        ).fetchone()
        if row is None or not collected:
            return False
        already = json.loads(row["tool_artifacts"]) if row["tool_artifacts"] else []
        records.set_artifacts(conn, turn_id, row["id"], [*already, *collected])
        return True


class _DeclinedCallReportedAsSuccess(ToolNode):
    """A declined call is not a failure: its result succeeds, and tells the model that the
    operator declined (it carries no artifacts, as RT-TOOL-2 ¶5 requires)."""

    def declined(self, reason: str | None) -> dict[str, object]:
        return self.policy.tool_result(
            success=True,
            output={"declined": True, "reason": reason or "declined"},
            error=None,
        )


class _ProseOfItsOwn(ToolNode):
    """Feeds a successful result back as a labelled JSON rendering of its ``data``, always
    (a failure's prose is the reference's: DR-4 recognises a refusal by its text)."""

    def prose_for(self, result: Mapping[str, object]) -> str:
        if not result.get("success"):
            return super().prose_for(result)
        rendered = json.dumps(result.get("data"), ensure_ascii=False, sort_keys=True)
        return f"Tool result data: {rendered}"


class _KeptEntriesReduced(ArtifactPolicy):
    """Keeps a well-formed entry as exactly ``{type, payload}``, dropping keys of its own
    before it is attached to the tool result."""

    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, kept = super().lift(output)
        return data, [{"type": entry["type"], "payload": entry["payload"]} for entry in kept]


class _KeysInAnotherOrder(ArtifactPolicy):
    """Writes a result's keys, and a port entry's, in an order of its own."""

    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        order = [RESERVED_KEY, "error", "data", "success"]
        return {key: result[key] for key in order if key in result}

    def port_entry(
        self, entry: Mapping[str, object], tool_call_id: str | None
    ) -> dict[str, object]:
        built = super().port_entry(entry, tool_call_id)
        return {key: built[key] for key in ("tool_call_id", "payload", "type")}


class _ArgumentKeysReversed(Normalizer):
    """Hands the tool its argument maps with their keys in reverse order, at every depth."""

    def decode_leaves(self, value: object) -> object:
        decoded = super().decode_leaves(value)
        return _reversed(decoded)


def _reversed(value: object) -> object:
    if isinstance(value, Mapping):
        return {key: _reversed(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(item) for item in value]
    return value


class _RepairsEntitiesFirst(Normalizer):
    """Decodes character references first, then JSON: an escaped JSON text
    (``[&quot;a&quot;]``) for an ``array`` parameter becomes a list."""

    def normalize(self, args: object, schema: object) -> object:
        return super().normalize(self.decode_leaves(args), schema)


_REFERENCE = re.compile(r"&(#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)")


class _StrictReferences(Normalizer):
    """Decodes only references closed by a semicolon: ``fish &amp chips`` stays as it is."""

    def unescape(self, text: str) -> str:
        return _REFERENCE.sub(_one_reference, text)


def _one_reference(match: re.Match[str]) -> str:
    found = match.group(0)
    if found.startswith("&#"):
        return html.unescape(found)  # numeric, closed by ";": the HTML decoding of it
    return html5.get(found[1:], found)


class _TwoPasses(Normalizer):
    """Bounds reference decoding at two passes (and declares it): a value escaped three
    times keeps one level."""

    def __init__(self) -> None:
        super().__init__(max_passes=2)


class _UnionWithStringDecoded(Normalizer):
    """Reads a union type naming ``array`` or ``object`` beside ``string`` as declaring the
    structured shape: such a parameter's JSON text is decoded."""

    def decode_json(self, value: object, declared: set[str]) -> object:
        if declared & {"array", "object"}:
            declared = declared - {"string"}
        return super().decode_json(value, declared)


class _UnionsLeftUndecoded(Normalizer):
    """Decodes a JSON text only for a parameter whose ``type`` is the one word ``array``
    or ``object``: a union type (``["array", "null"]``) is not that word, and its text is
    passed through."""

    def decode_json(self, value: object, declared: set[str]) -> object:
        if len(declared) > 1:
            return value
        return super().decode_json(value, declared)


class _OutOfRangeNumbersParsed(Normalizer):
    """Parses a JSON number no double holds (``1e999``) as JavaScript's ``JSON.parse``
    does, to an infinity, which it then hands on as a JSON encoder writes it: null."""

    def parse_json(self, text: str) -> object:
        return json.loads(text, parse_constant=_not_json, parse_float=_finite_or_none)


def _not_json(constant: str) -> object:
    raise ValueError(f"{constant} is not JSON")


def _finite_or_none(text: str) -> float | None:
    number = float(text)
    return number if math.isfinite(number) else None


class _RepeatReEmitsItsArtifacts(ToolNode):
    """Records a call's whole result, artifacts included, so that a repeat re-emits them
    on its result (they are not collected again, so nothing is delivered twice)."""

    def kept(self, result: Mapping[str, object]) -> dict[str, object]:
        if RESERVED_KEY not in result:
            return super().kept(result)
        try:
            dumps(result)
        except (TypeError, ValueError):  # a payload that does not encode: not kept
            return super().kept(result)
        return dict(result)


class _BareValuesWrapped(ArtifactPolicy):
    """Carries a tool's return value that is not a map as ``{"result": value}`` in
    ``data``, as the rules' own example does (RT-TOOL-3: ``"data": {"result": "Created
    node 5 (draft)."}``); a map is ``data`` as it is."""

    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        wrapped = output if not success or isinstance(output, Mapping) else {"result": output}
        return super().tool_result(success=success, output=wrapped, error=error)


def _node(
    policy: type[ArtifactPolicy] | None = None, normalizer: type[Normalizer] | None = None
) -> Components:
    return Components(
        node=ToolNode(
            policy=None if policy is None else policy(),
            normalizer=None if normalizer is None else normalizer(),
        )
    )


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "bare-values-wrapped",
        "bare-value-wrapped",
        ("RT-TOOL-1#c1",),
        "a tool's return value that is not a map is the result's data as {\"result\": value}",
        lambda: _node(policy=_BareValuesWrapped),
    ),
    Variant(
        "keys-in-another-order",
        "key-order",
        ("RT-TOOL-1#c1", "RT-TOOL-3#c1", "RT-TOOL-8#c5"),
        "tool results, port entries and a tool's argument maps come with their keys in "
        "an order of their own",
        lambda: _node(policy=_KeysInAnotherOrder, normalizer=_ArgumentKeysReversed),
    ),
    Variant(
        "repeat-re-emits-its-artifacts",
        "re-emitted-artifacts",
        ("RT-TOOL-1#c2", "RT-TOOL-9#c2"),
        "a repeat's re-emitted result carries the artifacts its first execution attached",
        lambda: Components(node=_RepeatReEmitsItsArtifacts()),
    ),
    Variant(
        "kept-entries-reduced-to-type-and-payload",
        "kept-entry-keys",
        ("RT-TOOL-2#c3",),
        "a kept entry is attached as exactly {type, payload}",
        lambda: _node(policy=_KeptEntriesReduced),
    ),
    Variant(
        "declined-call-reported-as-success",
        "declined-result",
        ("RT-TOOL-2#c5", "RT-TOOL-1#c1"),
        "a declined call's result succeeds and says the operator declined",
        lambda: Components(node=_DeclinedCallReportedAsSuccess()),
    ),
    Variant(
        "prose-in-a-format-of-its-own",
        "prose-format",
        ("RT-TOOL-3#c3",),
        "a successful result is fed back to the model as a labelled JSON rendering of data",
        lambda: Components(node=_ProseOfItsOwn()),
    ),
    Variant(
        "cut-run-persists-on-its-message",
        "cut-is-not-a-pause",
        ("RT-TOOL-4#c1", "RT-TOOL-7#c1"),
        "a run cut by a time limit or an error persists what it collected on the last "
        "assistant message it wrote, instead of holding it",
        lambda: Components(behaviour=_CutRunPersistsOnItsMessage()),
    ),
    Variant(
        "entities-decoded-before-json",
        "repair-order",
        ("RT-TOOL-8#c2", "RT-TOOL-8#c4"),
        "character references are decoded before JSON strings are",
        lambda: _node(normalizer=_RepairsEntitiesFirst),
    ),
    Variant(
        "references-need-a-semicolon",
        "references-without-semicolon",
        ("RT-TOOL-8#c4", "RT-TOOL-8#c5"),
        "only character references closed by a semicolon are decoded",
        lambda: _node(normalizer=_StrictReferences),
    ),
    Variant(
        "two-decoding-passes",
        "decoding-pass-bound",
        ("RT-TOOL-8#c4",),
        "reference decoding stops after two passes, as the handshake declares",
        lambda: _node(normalizer=_TwoPasses),
    ),
    Variant(
        "union-with-string-decoded",
        "union-with-string",
        ("RT-TOOL-8#c2", "RT-TOOL-8#c3"),
        "a parameter typed [string, array] or [string, object] has its JSON text decoded",
        lambda: _node(normalizer=_UnionWithStringDecoded),
    ),
    Variant(
        "unions-left-undecoded",
        "union-types",
        ("RT-TOOL-8#c2", "RT-TOOL-8#c3"),
        "a parameter typed [array, null] or [object, integer] has its JSON text passed "
        "through: only the one word array or object declares the shape",
        lambda: _node(normalizer=_UnionsLeftUndecoded),
    ),
    Variant(
        "out-of-range-numbers-parsed",
        "out-of-range-numbers",
        ("RT-TOOL-8#c2", "RT-TOOL-8#c3"),
        "a JSON number too large for a double is parsed, as JavaScript does, not refused",
        lambda: _node(normalizer=_OutOfRangeNumbersParsed),
    ),
)
