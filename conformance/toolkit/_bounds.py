"""Helpers the checks of RT-TOOL-5, RT-TOOL-6 and RT-TOOL-7 share: whether the
implementation collects artifacts at all, what a turn's messages deliver, and the
warnings a trace holds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.trace import Trace, WarningRecord
from conformance.toolkit._context import CheckContext
from conformance.toolkit._json import mapping
from conformance.toolkit._outcomes import NotApplicable
from conformance.toolkit._shown import show
from conformance.toolkit._traces import contains, delivered, turn, turn_pointer

__all__ = [
    "Warned",
    "collects",
    "count_on_wire",
    "located_warnings",
    "warnings_text",
    "wire_pointer",
]


def collects(ctx: CheckContext) -> None:
    """End the check as not applicable for an implementation that declares it collects no
    artifacts (RT-TOOL-5 ¶1 allows it): it then delivers none, so that a clause about
    delivery holds of it trivially, and bounds and held lists are moot."""
    if not ctx.handshake.collects_artifacts:
        raise NotApplicable("the implementation does not collect tool artifacts")


def wire_pointer(
    trace: Trace, label: str = "t1", *, step: int = -1, conversation: str = "main"
) -> str:
    """The pointer of a turn's message rows on the wire after ``step``."""
    return turn_pointer(trace, label, step=step, conversation=conversation) + "/messages"


def _marked(entries: Sequence[object], mark: str) -> int:
    """How many of ``entries`` carry ``mark`` anywhere."""
    return sum(1 for entry in entries if contains(entry, mark))


def count_on_wire(
    trace: Trace, mark: str, *, label: str = "t1", step: int = -1, conversation: str = "main"
) -> int:
    """How many entries the turn's messages deliver that carry ``mark``."""
    return _marked(delivered(turn(trace, label, step=step, conversation=conversation)), mark)


@dataclass(frozen=True)
class Warned:
    """A warning with its pointer in the trace and the index of its step."""

    at: str
    step: int
    warning: WarningRecord


def located_warnings(trace: Trace, steps: Sequence[int] | None = None) -> list[Warned]:
    """Every warning (of ``steps`` only, when given), with its pointer
    (``/steps/2/warnings/0``)."""
    return [
        Warned(f"/steps/{index}/warnings/{number}", index, warning)
        for index, step in enumerate(trace.steps)
        if steps is None or index in steps
        for number, warning in enumerate(step.warnings)
    ]


def warnings_text(found: Sequence[Warned]) -> str:
    """The warnings observed, for a failure message: ``none`` or their pointers and text."""
    if not found:
        return "none"
    shown = [f"{w.at}: {show(mapping(_as_json(w.warning)), 160)}" for w in found[:3]]
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return "; ".join(shown) + more


def _as_json(warning: WarningRecord) -> dict[str, object]:
    return {key: value for key, value in vars(warning).items() if value is not None}
