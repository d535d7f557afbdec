"""``standing.json`` written: the model as JSON, checked against the published schema.

Derived values (standings, counts, citations, check ids, the summary) are written too,
so a reader needs no aggregation of its own; :mod:`._codec` refuses a file whose
recorded values differ from the derived ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import cast

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from adapters.errors import SuiteError
from conformance.report._model import (
    CheckCounts,
    CheckResult,
    ClauseResult,
    FailedExpectation,
    RuleResult,
    StandingCounts,
)
from conformance.report._run import HuntSummary, RunInfo, ShardInfo
from conformance.report._standing import StandingReport

__all__ = [
    "FORMAT",
    "encode",
    "json_pointer",
    "schema_error",
    "schema_validator",
    "standing_schema",
    "to_json",
]

#: The value of the top-level ``format`` key; bumped on any incompatible change.
FORMAT = "rttool-standing/1"


@cache
def standing_schema() -> Mapping[str, object]:
    """The published JSON Schema of ``standing.json``."""
    text = resources.files("conformance").joinpath("schemas", "standing.json").read_text("utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


@cache
def schema_validator() -> Draft202012Validator:
    return Draft202012Validator(standing_schema())


@cache
def _fast() -> Callable[[object], bool] | None:
    """A compiled validity test (``jsonschema-rs``), when it is installed: only its yes is
    taken; a complaint, with its pointer, always comes from ``jsonschema``."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    is_valid: Callable[[object], bool] = jsonschema_rs.validator_for(
        dict(standing_schema())
    ).is_valid
    return is_valid


def schema_error(data: object) -> ValidationError | None:
    """The error ``jsonschema`` would report first for ``data``, or ``None`` when it is
    valid (most reports are: they are answered by the compiled schema)."""
    fast = _fast()
    if fast is not None:
        try:
            if fast(data):
                return None
        except (ValueError, TypeError):  # a value it cannot read: let jsonschema judge
            pass
    found: ValidationError | None = best_match(schema_validator().iter_errors(data))
    return found


def json_pointer(parts: object) -> str:
    return (
        "".join(
            "/" + str(part).replace("~", "~0").replace("/", "~1")
            for part in cast("list[object]", parts)
        )
        or "/"
    )


def _standing_counts(counts: StandingCounts) -> dict[str, object]:
    return {
        standing: counts.get(standing)
        for standing in ("conforms", "does-not-conform", "untested", "not-applicable", "error")
    }


def _check_counts(counts: CheckCounts) -> dict[str, object]:
    return {
        "passed": counts.passed,
        "failed": counts.failed,
        "error": counts.error,
        "untested": counts.untested,
        "not-applicable": counts.not_applicable,
    }


def _compared(failure: FailedExpectation) -> dict[str, object]:
    """``expected`` and ``got`` of a failure that compared two values (else nothing)."""
    pairs = (("expected", failure.expected), ("got", failure.got))
    return {key: value for key, value in pairs if value is not None}


def _check(clause: ClauseResult, check: CheckResult) -> dict[str, object]:
    return _check_as(clause.check_id(check), check, reached=bool(clause.situations))


def _check_as(check_id: str, check: CheckResult, *, reached: bool = False) -> dict[str, object]:
    evidence = check.evidence
    return {
        "id": check_id,
        "name": check.name,
        "kind": check.kind,
        "outcome": check.outcome,
        "message": check.message,
        "skip_kind": check.skip_kind,
        "fault": check.fault,
        "duration_s": check.duration_s,
        "evidence": {
            "scenario": evidence.scenario,
            "trace": evidence.trace,
            "counterexample": evidence.counterexample,
            # only where an error left a record: the other entries stay as they were
            **({"error": evidence.error} if evidence.error is not None else {}),
        },
        "failures": [
            {
                "message": failure.message,
                "scenario": failure.scenario,
                "pointer": failure.pointer,
                "reading": failure.reading,
                # only where the check compared two values: other failures stay as they were
                **_compared(failure),
            }
            for failure in check.failures
        ],
        "hunt": None
        if check.hunt is None
        else {"judged": check.hunt.judged, "exercised": check.hunt.exercised},
        # only where its clause names situations: reports without them stay as they were
        **({"reached": list(check.reached)} if reached else {}),
    }


