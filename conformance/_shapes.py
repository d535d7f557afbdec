"""Runtime shapes: behaviours real frameworks have, each judged for exactly the verdict
the rule text gives it.

The reference runtime ships a catalogue of *shapes* (``reference_impl/shapes/``): each a
behaviour some framework has, built as a variant of the runtime, and classed either
*legal* (the rules allow it: the suite must find it conforming) or a *gap* naming the
clauses it breaks (the suite must fail exactly those, and no other).  A verdict that
holds on the shapes holds on the runtimes they stand for, however they are written.

Each shape is run as ``rttool run`` runs an implementation: every check and vector and a
short seeded hunt, through the engine, its outcomes charged to clauses and built into a
standing; the verdict is read off that standing, so the self-test blames exactly as a
vendor's report does.  The catalogue is read by running ``python -m reference_impl.shapes
--list --format json`` and treated as untrusted input.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from adapters.errors import BadJson, ImplementationError, Unreachable
from conformance._workers import Shared, in_workers
from conformance.engine import (
    REFERENCE_SPEC,
    RunOptions,
    Suite,
    clauses_standing,
    load_suite,
    run_suite,
)

__all__ = [
    "SHAPE_CATALOGUE_COMMAND",
    "ShapeInfo",
    "ShapeResult",
    "parse_shapes",
    "read_shapes",
    "run_shape",
    "run_shapes",
]

SHAPE_CATALOGUE_COMMAND = ("-m", "reference_impl.shapes", "--list", "--format", "json")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CLAUSE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*#c[1-9][0-9]*$")
#: How many examples the hunt judges against each shape (a seeded search: the same
#: examples each run, however busy the machine).
HUNT_EXAMPLES = 60

Kind = Literal["legal", "gap"]


@dataclass(frozen=True)
class ShapeInfo:
    """One catalogue entry: a shape's name, whether it is legal or a gap, the clauses
    whose words allow it (legal) or that it breaks (gap), and what it does."""

    name: str
    kind: Kind
    clauses: tuple[str, ...]
    summary: str


@dataclass(frozen=True)
class ShapeResult:
    """How the suite judged one shape: the clauses its standing fails (``failed``) or
    reports in error (``erred``), each with the message of its first failing case."""

    name: str
    kind: Kind
    clauses: tuple[str, ...]
    failed: tuple[tuple[str, str], ...]
    erred: tuple[tuple[str, str], ...]
    duration_s: float
    error: str | None = None

    @property
    def failing(self) -> tuple[str, ...]:
        """The clause ids its standing fails."""
        return tuple(clause for clause, _ in self.failed)

    @property
    def beyond(self) -> tuple[str, ...]:
        """The clauses failed that are not the shape's own (a legal shape owns none)."""
        own = set(self.clauses) if self.kind == "gap" else set()
        return tuple(clause for clause in self.failing if clause not in own)

    @property
    def missed(self) -> tuple[str, ...]:
        """A gap's clauses that its standing does not fail."""
        if self.kind != "gap":
            return ()
        return tuple(clause for clause in self.clauses if clause not in self.failing)

    @property
    def sound(self) -> bool:
        """The verdict the rule text gives: a legal shape fails nothing, a gap fails
        exactly its own clauses; and nothing is in error."""
        return self.error is None and not self.erred and not self.beyond and not self.missed

    def to_json(self) -> dict[str, object]:
        """The result as ``rttool selftest --format json`` lists it under ``shapes``."""
        out: dict[str, object] = {
            "name": self.name,
            "kind": self.kind,
            "clauses": list(self.clauses),
            "sound": self.sound,
            "failed": [{"clause": c, "message": m} for c, m in self.failed],
            "erred": [{"clause": c, "message": m} for c, m in self.erred],
            "beyond": list(self.beyond),
            "missed": list(self.missed),
        }
        if self.error is not None:
            out["error"] = self.error
        return out


def parse_shapes(text: str) -> tuple[ShapeInfo, ...]:
    """The shape catalogue printed as JSON; raises :class:`BadJson` naming the JSON
    pointer of the first value that is not what a catalogue holds."""
    try:
        raw = json.loads(text)
    except ValueError as err:
        raise BadJson("the shape catalogue is not JSON", reason=str(err)[:200]) from err
    if not isinstance(raw, list) or not raw:
        raise BadJson("the shape catalogue is not a non-empty JSON list", pointer="/")
    found = [_entry(entry, f"/{index}") for index, entry in enumerate(raw)]
    names = [shape.name for shape in found]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate is not None:
        raise BadJson("two shapes share a name", name=duplicate)
    return tuple(found)


