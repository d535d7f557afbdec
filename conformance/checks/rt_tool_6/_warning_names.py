"""What RT-TOOL-6 ¶3's drop warning is held to name (the tool, the run, the type and the
call), and where the run it names is."""

from __future__ import annotations

from adapters.trace import Trace, WarningRecord
from conformance.toolkit import located_passes

__all__ = ["names", "run_of_call"]


def names(warning: WarningRecord, field: str, value: str) -> bool:
    """Whether ``warning`` names ``value``: in its own field ``field`` (``tool``, ``run``,
    ``type``, ``tool_call_id``) when it reports that field, else in its message text (the
    protocol lets a harness leave the fields out; docs/interpretations.md, drop-warnings)."""
    given = getattr(warning, field, None)
    if given is not None:
        return bool(given == value)
    return bool(value) and value in warning.message


def run_of_call(trace: Trace, call_id: str) -> tuple[str, str] | None:
    """``(run id, run pointer)`` of the run whose pass reports a result for ``call_id``."""
    for at, run, one in located_passes(trace):
        if any(result.tool_call_id == call_id for result in one.results):
            return run.id, at.rsplit("/passes/", 1)[0]
    return None
