"""The evidence a report draws: the scenario, trace, counterexample and error record of
every failing or erring check, read once, bounded and decoded, for the timelines of
``report.html``.

Reading is the writer's (:func:`draw_evidence`); a renderer gets the result and reads
nothing.  Every file is untrusted: one that is missing, too large, not JSON, nested too
deeply or not the shape the protocol's codec decodes is not drawn, and the timeline
says why in one line naming the file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from adapters.codec import CodecError, from_json
from adapters.files import read_json
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.report._model import Evidence
from conformance.report._standing import StandingReport

__all__ = [
    "DRAWN_BYTES",
    "DRAWN_CASES",
    "DRAWN_FILE_BYTES",
    "DrawnEvidence",
    "Finding",
    "RecordedError",
    "draw_evidence",
    "drawn_from",
]

#: A scenario, trace or record larger than this is not drawn (the reference's are tens
#: of kilobytes; a trace of megabytes is shown by its file, not by a page).
DRAWN_FILE_BYTES = 4 * 1024 * 1024
#: What one report reads for its timelines in all; the evidence past it is not drawn.
DRAWN_BYTES = 64 * 1024 * 1024
#: At most this many failing or erring checks' evidence is drawn in one report.
DRAWN_CASES = 500
_TEXT = 2000  # characters kept of a message read from a record


@dataclass(frozen=True, kw_only=True)
class Finding:
    """What a hunt counterexample says it breaks: its invariant and its message."""

    invariant: str
    message: str


@dataclass(frozen=True, kw_only=True)
class RecordedError:
    """An error record (``error.json``): the kind and message of the error, and the
    scenario step it failed on (``step`` ``None``: after the last step answered)."""

    kind: str
    message: str
    step: int | None
    op: str


@dataclass(frozen=True, kw_only=True)
class DrawnEvidence:
    """One check's evidence as the timeline draws it; ``problems`` say, one line each,
    what could not be drawn and why."""

    scenario: Scenario | None = None
    trace: Trace | None = None
    finding: Finding | None = None
    error: RecordedError | None = None
    problems: tuple[str, ...] = ()


Locate = Callable[[str], Path | None]


def _text(value: object) -> str:
    return str(value)[:_TEXT] if isinstance(value, str) else ""


def _finding(data: object) -> Finding:
    found = data if isinstance(data, dict) else {}
    return Finding(invariant=_text(found.get("invariant")), message=_text(found.get("message")))


def _error(data: object) -> RecordedError:
    found = data if isinstance(data, dict) else {}
    failed_at = found.get("failed_at")
    where = failed_at if isinstance(failed_at, dict) else {}
    index = where.get("index")
    step = index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else None
    return RecordedError(
        kind=_text(found.get("kind")),
        message=_text(found.get("message")),
        step=step,
        op=_text(where.get("op")),
    )


class _Reader:
    """Reads evidence files within one report's budget."""

    def __init__(self, locate: Locate) -> None:
        self._locate = locate
        self.spent = 0
        self.problems: list[str] = []

    def json(self, label: str, relative: str | None) -> object | None:
        if relative is None:
            return None
        path = self._locate(relative)
        if path is None:
            self.problems.append(f"{label} not drawn: {relative} is not a file of the report")
            return None
        try:
            size = path.stat().st_size
            if self.spent + size > DRAWN_BYTES:
                self.problems.append(f"{label} not drawn: the report's evidence budget is spent")
                return None
            self.spent += size
            return read_json(path, limit=DRAWN_FILE_BYTES)
        except OSError as err:  # UnreadableFile is one: named by its relative path only
            reason = err.strerror or type(err).__name__
            self.problems.append(f"{label} not drawn: {relative}: {reason}")
            return None

    def decoded(
        self, label: str, relative: str | None, kind: type[Scenario] | type[Trace]
    ) -> object:
        raw = self.json(label, relative)
        if raw is None:
            return None
        try:
            return from_json(kind, raw)
        except CodecError as err:
            self.problems.append(f"{label} not drawn: {relative} does not decode: {err}")
            return None


def drawn_from(evidence: Evidence, locate: Locate) -> DrawnEvidence:
    """The evidence of one check, each file found by ``locate`` (a path relative to the
    report directory -> the file, or ``None`` when it is not one of the report's)."""
    reader = _Reader(locate)
    return _drawn(evidence, reader)


def _drawn(evidence: Evidence, reader: _Reader) -> DrawnEvidence:
    reader.problems = []
    scenario = reader.decoded("scenario", evidence.scenario, Scenario)
    trace = reader.decoded("trace", evidence.trace, Trace)
    finding = reader.json("counterexample", evidence.counterexample)
    error = reader.json("error record", evidence.error)
    return DrawnEvidence(
        scenario=scenario if isinstance(scenario, Scenario) else None,
        trace=trace if isinstance(trace, Trace) else None,
        finding=None if finding is None else _finding(finding),
        error=None if error is None else _error(error),
        problems=tuple(reader.problems),
    )


def draw_evidence(report: StandingReport, locate: Locate) -> Mapping[Evidence, DrawnEvidence]:
    """The evidence of every failed or errored check of ``report`` that names some, each
    read once (checks sharing evidence share it), within :data:`DRAWN_CASES` and
    :data:`DRAWN_BYTES`."""
    reader = _Reader(locate)
    drawn: dict[Evidence, DrawnEvidence] = {}
    for _, _, check in report.checks():
        evidence = check.evidence
        if check.outcome not in ("failed", "error") or not evidence.items() or evidence in drawn:
            continue
        if len(drawn) >= DRAWN_CASES:
            break
        drawn[evidence] = _drawn(evidence, reader)
    return MappingProxyType(drawn)
