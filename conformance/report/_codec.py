"""``standing.json`` read back: refused, with one line naming the file and the JSON
pointer, when it is not JSON, when the schema refuses it, when a model invariant is
broken, or when a recorded standing, count or summary differs from what the checks imply.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar, cast

from adapters.errors import SuiteError
from adapters.files import UnreadableFile, read_text
from adapters.limits import DuplicateKey, TooDeep, loads
from conformance.report._encode import encode, json_pointer, schema_error
from conformance.report._errors import StandingFormatError
from conformance.report._model import (
    CheckResult,
    ClauseResult,
    Evidence,
    FailedExpectation,
    HuntFigures,
    RuleResult,
)
from conformance.report._run import (
    HuntSummary,
    ImplementationInfo,
    RunInfo,
    ShardHunt,
    ShardInfo,
    ShardOptions,
    SuiteInfo,
)
from conformance.report._standing import StandingReport
from conformance.report._values import CheckKind, Fault, Level, Outcome, SkipKind

__all__ = ["from_json", "load_standing"]

#: A standing of the whole suite is a few hundred KB; one far larger is not rttool's.
MAX_STANDING_BYTES = 64 * 1024 * 1024
_T = TypeVar("_T")
_Object = Mapping[str, object]


class _Invalid(Exception):
    def __init__(self, pointer: str, complaint: str) -> None:
        super().__init__(complaint)
        self.pointer = pointer
        self.complaint = complaint


def _make(at: str, factory: Callable[..., _T], **values: object) -> _T:
    try:
        return factory(**values)
    except SuiteError as err:
        raise _Invalid(at, str(err)) from err


# The schema has been checked before decoding, so the casts below only tell mypy what
# the schema already guarantees.
def _objects(value: object) -> list[_Object]:
    return cast("list[_Object]", value)


def _each(pointer: str, items: object, decode: Callable[[str, _Object], _T]) -> tuple[_T, ...]:
    """Each object of the list ``items`` decoded at its own pointer under ``pointer``."""
    return tuple(decode(f"{pointer}/{index}", item) for index, item in enumerate(_objects(items)))


def _strings(value: object) -> tuple[str, ...]:
    return tuple(cast("list[str]", value))


def _optional_seconds(value: object) -> float | None:
    """A duration as written, ``None`` where a reproducible report records none."""
    return None if value is None else float(cast("float", value))


def _decode_check(pointer: str, data: _Object) -> CheckResult:
    evidence = cast("_Object", data["evidence"])
    hunt = cast("_Object | None", data.get("hunt"))
    return _make(
        pointer,
        CheckResult,
        name=data["name"],
        kind=cast("CheckKind", data["kind"]),
        outcome=cast("Outcome", data["outcome"]),
        message=data["message"],
        skip_kind=cast("SkipKind | None", data["skip_kind"]),
        fault=cast("Fault | None", data["fault"]),
        duration_s=_optional_seconds(data["duration_s"]),
        evidence=_make(
            pointer + "/evidence",
            Evidence,
            scenario=evidence["scenario"],
            trace=evidence["trace"],
            counterexample=evidence["counterexample"],
            error=evidence.get("error"),
        ),
        failures=tuple(
            _make(
                f"{pointer}/failures/{index}",
                FailedExpectation,
                message=item["message"],
                scenario=item.get("scenario"),
                pointer=item.get("pointer"),
                reading=item.get("reading"),
                expected=item.get("expected"),
                got=item.get("got"),
            )
            for index, item in enumerate(_objects(data.get("failures", [])))
        ),
        hunt=None
        if hunt is None
        else _make(
            f"{pointer}/hunt", HuntFigures, judged=hunt["judged"], exercised=hunt["exercised"]
        ),
        reached=tuple(cast("list[str]", data.get("reached", []))),
    )


def _decode_clause(pointer: str, data: _Object) -> ClauseResult:
    checks = _each(f"{pointer}/checks", data["checks"], _decode_check)
    return _make(
        pointer,
        ClauseResult,
        id=data["id"],
        rule=data["rule"],
        number=data["number"],
        text=data["text"],
        checks=checks,
        situations=tuple(cast("list[str]", data.get("situations", []))),
    )


def _decode_rule(pointer: str, data: _Object) -> RuleResult:
    clauses = _each(f"{pointer}/clauses", data["clauses"], _decode_clause)
    return _make(
        pointer,
        RuleResult,
        id=data["id"],
        title=data["title"],
        family=data["family"],
        level=cast("Level", data["level"]),
        profiles=_strings(data["profiles"]),
        source=data["source"],
        clauses=clauses,
    )


def _decode_shard(pointer: str, data: _Object | None) -> ShardInfo | None:
    if data is None:
        return None
    hunt = tuple(
        _make(
            f"{pointer}/hunt/{index}",
            ShardHunt,
            clause=item["clause"],
            check=_decode_check(f"{pointer}/hunt/{index}/check", cast("_Object", item["check"])),
        )
        for index, item in enumerate(_objects(data["hunt"]))
    )
    options = cast("_Object", data["options"])
    return _make(
        pointer,
        ShardInfo,
        index=data["index"],
        count=data["count"],
        corpus=data["corpus"],
        build=data["build"],
        options=_make(
            f"{pointer}/options",
            ShardOptions,
            levels=_strings(options["levels"]),
            hunt=options["hunt"],
            examples=options["examples"],
            hunt_seconds=_optional_seconds(options["hunt_seconds"]),
            timeout=float(cast("float", options["timeout"])),
            exitfirst=options["exitfirst"],
        ),
        rules=_strings(data["rules"]),
        left=_strings(data["left"]),
        hunt=hunt,
    )


def _decode(data: _Object) -> StandingReport:
    impl = cast("_Object", data["implementation"])
    suite = cast("_Object", data["suite"])
    run = cast("_Object", data["run"])
    hunt = cast("_Object | None", data["hunt"])
    return _make(
        "/",
        StandingReport,
        implementation=_make(
            "/implementation",
            ImplementationInfo,
            name=impl["name"],
            version=impl["version"],
            homepage=impl["homepage"],
            spec=impl["spec"],
            profiles=_strings(impl["profiles"]),
            capabilities=_strings(impl["capabilities"]),
            turn_states=_strings(impl.get("turn_states", [])),
        ),
        suite=_make("/suite", SuiteInfo, name=suite["name"], version=suite["version"]),
        run=_make(
            "/run",
            RunInfo,
            started_at=run["started_at"],
            duration_s=_optional_seconds(run["duration_s"]),
            seed=run["seed"],
            levels=_strings(run["levels"]),
            ci=run["ci"],
            spec=run["spec"],
            only=_strings(run["only"]),
            mutant=run["mutant"],
            shard=_decode_shard("/run/shard", cast("_Object | None", run.get("shard"))),
        ),
        rules=_each("/rules", data["rules"], _decode_rule),
        warnings=_strings(data["warnings"]),
        hunt=None
        if hunt is None
        else _make(
            "/hunt",
            HuntSummary,
            budget_s=float(cast("float", hunt["budget_s"])),
            elapsed_s=_optional_seconds(hunt["elapsed_s"]),
            examples=hunt["examples"],
            counterexamples=hunt["counterexamples"],
            shrinks=hunt.get("shrinks", 0),
            replayed=hunt.get("replayed"),
        ),
    )


def _first_difference(recorded: object, derived: object, pointer: str = "") -> str | None:
    """The JSON pointer of the first place ``recorded`` and ``derived`` differ."""
    if isinstance(recorded, Mapping) and isinstance(derived, Mapping):
        for key in derived:
            found = _first_difference(recorded.get(key), derived[key], f"{pointer}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(recorded, list) and isinstance(derived, list) and len(recorded) == len(derived):
        for index, (left, right) in enumerate(zip(recorded, derived, strict=True)):
            found = _first_difference(left, right, f"{pointer}/{index}")
            if found is not None:
                return found
        return None
    same = recorded == derived and type(recorded) is type(derived)
    numbers = isinstance(recorded, int | float) and isinstance(derived, float)
    return None if same or (numbers and recorded == derived) else (pointer or "/")


def from_json(text: str, *, source: str = "standing.json") -> StandingReport:
    """Read ``standing.json`` text; raises :class:`StandingFormatError` naming a pointer."""
    try:
        data = loads(text, unique_keys=True)
    except (DuplicateKey, TooDeep) as err:
        raise StandingFormatError(
            "standing report is not usable",
            source=source,
            pointer=err.pointer,
            complaint=err.complaint,
        ) from err
    except json.JSONDecodeError as err:
        raise StandingFormatError(
            "standing report is not JSON",
            source=source,
            line=err.lineno,
            column=err.colno,
            complaint=err.msg,
        ) from err
    except ValueError as err:
        raise StandingFormatError(
            "standing report is not JSON", source=source, complaint=str(err)
        ) from err
    error = schema_error(data)
    if error is not None:
        raise StandingFormatError(
            "standing report breaks its schema",
            source=source,
            pointer=json_pointer(list(error.absolute_path)),
            complaint=error.message[:200],
        )
    try:
        report = _decode(cast("_Object", data))
    except _Invalid as err:
        raise StandingFormatError(
            "standing report is inconsistent",
            source=source,
            pointer=err.pointer,
            complaint=err.complaint[:200],
        ) from err
    pointer = _first_difference(data, encode(report))
    if pointer is not None:
        raise StandingFormatError(
            "standing report records a value its checks do not imply",
            source=source,
            pointer=pointer,
        )
    return report


def load_standing(path: Path) -> StandingReport:
    """Read the ``standing.json`` at ``path`` (see :func:`from_json`)."""
    try:
        text = read_text(path, limit=MAX_STANDING_BYTES)
    except UnreadableFile as err:
        raise StandingFormatError(
            "cannot read standing report", source=str(path), complaint=str(err.strerror)[:200]
        ) from err
    return from_json(text, source=str(path))
