"""RT-TOOL-8's examples as vectors: sent arguments, and what reaches the tool; an example
without an outcome block is judged as the rule text decides."""

from __future__ import annotations

import json
from collections.abc import Mapping

from conformance.checks.rt_tool_8._argument_cases import Reconcile
from conformance.checks.rt_tool_8._channels import TEXT_KEPT
from conformance.checks.rt_tool_8.checks import judge_arguments
from conformance.toolkit import (
    BODY_GETS_THE_RECONCILIATION,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    mapping,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-8's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-8", "sent"): "input",
    ("RT-TOOL-8", "decoded"): "outcome",
}


def _declared(schema_types: Mapping[str, str]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {name: {"type": kind} for name, kind in schema_types.items()},
    }


def _kind(value: object) -> str:
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else "string"


def _decoded(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-8: sent arguments -> what reaches the tool (the schema declares each
    parameter with the shape of its decoded value)."""
    sent, expected = mapping(run.value("sent")), mapping(run.value("decoded"))
    schema = _declared({key: _kind(value) for key, value in expected.items()})
    judge_arguments(
        ctx,
        "vector-sent-decoded",
        Reconcile(schema, dict(sent), dict(expected)),
        "RT-TOOL-8 ¶4: the example's decoded arguments",
    )


def _untouched(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-8 without an outcome block: the rule text decides.  For every declared type
    under which a string argument fails a decoding condition, it passes through."""
    sent = mapping(run.value("sent"))
    for key, value in sent.items():
        if not isinstance(value, str) or "&" in value:
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        failing = ["string", "array", "object"]
        if isinstance(parsed, list):
            failing.remove("array")
        if isinstance(parsed, dict):
            failing.remove("object")
        for kind in failing:
            judge_arguments(
                ctx,
                f"vector-sent-{kind}",
                Reconcile(_declared({key: kind}), {key: value}, {key: value}),
                f"RT-TOOL-8 ¶3: declared {kind}, the argument fails a decoding condition and "
                "passes through unmodified",
            )


BINDINGS = (
    Binding(
        "RT-TOOL-8",
        ("sent", "decoded"),
        ("RT-TOOL-8#c4",),
        _decoded,
        (BODY_GETS_THE_RECONCILIATION, TEXT_KEPT),
    ),
    Binding("RT-TOOL-8", ("sent",), ("RT-TOOL-8#c3",), _untouched),
)