def _clause(clause: ClauseResult) -> dict[str, object]:
    return {
        "id": clause.id,
        "rule": clause.rule,
        "number": clause.number,
        "citation": clause.citation,
        "text": clause.text,
        "standing": clause.standing,
        "counts": _check_counts(clause.counts),
        **(
            {"situations": list(clause.situations), "unreached": list(clause.unreached)}
            if clause.situations
            else {}
        ),
        "checks": [_check(clause, check) for check in clause.checks],
    }


def _rule(rule: RuleResult) -> dict[str, object]:
    return {
        "id": rule.id,
        "title": rule.title,
        "family": rule.family,
        "level": rule.level,
        "profiles": list(rule.profiles),
        "source": rule.source,
        "standing": rule.standing,
        "counts": _standing_counts(rule.counts),
        "clauses": [_clause(clause) for clause in rule.clauses],
    }


def _shard(shard: ShardInfo) -> dict[str, object]:
    return {
        "index": shard.index,
        "count": shard.count,
        "corpus": shard.corpus,
        "build": shard.build,
        "options": {
            "levels": list(shard.options.levels),
            "hunt": shard.options.hunt,
            "examples": shard.options.examples,
            "hunt_seconds": shard.options.hunt_seconds,
            "timeout": shard.options.timeout,
            "exitfirst": shard.options.exitfirst,
        },
        "rules": list(shard.rules),
        "left": list(shard.left),
        "hunt": [
            {
                "clause": one.clause,
                "check": _check_as(
                    f"{one.clause}::{one.check.name}", one.check, reached=bool(one.check.reached)
                ),
            }
            for one in shard.hunt
        ],
    }


def _run(run: RunInfo) -> dict[str, object]:
    encoded: dict[str, object] = {
        "started_at": run.started_at,
        "duration_s": run.duration_s,
        "seed": run.seed,
        "levels": list(run.levels),
        "ci": run.ci,
        "spec": run.spec,
        "only": list(run.only),
        "mutant": run.mutant,
    }
    if run.shard is not None:  # absent from every unsplit run's standing
        encoded["shard"] = _shard(run.shard)
    return encoded


def _hunt(hunt: HuntSummary) -> dict[str, object]:
    encoded: dict[str, object] = {
        "budget_s": hunt.budget_s,
        "elapsed_s": hunt.elapsed_s,
        "examples": hunt.examples,
        "counterexamples": hunt.counterexamples,
        "shrinks": hunt.shrinks,
    }
    if hunt.replayed is not None:  # only a run with an example database replays
        encoded["replayed"] = hunt.replayed
    return encoded


def encode(report: StandingReport) -> dict[str, object]:
    """``report`` as the JSON value ``standing.json`` holds."""
    impl, run, hunt = report.implementation, report.run, report.hunt
    return {
        "format": FORMAT,
        "implementation": {
            "name": impl.name,
            "version": impl.version,
            "homepage": impl.homepage,
            "spec": impl.spec,
            "profiles": list(impl.profiles),
            "capabilities": list(impl.capabilities),
            # only where a vocabulary was declared: reports without one stay as they were
            **({"turn_states": list(impl.turn_states)} if impl.turn_states else {}),
        },
        "suite": {"name": report.suite.name, "version": report.suite.version},
        "run": _run(run),
        "summary": {
            "rules": _standing_counts(report.counts),
            "families": [
                {
                    "family": tally.family,
                    "conforming": tally.conforming,
                    "applicable": tally.applicable,
                    "counts": _standing_counts(tally.counts),
                }
                for tally in report.tallies()
            ],
        },
        "rules": [_rule(rule) for rule in report.rules],
        "warnings": list(report.warnings),
        "hunt": None if hunt is None else _hunt(hunt),
    }


def to_json(report: StandingReport) -> str:
    """``report`` as ``standing.json`` text (validated against the published schema)."""
    data = encode(report)
    error = schema_error(data)
    if error is not None:
        raise SuiteError(
            "suite built a standing report that breaks its schema",
            pointer=json_pointer(list(error.absolute_path)),
            complaint=error.message[:200],
        )
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
