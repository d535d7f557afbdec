"""The suite's self-test: every check must fail against a runtime that breaks its clause.

The reference runtime ships a catalogue of *mutants*, each a deliberately broken
variant naming the clauses it breaks.  :func:`run_mutant` runs the suite's cases (the
checks and the example vectors) against one mutant, straight through
:meth:`~conformance.engine.Session.execute`, and says which clauses' cases
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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from adapters.errors import BadJson, ImplementationError, Unreachable
from conformance._workers import Shared, in_workers
from conformance.engine import (
    Case,
    CaseOutcome,
    RunOptions,
    Selection,
    Session,
    Suite,
    Tally,
    build_report,
    clauses_standing,
    hunt_case_id,
    hunt_cases_over,
    resolve_spec,
    rules_of,
)
from conformance.rules import Corpus

if TYPE_CHECKING:
    from adapters.handshake import Handshake
    from conformance.hunt import Budget, HuntOutcome
    from conformance.toolkit.machinery import ClauseSituation, Invariant

__all__ = [
    "CATALOGUE_COMMAND",
    "MAX_COUNTEREXAMPLE_STEPS",
    "HuntVerdict",
    "MutantInfo",
    "MutantResult",
    "cut_short",
    "parse_catalogue",
    "read_catalogue",
    "run_hunt_mutant",
    "run_mutant",
    "run_mutants",
    "selected_cases",
    "suite_cases",
    "uncovered_clauses",
    "unproven_cases",
    "unproven_invariants",
]

#: The command that prints the catalogue (run with the current interpreter).
CATALOGUE_COMMAND = ("-m", "reference_impl.mutants", "--list", "--format", "json")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CLAUSE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*#c[1-9][0-9]*$")


@dataclass(frozen=True)
class MutantInfo:
    """One catalogue entry: a mutant's name, the clauses it breaks, what is broken."""

    name: str
    breaks: tuple[str, ...]
    description: str
    #: a combination bug: the hunt must catch it and the hand-written cases must not
    hunt: bool = False
    #: the hunt must catch it as well as the hand-written cases: it proves an invariant
    hunted: bool = False


#: At most this many steps in the counterexample the hunt finds for a mutant: short
#: enough to read and replay, long enough for the longest bug of the catalogue (a count of
#: continuations reset by Continue needs five cuts, a start, a wait, a Continue, a wait).
MAX_COUNTEREXAMPLE_STEPS = 10
#: How far the hunt shrinks a counterexample found longer than that (a count, not a time:
#: the same counterexample on any machine).
SHRINKS = 200


