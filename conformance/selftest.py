"""The suite's self-test: every check must fail against a runtime that breaks its clause.

The reference runtime ships a catalogue of *mutants*, each a deliberately broken
variant naming the clauses it breaks.  :func:`run_mutant` runs the suite's cases (the
checks and the example vectors) against one mutant, straight through
:meth:`~conformance._pytest._state.SuiteState.execute`, and says which clauses' cases
caught it.  A mutant is *killed* when any case failed or errored; each clause it claims
to break must be among the clauses of the cases that did, or it is *missed*.

The catalogue is read by running ``python -m reference_impl.mutants --list --format
json`` in a subprocess: the suite never imports the reference runtime, and treats what
that command prints as untrusted input.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from adapters.errors import BadJson, ImplementationError, Unreachable
from conformance._pytest._options import RunOptions, resolve_spec
from conformance._pytest._state import SuiteState
from conformance.cases import Case, Selection, collect_cases, rules_of
from conformance.rules import Corpus

__all__ = [
    "CATALOGUE_COMMAND",
    "MutantInfo",
    "MutantResult",
    "parse_catalogue",
    "read_catalogue",
    "run_mutant",
    "selected_cases",
    "suite_cases",
    "uncovered_clauses",
]

#: The command that prints the catalogue (run with the current interpreter).
CATALOGUE_COMMAND = ("-m", "reference_impl.mutants", "--list", "--format", "json")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CLAUSE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*#c[1-9][0-9]*$")
_CAUGHT = ("failed", "error")


@dataclass(frozen=True)
class MutantInfo:
    """One catalogue entry: a mutant's name, the clauses it breaks, what is broken."""

    name: str
    breaks: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class MutantResult:
    """How the cases fared against one mutant.

    ``caught_by`` lists (in corpus order) the clauses of every case that failed or
    errored; ``missed`` the clauses of ``breaks`` not among them; ``error`` says why the
    mutant could not be driven at all.
    """

    name: str
    breaks: tuple[str, ...]
    caught: bool
    caught_by: tuple[str, ...]
    missed: tuple[str, ...]
    cases: int
    duration_s: float
    error: str | None = None

    def to_json(self) -> dict[str, object]:
        """The result as ``rttool selftest --format json`` reports it."""
        out: dict[str, object] = {
            "name": self.name,
            "breaks": list(self.breaks),
            "caught": self.caught,
            "caught_by": list(self.caught_by),
            "missed": list(self.missed),
        }
        if self.error is not None:
            out["error"] = self.error
        return out


def parse_catalogue(text: str) -> tuple[MutantInfo, ...]:
    """The catalogue printed as JSON; raises :class:`BadJson` naming the JSON pointer of
    the first value that is not what a catalogue holds."""
    try:
        raw = json.loads(text)
    except ValueError as err:
        raise BadJson("the mutant catalogue is not JSON", reason=str(err)[:200]) from err
    if not isinstance(raw, list) or not raw:
        raise BadJson("the mutant catalogue is not a non-empty JSON list", pointer="/")
    found: list[MutantInfo] = []
    for index, entry in enumerate(raw):
        found.append(_entry(entry, f"/{index}"))
    names = [m.name for m in found]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate is not None:
        raise BadJson("two mutants share a name", name=duplicate)
    return tuple(found)


def _entry(entry: object, pointer: str) -> MutantInfo:
    if not isinstance(entry, dict):
        raise BadJson("a catalogue entry is not a JSON object", pointer=pointer)
    name, breaks, description = entry.get("name"), entry.get("breaks"), entry.get("description")
    if not isinstance(name, str) or not _NAME.match(name):
        raise BadJson("a mutant name is not kebab-case", pointer=f"{pointer}/name")
    if not isinstance(breaks, list) or not breaks:
        raise BadJson("a mutant breaks no clause", pointer=f"{pointer}/breaks")
    for position, clause in enumerate(breaks):
        if not isinstance(clause, str) or not _CLAUSE.match(clause):
            raise BadJson("not a clause id", pointer=f"{pointer}/breaks/{position}")
    if not isinstance(description, str):
        raise BadJson("a mutant's description is not a string", pointer=f"{pointer}/description")
    return MutantInfo(name, tuple(breaks), description)


def read_catalogue(timeout: float = 120.0) -> tuple[MutantInfo, ...]:
    """Run the catalogue command and parse what it prints."""
    command = [sys.executable, *CATALOGUE_COMMAND]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise Unreachable(
            "the mutant catalogue could not be listed",
            command=" ".join(CATALOGUE_COMMAND),
            error=str(err)[:200],
        ) from err
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [""]
        raise Unreachable(
            "the mutant catalogue could not be listed",
            command=" ".join(CATALOGUE_COMMAND),
            exit=done.returncode,
            stderr=tail[0][:200],
        )
    return parse_catalogue(done.stdout)


def suite_cases(corpus: Corpus) -> list[Case]:
    """Every check and example vector of the suite (the property-based hunt is left out:
    it is a search with a time budget, not a fixed set of cases)."""
    from conformance.vectors import vector_cases

    return collect_cases(corpus, Selection(kinds=("check", "vector")), vector_cases(corpus))


def selected_cases(cases: Sequence[Case], mutant: MutantInfo, *, full: bool) -> list[Case]:
    """The cases a mutant is run against: those of the rules it breaks, or all."""
    if full:
        return list(cases)
    rules = set(rules_of(mutant.breaks))
    return [case for case in cases if rules & set(case.rules)]


def uncovered_clauses(corpus: Corpus, catalogue: Iterable[MutantInfo]) -> tuple[str, ...]:
    """The corpus's clauses that no mutant claims to break, in corpus order."""
    broken = {clause for mutant in catalogue for clause in mutant.breaks}
    return tuple(clause.id for clause in corpus.clauses if clause.id not in broken)


def run_mutant(
    mutant: MutantInfo, corpus: Corpus, cases: Sequence[Case], *, timeout: float = 30.0
) -> MutantResult:
    """Run ``cases`` against the reference runtime's mutant ``mutant``."""
    started = time.perf_counter()
    options = RunOptions(
        impl="reference",
        spec=resolve_spec("reference", mutant.name),
        mutant=mutant.name,
        only=(),
        levels=(),
        report_dir=None,
        timeout=timeout,
        examples=None,
        hunt_seconds=None,
        seed=None,
        hunt=False,
        ci=False,
        quiet=True,
    )
    state = SuiteState(options, corpus, list(cases))
    failing: list[Case] = []
    try:
        try:
            state.handshake()
        except ImplementationError as err:
            return MutantResult(
                mutant.name,
                mutant.breaks,
                False,
                (),
                mutant.breaks,
                len(cases),
                round(time.perf_counter() - started, 3),
                error=" ".join(str(err).split())[:300],
            )
        for case in cases:
            if state.execute(case).outcome in _CAUGHT:
                failing.append(case)
    finally:
        state.close()
    order = {clause.id: index for index, clause in enumerate(corpus.clauses)}
    caught_by = tuple(
        sorted(
            {c for case in failing for c in case.clauses},
            key=lambda clause: (order.get(clause, len(order)), clause),
        )
    )
    missed = tuple(clause for clause in mutant.breaks if clause not in caught_by)
    return MutantResult(
        mutant.name,
        mutant.breaks,
        bool(failing),
        caught_by,
        missed,
        len(cases),
        round(time.perf_counter() - started, 3),
    )
