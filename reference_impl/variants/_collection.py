"""Variants of how artifacts are collected, bounded, held and warned about, and of how
calls reach the guard (RT-TOOL-2 ¶3, RT-TOOL-5, 6, 7, 10)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from reference_impl.artifacts import Bounds, Collector, Drop
from reference_impl.behaviour import Behaviour, Components
from reference_impl.passes import PassContext, PassResult, ToolNode
from reference_impl.variants._model import Variant

__all__ = ["VARIANTS"]


class _PortBeforeCollection(ToolNode):
    """Surfaces every call's artifacts on ``tool_artifacts`` as they were lifted, before
    the run collects them: an artifact with an empty ``type`` is kept on the tool result
    and the port, and refused where the run collects it."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        result = super().run_pass(ctx, batch)
        listed = result.record.get("results")
        lifted = [
            entry
            for r in (listed if isinstance(listed, list) else [])
            if r.get("disposition") == "executed" and isinstance(r.get("result"), Mapping)
            for entry in self.policy.port_entries(r["result"], r.get("tool_call_id"))
        ]
        ports = result.record.get("ports")
        assert isinstance(ports, dict)
        # What the run collected (result.artifacts) is unchanged; only the port differs.
        return replace(
            result, record={**result.record, "ports": {**ports, "tool_artifacts": lifted}}
        )


class _LateArrivalsDroppedSilently(Collector):
    """Drops an artifact arriving for a run whose collection is not open without a
    warning."""

    def add(self, run_id: str, tool: str, entry: Mapping[str, object]) -> bool:
        if run_id not in self.open_runs():
            return False
        return super().add(run_id, tool, entry)


class _MeasuredSpacedAndEscaped(Collector):
    """Reads "512 KB" and "2 MB" as 512,000 and 2,000,000 bytes, and measures a payload by
    its spaced JSON encoding with every non-ASCII character and ``/`` escaped."""

    default_bounds: ClassVar[Bounds] = Bounds(
        payload_bytes=512_000, run_artifacts=50, run_bytes=2_000_000, held_artifacts=256
    )

    def measure(self, payload: object) -> int:
        text = json.dumps(payload, ensure_ascii=True, allow_nan=False).replace("/", "\\/")
        return len(text.encode("ascii"))


class _WarningsInWordsOfTheirOwn(Behaviour):
    """Words its warnings its own way: a drop's type and call in their fields, its tool
    and run only in the message; a full held list in one warning per entry, with no word
    the suite's own messages use."""

    def drop_warning(self, drop: Drop) -> dict[str, object]:
        return {
            "code": "collect.rejected",
            "type": drop.type,
            "tool_call_id": drop.tool_call_id,
            "message": f"Werkzeug «{drop.tool}» im Lauf «{drop.run}»: Artefakt verworfen "
            f"({drop.reason})",
        }

    def held_drop_warning(
        self, entry: Mapping[str, object], *, tool: str | None, run: str, bound: int
    ) -> dict[str, object]:
        call, kind = entry.get("tool_call_id"), entry.get("type")
        return {
            "code": "pause.overflow",
            "type": kind if isinstance(kind, str) else None,
            "tool_call_id": call if isinstance(call, str) else None,
            "message": f"Warteschlange voll ({bound}): jüngstes Artefakt verworfen",
        }


class _StrayAnswersIgnored(Behaviour):
    """Accepts an answer to a turn that is not paused, and does nothing with it."""

    def ignores_stray_answers(self) -> bool:
        return True


class _FailedWriteBackStopsTheTurn(Behaviour):
    """After a failed write-back the turn stops with Continue available (what was taken is
    held again), instead of going back to its pause."""

    def retries_failed_write_back(self) -> bool:
        return False


class _PhpScalarCalls(ToolNode):
    """Reads a call as PHP does: a boolean name is a scalar (``true`` is ``"1"``,
    ``false`` is blank), only ASCII whitespace is blank, only a string is an identifier
    (an empty string included)."""

    def call_name(self, value: object) -> str | None:
        if isinstance(value, bool):
            return "1" if value else None
        if isinstance(value, str) and not value.strip(" \t\n\r\0\x0b"):
            return None
        return str(value) if isinstance(value, str | int | float) else None

    def call_id(self, value: object) -> str | None:
        return value if isinstance(value, str) else None


class _ExecutedInAnotherOrder(ToolNode):
    """Lists ``executed`` and ``skipped`` newest first."""

    def ports(
        self,
        drained: list[dict[str, object]],
        executed_any: bool,
        executed: list[str],
        skipped: list[str],
    ) -> dict[str, object]:
        return super().ports(drained, executed_any, executed[::-1], skipped[::-1])


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "empty-type-refused-at-collection",
        "empty-type",
        ("RT-TOOL-2#c3", "RT-TOOL-6#c5"),
        "an artifact with an empty type stays on the tool result and the tool_artifacts port, "
        "and is refused where the run collects it",
        lambda: Components(node=_PortBeforeCollection()),
    ),
    Variant(
        "late-arrival-dropped-silently",
        "late-arrivals",
        ("RT-TOOL-5#c2", "RT-TOOL-5#c3", "RT-TOOL-5#c4"),
        "an artifact arriving for a run whose collection is not open is dropped without a warning",
        lambda: Components(collector_class=_LateArrivalsDroppedSilently),
    ),
    Variant(
        "payload-measured-spaced-and-escaped",
        "payload-size",
        ("RT-TOOL-6#c2", "RT-TOOL-6#c3", "RT-TOOL-6#c4"),
        "bounds of 512,000 and 2,000,000 bytes, measured on the spaced JSON encoding with "
        "non-ASCII characters and slashes escaped",
        lambda: Components(collector_class=_MeasuredSpacedAndEscaped),
    ),
    Variant(
        "warnings-in-words-of-their-own",
        "drop-warnings",
        ("RT-TOOL-6#c3", "RT-TOOL-7#c5"),
        "warnings worded the runtime's own way: a dropped artifact's tool and run named only "
        "in the message",
        lambda: Components(behaviour=_WarningsInWordsOfTheirOwn()),
    ),
    Variant(
        "answer-to-finished-turn-ignored",
        "unrequired-refusals",
        ("RT-TOOL-7#c3",),
        "an answer to a turn that is not paused is accepted and does nothing",
        lambda: Components(behaviour=_StrayAnswersIgnored()),
    ),
    Variant(
        "failed-write-back-stops-the-turn",
        "failed-write-back",
        ("RT-TOOL-7#c4",),
        "after a failed write-back the turn stops with Continue available; Continue delivers "
        "what was put back",
        lambda: Components(behaviour=_FailedWriteBackStopsTheTurn()),
    ),
    Variant(
        "php-scalar-names-and-string-ids",
        "malformed-calls",
        ("RT-TOOL-10#c4",),
        "calls read as PHP does: boolean names are scalars, only ASCII whitespace is blank, "
        "only strings (the empty one included) are call identifiers",
        lambda: Components(node=_PhpScalarCalls()),
    ),
    Variant(
        "executed-listed-newest-first",
        "executed-order",
        ("RT-TOOL-10#c1",),
        "executed and skipped list their call identifiers newest first",
        lambda: Components(node=_ExecutedInAnotherOrder()),
    ),
)
