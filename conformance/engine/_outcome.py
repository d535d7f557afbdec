"""How one case ended: the one type from :func:`~conformance.engine.judge` to the standing.

A :class:`CaseOutcome` is made by judging a case, completed by the session that ran it
(its duration, the evidence files written, the situations its traces reached), carried
between worker processes as JSON, charged to each of the case's clauses
(:func:`~conformance.engine.charged`) and finally read into the report model's
:class:`~conformance.report.CheckResult` for each clause it lands on.  Its vocabulary is
the report's (``passed``, ``failed``, ``skipped`` with a ``skip_kind``, ``error`` with a
``fault``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from conformance.report import Evidence, Fault, Outcome, SkipKind
from conformance.toolkit.machinery import Failure

__all__ = ["EVIDENCE_NOT_WRITTEN", "CaseOutcome", "HuntRecord"]

#: What a case's message says when its evidence could not be written (the verdict stands).
EVIDENCE_NOT_WRITTEN = " (evidence not written: "


@dataclass(frozen=True, kw_only=True)
class HuntRecord:
    """What the hunt did, as one invariant's case saw it: the whole search's figures
    (``examples`` generated and judged, ``shrinks`` run, ``elapsed_s`` of ``budget_s``,
    ``counterexamples`` found, ``replayed`` from a shared example database) and this
    invariant's own (examples ``judged`` against it, and how many ``exercised`` it)."""

    examples: int
    shrinks: int
    elapsed_s: float
    budget_s: float
    counterexamples: int
    judged: int
    exercised: int
    #: saved examples replayed first from ``--example-db`` (``None``: none given)
    replayed: int | None = None
    #: the shared example database failed during the search: why, as a key of
    #: ``conformance.hunt.LOSSES`` (0: it did not)
    store_lost: int = 0
    #: the search was interrupted and ended with what it had found
    interrupted: bool = False


@dataclass(frozen=True, kw_only=True)
class CaseOutcome:
    """How one case ended.

    ``failures`` lists every expectation that failed (a failed case only), most specific
    first, each naming the clause it is charged to (``None``: every clause of the case);
    ``reached`` maps each of the case's clauses to the situations its traces reached;
    ``blocked`` the clauses it could not judge, with why ("blocked by RT-TOOL-10 ¶1:
    ..."); ``complete``: a failed case judged every expectation (none ended it early),
    so a clause no failure is charged to held there.  ``evidence_error`` says why the
    evidence of a failed or erring case could not be written (the verdict stands).
    """

    case_id: str
    outcome: Outcome
    message: str = ""
    skip_kind: SkipKind | None = None
    fault: Fault | None = None
    duration_s: float = 0.0
    evidence: Evidence = field(default_factory=Evidence)
    hunt: HuntRecord | None = None
    failures: tuple[Failure, ...] = ()
    reached: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    blocked: Mapping[str, str] = field(default_factory=dict)
    complete: bool = False
    evidence_error: str = ""

    @property
    def caught(self) -> bool:
        """It failed, or erred through the implementation's fault on a case it ran (an
        error of the suite's own proves nothing of the implementation, and a case the
        timeout breaker did not run tried nothing)."""
        return self.outcome == "failed" or (
            self.outcome == "error"
            and self.fault == "implementation"
            and not self.message.startswith("not run:")
        )

    def unwritten(self) -> str:
        """What a message about this case adds when its evidence could not be written."""
        return f"{EVIDENCE_NOT_WRITTEN}{self.evidence_error})" if self.evidence_error else ""

    def to_json(self) -> str:
        """One JSON text (what travels from a worker process to the one building the
        standing)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CaseOutcome:
        """The inverse of :meth:`to_json`."""
        raw: dict[str, Any] = json.loads(text)
        raw["evidence"] = Evidence(**raw["evidence"])
        raw["hunt"] = None if raw["hunt"] is None else HuntRecord(**raw["hunt"])
        raw["failures"] = tuple(Failure(**one) for one in raw["failures"])
        raw["reached"] = {clause: tuple(words) for clause, words in raw["reached"].items()}
        known = {one.name for one in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})