def _entry(entry: object, pointer: str) -> ShapeInfo:
    if not isinstance(entry, dict):
        raise BadJson("a catalogue entry is not a JSON object", pointer=pointer)
    name, kind = entry.get("name"), entry.get("kind")
    clauses, summary = entry.get("clauses"), entry.get("summary")
    if not isinstance(name, str) or not _NAME.match(name):
        raise BadJson("a shape name is not kebab-case", pointer=f"{pointer}/name")
    if kind not in ("legal", "gap"):
        raise BadJson("a shape is neither legal nor a gap", pointer=f"{pointer}/kind")
    if not isinstance(clauses, list) or (kind == "gap" and not clauses):
        raise BadJson("a gap names no clause it breaks", pointer=f"{pointer}/clauses")
    for position, clause in enumerate(clauses):
        if not isinstance(clause, str) or not _CLAUSE.match(clause):
            raise BadJson("not a clause id", pointer=f"{pointer}/clauses/{position}")
    if not isinstance(summary, str):
        raise BadJson("a shape's summary is not a string", pointer=f"{pointer}/summary")
    return ShapeInfo(name, kind, tuple(clauses), summary)


def read_shapes(timeout: float = 120.0) -> tuple[ShapeInfo, ...]:
    """Run the catalogue command and parse what it prints."""
    command = [sys.executable, *SHAPE_CATALOGUE_COMMAND]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise Unreachable(
            "the shape catalogue could not be listed",
            command=" ".join(SHAPE_CATALOGUE_COMMAND),
            error=str(err)[:200],
        ) from err
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [""]
        raise Unreachable(
            "the shape catalogue could not be listed",
            command=" ".join(SHAPE_CATALOGUE_COMMAND),
            exit=done.returncode,
            stderr=tail[0][:200],
        )
    return parse_shapes(done.stdout)


def run_shape(
    shape: ShapeInfo,
    suite: Suite,
    *,
    timeout: float = 30.0,
    hunt_examples: int = HUNT_EXAMPLES,
    seed: int = 0,
) -> ShapeResult:
    """Run the whole suite (checks, vectors and a short seeded hunt) against ``shape``,
    as a vendor's run would, and read its verdict off the standing."""
    from adapters import Driver, connect
    from conformance import __version__

    started = time.perf_counter()
    options = replace(
        RunOptions(impl="reference", timeout=timeout, examples=hunt_examples, seed=seed),
        spec=f"{REFERENCE_SPEC}?shape={shape.name}",
        ci=True,  # the hunt seeded and counted: the same examples however busy the machine
        quiet=True,
    )
    try:
        driver = Driver(connect(options.spec, timeout=timeout), suite_version=__version__)
        try:
            handshake = driver.handshake()
        finally:
            driver.close()
        result = run_suite(suite, suite.plan(options), options, handshake)
    except ImplementationError as err:
        return ShapeResult(
            shape.name,
            shape.kind,
            shape.clauses,
            (),
            (),
            round(time.perf_counter() - started, 3),
            error=" ".join(str(err).split())[:300],
        )
    return ShapeResult(
        shape.name,
        shape.kind,
        shape.clauses,
        clauses_standing(result.report),
        clauses_standing(result.report, "error"),
        round(time.perf_counter() - started, 3),
    )


def run_shapes(
    shapes: Sequence[ShapeInfo],
    *,
    timeout: float = 30.0,
    workers: int = 2,
    each: Callable[[ShapeResult], None] | None = None,
) -> list[ShapeResult]:
    """Judge every shape, ``workers`` at a time, in catalogue order (see
    :mod:`conformance._workers`); ``each`` hears of every result as it is ready."""
    jobs = [(shape, timeout) for shape in shapes]
    judged = []
    for result in in_workers(_judge, jobs, Shared(load_suite), workers=workers):
        judged.append(result)
        if each is not None:
            each(result)
    return judged


def _judge(suite: Suite, job: tuple[ShapeInfo, float]) -> ShapeResult:
    shape, timeout = job
    return run_shape(shape, suite, timeout=timeout)
