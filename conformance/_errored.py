"""What an error leaves behind: the record a report directory keeps of a scenario the
implementation could not run (a case's, or a hunt example's), so that ``rttool replay``
can run it again.

The record (``error.json``) holds the scenario itself, the step the implementation
failed on, its message and, for an in-process harness, the traceback of what it
raised; the steps it answered before are the evidence's ``trace.json``.  Every text in
it is redacted and bounded: it comes from the implementation.
"""

from __future__ import annotations

import json
import traceback
from pathlib import Path

from adapters.codec import to_json
from adapters.errors import ImplementationError, RttoolError
from adapters.scenario import Scenario
from conformance._redact import redacted

__all__ = ["ERROR_FILE", "TRACEBACK_CHARS", "error_record", "save", "save_json"]

#: The name of the record in an evidence folder.
ERROR_FILE = "error.json"
#: A traceback longer than this keeps its end (where the error was raised).
TRACEBACK_CHARS = 20_000
_MESSAGE_CHARS = 2000


def save(root: Path, relative: str | Path, content: bytes) -> Path:
    """Write ``content`` to ``root / relative``: through the one primitive rttool writes
    its report directory with (atomic, following no link)."""
    from adapters.files import write_file

    return write_file(root, relative, content)


def save_json(root: Path, relative: str | Path, value: object) -> str:
    """Write ``value`` as indented JSON; returns the relative path, as a report names it.
    Text an implementation sent may hold lone surrogates, which UTF-8 cannot carry: they
    are written as JSON escapes."""
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    save(root, relative, text.encode("utf-8", errors="backslashreplace"))
    return Path(relative).as_posix()


def _traceback(err: ImplementationError) -> str | None:
    """What the harness raised, with its traceback: as its error reply told it (the
    protocol error's ``detail``, over any transport), else, for an in-process harness,
    what this process caught; ``None`` when nothing was raised."""
    if err.detail:
        told = redacted(err.detail)
        return told if len(told) <= TRACEBACK_CHARS else "…" + told[-TRACEBACK_CHARS:]
    impl = err.details.get("impl")
    if not (isinstance(impl, str) and impl.startswith("python:")):
        return None
    cause = err.__cause__
    while isinstance(cause, RttoolError):
        cause = cause.__cause__
    if cause is None:
        return None
    text = "".join(traceback.format_exception(cause))
    text = redacted(text)
    return text if len(text) <= TRACEBACK_CHARS else "…" + text[-TRACEBACK_CHARS:]


def error_record(err: ImplementationError, scenario: Scenario, *, case: str) -> dict[str, object]:
    """The record of ``err`` ending ``scenario`` (run by the case ``case``)."""
    partial = err.partial_trace
    answered = len(partial.steps) if partial is not None else None
    failed_at: dict[str, object] | None = None
    if answered is not None and answered < len(scenario.steps):
        failed_at = {"index": answered, "op": scenario.steps[answered].op}
    elif answered is not None:
        failed_at = {"index": None, "op": "finish"}
    return {
        "case": case,
        "kind": err.kind,
        "message": redacted(str(err))[:_MESSAGE_CHARS],
        "failed_at": failed_at,
        "traceback": _traceback(err),
        "scenario": to_json(scenario),
    }