@dataclass(frozen=True)
class HuntVerdict:
    """What the hunt did against a mutant it must find.

    For a combination mutant (``hunt_only``) ``checks_alone_caught`` must be false (else
    it is no combination bug); the hunt must find it, and its counterexample must be
    short.  ``invariants`` are the invariants it found broken."""

    checks_alone_caught: bool
    counterexample_steps: int | None
    first_failure_examples: int | None
    first_failure_s: float | None
    hunt_only: bool = True
    invariants: tuple[str, ...] = ()

    @property
    def sound(self) -> bool:
        """The hunt finds it in a short scenario (and, for a combination mutant, the
        checks miss it)."""
        return (
            not (self.hunt_only and self.checks_alone_caught)
            and self.counterexample_steps is not None
            and self.counterexample_steps <= MAX_COUNTEREXAMPLE_STEPS
        )


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
    hunt: HuntVerdict | None = None
    #: the ids of the cases that failed against it (``HUNT/<invariant>`` for the hunt's
    #: findings); errors are left out, since they prove no check can fail
    caught_by_cases: tuple[str, ...] = ()
    #: the clauses its standing fails beyond those it breaks, each with the message of
    #: its first failing case (the blame gate holds these to the recorded consequences)
    beyond: tuple[tuple[str, str], ...] = ()
    #: failure lines a vendor could not read as the report promises (see
    #: :func:`misworded`), each ``"<case id>: <why>: <line>"``, the first few
    misworded: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        """Caught, by every clause it claims, and (a combination mutant) by the hunt only;
        every failure it drew worded as a report line must be."""
        sound = self.hunt is None or self.hunt.sound
        return self.caught and not self.missed and sound and not self.misworded

    def to_json(self) -> dict[str, object]:
        """The result as ``rttool selftest --format json`` reports it."""
        out: dict[str, object] = {
            "name": self.name,
            "breaks": list(self.breaks),
            "caught": self.caught,
            "caught_by": list(self.caught_by),
            "missed": list(self.missed),
            "caught_by_cases": list(self.caught_by_cases),
            "beyond": [{"clause": c, "message": m} for c, m in self.beyond],
        }
        if self.misworded:
            out["misworded"] = list(self.misworded)
        if self.error is not None:
            out["error"] = self.error
        if self.hunt is not None:
            out["hunt"] = {
                "checks_alone_caught": self.hunt.checks_alone_caught,
                "counterexample_steps": self.hunt.counterexample_steps,
                "first_failure_examples": self.hunt.first_failure_examples,
                "first_failure_s": self.hunt.first_failure_s,
                "hunt_only": self.hunt.hunt_only,
                "invariants": list(self.hunt.invariants),
            }
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
    hunt, hunted = entry.get("hunt", False), entry.get("hunted", False)
    if not isinstance(hunt, bool):
        raise BadJson("a mutant's hunt flag is not a boolean", pointer=f"{pointer}/hunt")
    if not isinstance(hunted, bool):
        raise BadJson("a mutant's hunted flag is not a boolean", pointer=f"{pointer}/hunted")
    return MutantInfo(name, tuple(breaks), description, hunt, hunted)


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
    return Suite.over(corpus).cases(Selection(kinds=("check", "vector")))


def load_cases() -> tuple[Corpus, list[Case]]:
    """The corpus and :func:`suite_cases`, as a process of its own loads them."""
    from conformance.rules import load_corpus

    corpus = load_corpus()
    return corpus, suite_cases(corpus)


def _situations() -> Mapping[str, tuple[ClauseSituation, ...]]:
    """Every clause's situations (what a case records it reached)."""
    from conformance.engine import load_suite

    return load_suite().situations


def selected_cases(cases: Sequence[Case], mutant: MutantInfo, *, full: bool) -> list[Case]:
    """The cases a mutant is run against: those of the rules it breaks, or all."""
    if full:
        return list(cases)
    rules = set(rules_of(mutant.breaks))
    return [case for case in cases if rules & set(case.rules)]


def unproven_cases(cases: Iterable[Case], results: Iterable[MutantResult]) -> tuple[str, ...]:
    """The ids of ``cases`` that no mutant made fail: a check never seen failing could
    pass against a broken runtime, so the self-test counts it as a finding."""
    caught = {case_id for result in results for case_id in result.caught_by_cases}
    return tuple(case.id for case in cases if case.id not in caught)


def unproven_invariants(results: Iterable[MutantResult]) -> tuple[str, ...]:
    """The hunt's invariants that no mutant was seen breaking: an invariant never seen
    failing could pass against a broken runtime, as an unproven check could."""
    from conformance.engine import load_suite

    found = {name for result in results if result.hunt for name in result.hunt.invariants}
    invariants = load_suite().invariants
    return tuple(invariant.name for invariant in invariants if invariant.name not in found)


def uncovered_clauses(corpus: Corpus, catalogue: Iterable[MutantInfo]) -> tuple[str, ...]:
    """The corpus's clauses that no mutant claims to break, in corpus order."""
    broken = {clause for mutant in catalogue for clause in mutant.breaks}
    return tuple(clause.id for clause in corpus.clauses if clause.id not in broken)


def _not_driven(
    mutant: MutantInfo, cases: Sequence[Case], started: float, err: ImplementationError
) -> MutantResult:
    """The result of a mutant that could not be driven at all: caught by nothing, every
    clause it breaks missed, and why (on one line, bounded)."""
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


