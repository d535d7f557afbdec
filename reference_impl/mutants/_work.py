"""Mutants of how a pass reports its work, and which calls reach the guard (RT-TOOL-10)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from reference_impl.mutants._model import Mutant, with_node
from reference_impl.passes import PassContext, PassResult, ToolNode

__all__ = ["MUTANTS"]


def _with_work(result: PassResult, executed_any: bool) -> PassResult:
    ports = result.record.get("ports")
    assert isinstance(ports, dict)
    record = {**result.record, "ports": {**ports, "executed_any": executed_any}}
    return replace(result, record=record)


class _WorkMeansASuccess(ToolNode):
    """``executed_any`` only when a call handled for the first time succeeded."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        listed = result.record.get("results")
        succeeded = any(
            r.get("disposition") != "skipped"
            and isinstance(r.get("result"), Mapping)
            and r["result"].get("success") is True
            for r in (listed if isinstance(listed, list) else [])
        )
        return _with_work(result, succeeded)


class _MalformedCallsCountedAsWork(ToolNode):
    """``executed_any`` also when the batch held a call dropped as malformed."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        malformed = any(self.parse_call(raw) is None for raw in batch)
        ports = result.record.get("ports")
        worked = isinstance(ports, dict) and ports.get("executed_any") is True
        return _with_work(result, worked or malformed)


class _WhitespaceNameReachesTheGuard(ToolNode):
    """Only the empty string is a blank name: a name of spaces is looked up as a tool."""

    def call_name(self, value: object) -> str | None:
        return value if isinstance(value, str) and value else super().call_name(value)


class _MalformedCallEndsTheBatch(ToolNode):
    """The first malformed call ends the pass: the calls after it are never handled."""

    def rest_of_batch_after_malformed(self) -> bool:
        return False


class _NumericNameDroppedAsMalformed(ToolNode):
    """A name that is a number is taken for malformed, although it is a scalar."""

    def call_name(self, value: object) -> str | None:
        return None if isinstance(value, int | float) else super().call_name(value)


MUTANTS = (
    Mutant(
        "work-means-a-success",
        ("RT-TOOL-10#c2",),
        "`executed_any` is true only when a call handled for the first time succeeded",
        with_node(_WorkMeansASuccess),
    ),
    Mutant(
        "malformed-calls-counted-as-work",
        ("RT-TOOL-10#c4",),
        "a batch holding a malformed call reports `executed_any` true",
        with_node(_MalformedCallsCountedAsWork),
    ),
    Mutant(
        "malformed-call-ends-the-batch",
        ("RT-TOOL-10#c4",),
        "the first malformed call of a batch ends the pass: the calls after it never run",
        with_node(_MalformedCallEndsTheBatch),
    ),
    Mutant(
        "whitespace-name-reaches-the-guard",
        ("RT-TOOL-10#c4",),
        "a name of only whitespace is not blank: the call reaches the guard as an unwired tool",
        with_node(_WhitespaceNameReachesTheGuard),
    ),
    Mutant(
        "numeric-name-dropped-as-malformed",
        ("RT-TOOL-10#c4",),
        "a call whose name is a number is dropped as malformed, though a number is a scalar",
        with_node(_NumericNameDroppedAsMalformed),
    ),
)
