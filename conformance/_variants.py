"""The dual of the mutant self-test: every legal variant of the reference runtime must
conform to every clause.

A legal variant takes another reading the rule text allows (``docs/interpretations.md``).
:func:`run_variant` runs every check and example vector against one variant, straight
through :meth:`~conformance.engine.Session.execute`, then a short seeded hunt,
and says which cases rejected it.  A variant conforms when no case failed or errored, no
invariant was broken, and every clause has a passing check or vector.

The catalogue is read by running ``python -m reference_impl.variants --list --format
json`` in a subprocess, and treated as untrusted input, as the mutant catalogue is.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from adapters.errors import BadJson, ImplementationError, Unreachable
from conformance._workers import Shared, in_workers
from conformance.engine import Case, RunOptions, Session, hunt_case_id, load_suite, resolve_spec
from conformance.rules import Corpus

__all__ = [
    "VARIANT_CATALOGUE_COMMAND",
    "VariantInfo",
    "VariantResult",
    "parse_variants",
    "read_variants",
    "run_variant",
    "run_variants",
]

VARIANT_CATALOGUE_COMMAND = ("-m", "reference_impl.variants", "--list", "--format", "json")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CLAUSE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*#c[1-9][0-9]*$")
#: How many examples the hunt judges against each variant (a seeded search: the same
#: examples each run, however busy the machine).
HUNT_EXAMPLES = 60


@dataclass(frozen=True)
class VariantInfo:
    """One catalogue entry: a variant's name, the reading it takes, the clauses whose
    text allows it, and what it does."""

    name: str
    reading: str
    clauses: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class VariantResult:
    """How the suite judged one variant: ``rejected_by`` lists the cases that failed or
    errored (``HUNT/<invariant>`` for a broken invariant) with their first message;
    ``unproven`` the clauses no passing check or vector covered."""

    name: str
    reading: str
    clauses: tuple[str, ...]
    rejected_by: tuple[tuple[str, str], ...]
    unproven: tuple[str, ...]
    duration_s: float
    error: str | None = None

    @property
    def conforms(self) -> bool:
        """Whether the suite found the variant conforming to every clause."""
        return self.error is None and not self.rejected_by and not self.unproven

    def to_json(self) -> dict[str, object]:
        """The result as ``rttool selftest --format json`` lists it under ``variants``."""
        out: dict[str, object] = {
            "name": self.name,
            "reading": self.reading,
            "clauses": list(self.clauses),
            "conforms": self.conforms,
            "rejected_by": [
                {"case": case, "message": message} for case, message in self.rejected_by
            ],
            "unproven": list(self.unproven),
        }
        if self.error is not None:
            out["error"] = self.error
        return out


def parse_variants(text: str) -> tuple[VariantInfo, ...]:
    """The variant catalogue printed as JSON; raises :class:`BadJson` naming the JSON
    pointer of the first value that is not what a catalogue holds."""
    try:
        raw = json.loads(text)
    except ValueError as err:
        raise BadJson("the variant catalogue is not JSON", reason=str(err)[:200]) from err
    if not isinstance(raw, list) or not raw:
        raise BadJson("the variant catalogue is not a non-empty JSON list", pointer="/")
    found = [_entry(entry, f"/{index}") for index, entry in enumerate(raw)]
    names = [v.name for v in found]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate is not None:
        raise BadJson("two variants share a name", name=duplicate)
    return tuple(found)


def _entry(entry: object, pointer: str) -> VariantInfo:
    if not isinstance(entry, dict):
        raise BadJson("a catalogue entry is not a JSON object", pointer=pointer)
    name, reading = entry.get("name"), entry.get("reading")
    clauses, description = entry.get("clauses"), entry.get("description")
    if not isinstance(name, str) or not _NAME.match(name):
        raise BadJson("a variant name is not kebab-case", pointer=f"{pointer}/name")
    if not isinstance(reading, str) or not _NAME.match(reading):
        raise BadJson(
            "a variant's reading is not a kebab-case anchor", pointer=f"{pointer}/reading"
        )
    if not isinstance(clauses, list) or not clauses:
        raise BadJson("a variant names no clause", pointer=f"{pointer}/clauses")
    for position, clause in enumerate(clauses):
        if not isinstance(clause, str) or not _CLAUSE.match(clause):
            raise BadJson("not a clause id", pointer=f"{pointer}/clauses/{position}")
    if not isinstance(description, str):
        raise BadJson("a variant's description is not a string", pointer=f"{pointer}/description")
    return VariantInfo(name, reading, tuple(clauses), description)


def read_variants(timeout: float = 120.0) -> tuple[VariantInfo, ...]:
    """Run the variant catalogue command and parse what it prints."""
    command = [sys.executable, *VARIANT_CATALOGUE_COMMAND]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise Unreachable(
            "the variant catalogue could not be listed", error=str(err)[:200]
        ) from err
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [""]
        raise Unreachable(
            "the variant catalogue could not be listed",
            exit=done.returncode,
            stderr=tail[0][:200],
        )
    return parse_variants(done.stdout)


def run_variant(
    variant: VariantInfo,
    corpus: Corpus,
    cases: Sequence[Case],
    *,
    timeout: float = 30.0,
    hunt_examples: int = HUNT_EXAMPLES,
    seed: int = 0,
) -> VariantResult:
    """Run ``cases`` and a short seeded hunt against the legal variant ``variant``."""
    started = time.perf_counter()
    options = RunOptions.quiet_reference(variant=variant.name, timeout=timeout)
    state = Session(options, corpus, load_suite().situations)
    rejected: list[tuple[str, str]] = []
    passed: set[str] = set()
    # A clause every case of which is not applicable is settled too (a variant that
    # collects nothing, say, is not held to what binds one that does).
    settled: dict[str, bool] = {}
    try:
        try:
            state.handshake()
        except ImplementationError as err:
            return _undrivable(variant, err, started)
        for case in cases:
            outcome = state.execute(case)
            if outcome.outcome in ("failed", "error"):
                rejected.append((case.id, outcome.message))
            elif outcome.outcome == "passed":
                passed.update(case.clauses)
            for clause in case.clauses:
                inapplicable = outcome.skip_kind == "not-applicable"
                settled[clause] = settled.get(clause, True) and inapplicable
        rejected += _hunt(variant, timeout=timeout, examples=hunt_examples, seed=seed)
    except ImplementationError as err:
        return _undrivable(variant, err, started)
    except _NoVerdict as cut:
        return _undrivable(variant, cut, started, said=str(cut))
    finally:
        state.close()
    unproven = tuple(
        clause.id
        for clause in corpus.clauses
        if clause.id not in passed and not settled.get(clause.id, False)
    )
    return VariantResult(
        variant.name,
        variant.reading,
        variant.clauses,
        tuple(rejected),
        unproven,
        round(time.perf_counter() - started, 3),
    )


def _hunt(
    variant: VariantInfo, *, timeout: float, examples: int, seed: int
) -> list[tuple[str, str]]:
    """The invariants a short seeded hunt finds broken, as rejecting cases."""
    from adapters import Driver, connect
    from conformance import __version__
    from conformance.hunt import Budget, hunt
    from conformance.selftest import cut_short

    driver = Driver(
        connect(resolve_spec("reference", None, variant.name), timeout=timeout),
        timeout=timeout,
        suite_version=__version__,
    )
    try:
        handshake = driver.handshake()
        claimed = [i for i in load_suite().invariants if i.profile in handshake.profiles]
        # A fixed number of seeded examples: the same search however busy the machine is.
        budget = Budget(seed=seed, limit=examples, seconds=60.0, shrinks=100)
        outcome = hunt(driver, handshake, claimed, budget)
    finally:
        driver.close()
    cut = cut_short(outcome, budget, claimed)
    if cut is not None:  # a search the machine's load cut may have missed a rejection
        raise _NoVerdict(cut)
    return [(hunt_case_id(name), found.message) for name, found in outcome.findings.items()]


class _NoVerdict(Exception):
    """The variant's hunt says nothing of it (see :func:`conformance.selftest.cut_short`)."""