def _in_corpus_order(corpus: Corpus, clauses: Iterable[str]) -> tuple[str, ...]:
    """``clauses`` in the corpus's order (any the corpus does not hold last, by id)."""
    order = {clause.id: index for index, clause in enumerate(corpus.clauses)}
    return tuple(sorted(clauses, key=lambda clause: (order.get(clause, len(order)), clause)))


def run_mutant(
    mutant: MutantInfo, corpus: Corpus, cases: Sequence[Case], *, timeout: float = 30.0
) -> MutantResult:
    """Run ``cases`` against the reference runtime's mutant ``mutant``."""
    started = time.perf_counter()
    driven = _executed(mutant, cases, timeout=timeout)
    if isinstance(driven, ImplementationError):
        return _not_driven(mutant, cases, started, driven)
    handshake, outcomes = driven
    return _judged_mutant(mutant, corpus, cases, outcomes, handshake, started)


def _executed(
    mutant: MutantInfo, cases: Sequence[Case], *, timeout: float
) -> tuple[Handshake, dict[str, CaseOutcome]] | ImplementationError:
    """Every case of ``cases`` run against the mutant, by case id, and its handshake;
    the error, when it could not be driven at all."""
    from conformance.rules import load_corpus

    options = RunOptions.quiet_reference(mutant=mutant.name, timeout=timeout)
    state = Session(options, load_corpus(), _situations())
    try:
        try:
            handshake = state.handshake()
        except ImplementationError as err:
            return err
        return handshake, {case.id: state.execute(case) for case in cases}
    finally:
        state.close()


def _judged_mutant(
    mutant: MutantInfo,
    corpus: Corpus,
    cases: Sequence[Case],
    outcomes: Mapping[str, CaseOutcome],
    handshake: Handshake,
    started: float,
) -> MutantResult:
    """The verdict on a mutant, read off the standing its cases' outcomes build, as a
    vendor's report reads: a clause catches it where the standing fails the clause (or
    reports it in error through the implementation), every failure charged to the clause
    whose words it breaks; a clause failed beyond those it breaks is listed for the
    blame gate."""
    tally = Tally(
        options=RunOptions.quiet_reference(mutant=mutant.name),
        corpus=corpus,
        cases=cases,
        outcomes=outcomes,
        situations=_situations(),
        started=0.0,
    )
    report = build_report(tally, handshake, duration_s=0.0, levels=())
    failing = clauses_standing(report)
    erring = clauses_standing(report, "error") if _implementation_erred(outcomes) else ()
    caught_by = _in_corpus_order(corpus, {clause for clause, _ in (*failing, *erring)})
    proven = [case.id for case in cases if outcomes[case.id].outcome == "failed"]
    return MutantResult(
        mutant.name,
        mutant.breaks,
        bool(caught_by),
        caught_by,
        tuple(clause for clause in mutant.breaks if clause not in caught_by),
        len(cases),
        round(time.perf_counter() - started, 3),
        caught_by_cases=tuple(proven),
        beyond=tuple((c, m) for c, m in failing if c not in mutant.breaks),
        misworded=misworded(cases, outcomes),
    )


#: How Python, not JSON, shows a value: a failure line shows values as JSON.
_PYTHON_VALUES = (" None", "True,", "False,", "{'", "['")
#: The most misworded lines a mutant's result keeps.
_MISWORDED_KEPT = 3


