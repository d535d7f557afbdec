"""``rttool replay`` on a scenario the implementation errors on: where it failed, what
it said, whether that is the error the report directory recorded, and the trace it
left (``--trace FILE``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from conformance._escape import printable

if TYPE_CHECKING:
    from adapters.errors import ImplementationError
    from adapters.scenario import Scenario
    from adapters.trace import Trace

__all__ = ["Errored", "error_lines", "errored_on", "recorded_error", "write_trace"]


@dataclass(frozen=True)
class Errored:
    """Where the implementation failed (``index`` and ``op`` of the step, ``None`` and
    ``finish`` when every step was answered) and what it said."""

    index: int | None
    op: str
    message: str


def errored_on(scenario: Scenario, err: ImplementationError) -> Errored:
    """The error ``err`` as a replay says it."""
    from conformance._redact import redacted

    answered = len(err.partial_trace.steps) if err.partial_trace is not None else 0
    if answered < len(scenario.steps):
        where: tuple[int | None, str] = (answered, scenario.steps[answered].op)
    else:
        where = (None, "finish")
    return Errored(*where, message=redacted(str(err))[:1000])


def recorded_error(path: Path, data: object) -> str | None:
    """The message of the error recorded for the scenario of ``path``: ``data`` itself
    when it is an error record, else the ``error.json`` beside ``path``, if any."""
    from conformance._errored import ERROR_FILE

    if data is None or not isinstance(data, dict) or "failed_at" not in data:
        beside = path.parent / ERROR_FILE
        if path.name == ERROR_FILE or not beside.is_file() or beside.is_symlink():
            return None
        data = _read(beside)
    message = data.get("message") if isinstance(data, dict) else None
    return message[:1000] if isinstance(message, str) else None


#: An error record is a few KB (its traceback is cut at 20,000 characters).
_MAX_RECORD_BYTES = 4 * 1024 * 1024


def _read(path: Path) -> object:
    from adapters.files import read_json
    from adapters.limits import TooDeep

    try:
        return read_json(path, limit=_MAX_RECORD_BYTES)
    except (OSError, ValueError, TooDeep):
        return None  # an unreadable record says nothing; the replay still runs


def write_trace(target: Path | None, trace: Trace | None) -> str | None:
    """Write ``trace`` to ``target`` when asked for; returns where it went."""
    if target is None or trace is None:
        return None
    from adapters.codec import to_json
    from adapters.errors import SuiteError
    from conformance._errored import save_json

    try:
        save_json(target.parent if str(target.parent) else Path("."), target.name, to_json(trace))
    except OSError as err:
        raise SuiteError(
            "cannot write the trace", file=str(target), reason=err.strerror or str(err)
        ) from err
    return str(target)


def error_lines(errored: Errored | None, recorded: str | None, trace_file: str | None) -> list[str]:
    """What a replay says of an error: the one it met, or that the recorded one is gone."""
    lines: list[str] = []
    if errored is not None:
        step = "at finish" if errored.index is None else f"at step {errored.index} ({errored.op})"
        again = "errors again" if recorded is not None else "errors"
        lines.append(f"the implementation {again} {step}: {printable(errored.message)}")
    elif recorded is not None:
        lines.append(f"no longer errors (the error recorded was: {printable(recorded)})")
    if trace_file is not None:
        lines.append(f"trace written to {printable(trace_file)}")
    return lines