def _undrivable(
    variant: VariantInfo, err: Exception, started: float, *, said: str | None = None
) -> VariantResult:
    """A variant the suite reached no verdict on: it could not be driven (``err``), or
    what ``said`` says."""
    why = said or f"could not be driven: {err}"
    return VariantResult(
        variant.name,
        variant.reading,
        variant.clauses,
        (),
        (),
        round(time.perf_counter() - started, 3),
        error=" ".join(why.split())[:300],
    )


def run_variants(
    variants: Sequence[VariantInfo],
    *,
    timeout: float = 30.0,
    workers: int = 2,
    suite: tuple[Corpus, Sequence[Case]] | None = None,
    hunt_examples: int = HUNT_EXAMPLES,
    each: Callable[[VariantResult], None] | None = None,
) -> list[VariantResult]:
    """Judge every variant against ``suite`` (the corpus and the cases; by default every
    check and example vector), ``workers`` at a time, in catalogue order (see
    :mod:`conformance._workers`); ``each`` hears of every result as it is ready."""
    from conformance.selftest import load_cases

    held = None if suite is None else (suite[0], list(suite[1]))
    jobs = [(variant, timeout, hunt_examples) for variant in variants]
    judged = []
    for result in in_workers(_judge, jobs, Shared(load_cases, held), workers=workers):
        judged.append(result)
        if each is not None:
            each(result)
    return judged


def _judge(suite: tuple[Corpus, list[Case]], job: tuple[VariantInfo, float, int]) -> VariantResult:
    corpus, cases = suite
    variant, timeout, examples = job
    return run_variant(variant, corpus, cases, timeout=timeout, hunt_examples=examples)