def misworded(cases: Sequence[Case], outcomes: Mapping[str, CaseOutcome]) -> tuple[str, ...]:
    """The failures drawn that are not worded as a standing's line must be: one line,
    and, for a durable-resume rule's own check, values shown as JSON (never Python's
    ``None``, ``True`` or quotes) and citing the paragraph it holds the runtime to
    (``DR-4 ¶2``: those rules are rttool's, and a vendor reads them nowhere else) (the
    first few, each with why)."""
    found: list[str] = []
    for case in cases:
        outcome = outcomes.get(case.id)
        if outcome is None or outcome.outcome != "failed":
            continue
        for failure in outcome.failures:
            line = failure.line()
            # A durable check's lines are rttool's own and are held to all of it; other
            # rules' checks quote what the tests send, which may read as Python (a
            # string argument "{'a': 1}"): only one line is asked of them.
            durable = case.id.startswith("DR-")
            why = _misworded_because(line, case.rules) if durable else _multiline(line)
            if why is not None:
                found.append(f"{case.id}: {why}: {line[:300]}")
            if len(found) >= _MISWORDED_KEPT:
                return tuple(found)
    return tuple(found)


def _multiline(line: str) -> str | None:
    return "more than one line" if "\n" in line else None


def _misworded_because(line: str, rules: Sequence[str]) -> str | None:
    if "\n" in line:
        return "more than one line"
    if rules and not any(f"{rule} ¶" in line for rule in rules):
        return f"cites no paragraph of {', '.join(rules)}"
    python = next((shown for shown in _PYTHON_VALUES if shown in line), None)
    return None if python is None else f"shows a value as Python does ({python.strip()!r})"


def _implementation_erred(outcomes: Mapping[str, CaseOutcome]) -> bool:
    """Whether some case erred through the implementation's fault on a case it ran (an
    error of the suite's own proves nothing of the implementation)."""
    return any(o.caught and o.outcome == "error" for o in outcomes.values())


def run_mutants(
    mutants: Sequence[MutantInfo],
    corpus: Corpus,
    cases: Sequence[Case],
    *,
    full: bool = False,
    timeout: float = 30.0,
    workers: int = 2,
) -> Iterator[MutantResult]:
    """Judge each mutant against its :func:`selected_cases` (and by the hunt, for one the
    hunt must find), ``workers`` at a time, each result yielded in catalogue order as it
    is ready (see :mod:`conformance._workers`)."""
    jobs = [(mutant, full, timeout) for mutant in mutants]
    suite = Shared(load_cases, (corpus, list(cases)))
    yield from in_workers(_judge_mutant, jobs, suite, workers=workers)


def _judge_mutant(
    suite: tuple[Corpus, list[Case]], job: tuple[MutantInfo, bool, float]
) -> MutantResult:
    corpus, cases = suite
    mutant, full, timeout = job
    selected = selected_cases(cases, mutant, full=full)
    run = run_hunt_mutant if mutant.hunt or mutant.hunted else run_mutant
    return run(mutant, corpus, selected, timeout=timeout)


def cut_short(
    outcome: HuntOutcome, budget: Budget, claimed: Sequence[Invariant], *, done: bool = False
) -> str | None:
    """Why a search bounded by a count of examples (``budget.limit``) is no verdict, or
    ``None`` where it is one.

    Such a search judges the same examples on any machine, so its outcome is a verdict
    only when it ended as the count says: it judged its examples, found every invariant
    it was after, or ``done`` (what it looked for was found).  One that ended before,
    with invariants left and nothing wrong, was cut by its time guard: on a busy
    machine, not because of the runtime, so it says nothing of the runtime (a mutant
    read from it would survive by the machine's load).  A stop by hand ends the
    self-test (``KeyboardInterrupt``)."""
    if outcome.interrupted:
        raise KeyboardInterrupt
    left = [one for one in claimed if one.name not in outcome.findings]
    if (
        done
        or not left
        or budget.limit is None
        or outcome.examples >= budget.limit
        or outcome.broken is not None
        or outcome.error is not None
    ):
        return None
    return (
        f"no verdict: the hunt's search was cut by its time guard after {outcome.examples} "
        f"of {budget.limit} examples (the machine too busy?); run it again"
    )


def _shortest(outcome: HuntOutcome) -> int | None:
    """The steps of the shortest counterexample the hunt found, if any."""
    return min((len(f.scenario.steps) for f in outcome.findings.values()), default=None)


def run_hunt_mutant(
    mutant: MutantInfo,
    corpus: Corpus,
    cases: Sequence[Case],
    *,
    timeout: float = 30.0,
    seed: int = 0,
) -> MutantResult:
    """A mutant the hunt must find: the hunt, with its default budget and a fixed seed,
    must catch it on the clauses it breaks; a combination mutant (``hunt``) must also
    be missed by the hand-written cases alone."""
    from adapters import Driver, connect
    from conformance import __version__
    from conformance.engine import load_suite
    from conformance.hunt import Budget, hunt

    started = time.perf_counter()
    driven = _executed(mutant, cases, timeout=timeout)
    if isinstance(driven, ImplementationError):
        return _not_driven(mutant, cases, started, driven)
    first_handshake, outcomes = driven
    alone = _judged_mutant(mutant, corpus, cases, outcomes, first_handshake, started)
    driver = Driver(
        connect(resolve_spec("reference", mutant.name), timeout=timeout),
        timeout=timeout,
        suite_version=__version__,
    )
    try:
        handshake = driver.handshake()
        invariants = load_suite().invariants
        claimed = [i for i in invariants if i.profile in handshake.profiles]
        wanted = set(mutant.breaks)
        by_name = {invariant.name: invariant for invariant in invariants}

        def enough(found: HuntOutcome) -> bool:
            covered = {c for name in found.findings for c in by_name[name].clauses}
            return wanted <= covered

        # A seeded search of at most a thousand examples, stopped as soon as the mutant's
        # clauses are found: the same examples however busy the machine is (the time
        # bound only guards against a harness that never finishes).  The self-test asks
        # for a short counterexample, not the shortest: one found short enough is kept
        # as it is, and a longer one is shrunk (by a count of shrinks, again the same on
        # any machine) only until it is short enough.  Shrinking further was most of the
        # self-test's cost.
        budget = Budget(
            seed=seed,
            limit=1000,
            seconds=600.0,
            shrinks=SHRINKS,
            short_enough=MAX_COUNTEREXAMPLE_STEPS,
        )
        outcome = hunt(driver, handshake, claimed, budget, enough=enough)
        cut = cut_short(outcome, budget, claimed, done=enough(outcome))
    except ImplementationError as err:
        return _not_driven(mutant, cases, started, err)
    finally:
        driver.close()
    if cut is not None:  # no verdict, never a survivor: the machine's load decided it
        return MutantResult(
            mutant.name,
            mutant.breaks,
            False,
            (),
            mutant.breaks,
            len(cases),
            round(time.perf_counter() - started, 3),
            error=cut,
        )
    first = outcome.first_failure
    verdict = HuntVerdict(
        checks_alone_caught=alone.caught,
        counterexample_steps=_shortest(outcome),
        first_failure_examples=first[0] if first else None,
        first_failure_s=first[1] if first else None,
        hunt_only=mutant.hunt,
        invariants=tuple(sorted(outcome.findings)),
    )
    # The hunt's findings are judged as a run's hunt cases judge them (each charged to
    # the clauses it breaks, held to the channels it observes through); a combination
    # mutant is judged by the hunt alone, any other by the checks too.
    hunted = hunt_cases_over(outcome, tuple(claimed), _situations())
    options = RunOptions.quiet_reference(mutant=mutant.name, timeout=timeout)
    session = Session(options, corpus, _situations())
    try:
        found = {case.id: session.execute(case) for case in hunted}
    finally:
        session.close()
    judged = [*hunted] if mutant.hunt else [*cases, *hunted]
    combined = _judged_mutant(
        mutant,
        corpus,
        judged,
        found if mutant.hunt else {**outcomes, **found},
        first_handshake,
        started,
    )
    return replace(
        combined,
        caught=bool(outcome.findings) or (alone.caught and not mutant.hunt),
        hunt=verdict,
        caught_by_cases=(
            *alone.caught_by_cases,
            *(hunt_case_id(name) for name in outcome.findings),
        ),
    )
