"""Every scenario the suite can send, with the clauses it serves and what it needs.

``rttool scenarios list|show|dump`` is built on :func:`build_catalog`.  No scenario is
written down twice: each check and each example vector is run, as in a real run,
against a runner that records what it sends (see :mod:`conformance.catalog._recording`),
and a sample of the hunt's scenarios is drawn with a fixed seed.  No scenario is sent to
the implementation under test: the handshake is the bundled reference runtime's (it
claims every profile and offers every capability) unless one is given, and the reference
runtime answers the scenarios so that a check reaches the ones it sends only after
judging an earlier one; those are marked ``after`` the one they wait on.  ``first_only``
lists only what each case sends before it judges anything, and runs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.handshake import Handshake
from conformance.catalog._entries import CaseSummary, Entry, EntryKind, file_names
from conformance.catalog._hunt_sample import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    hunt_clauses,
    hunt_samples,
)
from conformance.catalog._recording import CaseRecording, record_case
from conformance.engine import Case, hunt_case_id
from conformance.rules import Corpus
from conformance.toolkit.machinery import ScenarioRunner

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "CaseSummary",
    "Catalog",
    "Entry",
    "EntryKind",
    "build_catalog",
    "file_names",
]


def _key(entry: Entry, key: str) -> str:
    return entry.scenario.id if key == "scenario" else str(getattr(entry, key))


@dataclass(frozen=True)
class Catalog:
    """The entries (checks', then vectors', then hunt samples), the cases they came
    from, and the handshake they were listed for."""

    entries: tuple[Entry, ...]
    cases: tuple[CaseSummary, ...]
    handshake: Handshake
    first_only: bool
    seed: int

    def find(self, wanted: str) -> tuple[Entry, ...]:
        """The entry with id ``wanted``, or every entry of the case ``wanted``, or the
        entries whose scenario id is ``wanted``."""
        for key in ("id", "case", "scenario"):
            found = tuple(entry for entry in self.entries if _key(entry, key) == wanted)
            if found:
                return found
        return ()


def _unclaimed(rules: Sequence[str], corpus: Corpus, handshake: Handshake) -> str | None:
    """The profile of the first rule whose profiles ``handshake`` does not claim."""
    for rule_id in rules:
        rule = corpus.get(rule_id)
        if rule is not None and not set(rule.profiles) & set(handshake.profiles):
            return "/".join(rule.profiles)
    return None


def _record(
    cases: Sequence[Case], corpus: Corpus, handshake: Handshake, answer: ScenarioRunner | None
) -> tuple[list[Entry], list[CaseSummary]]:
    """Each case run against a recorder; a case of a profile the handshake does not claim
    is not applicable and sends nothing, as in a run."""
    entries: list[Entry] = []
    summaries: list[CaseSummary] = []
    for case in cases:
        kind: EntryKind = "vector" if case.kind == "vector" else "check"
        unclaimed = _unclaimed(case.rules, corpus, handshake)
        if unclaimed:
            ended = f"not applicable: profile {unclaimed} not claimed"
            summaries.append(CaseSummary(case.id, kind, case.clauses, 0, ended))
            continue
        recording = record_case(case, handshake, answer)
        entries += _entries(case.id, kind, case.clauses, recording)
        summaries.append(
            CaseSummary(case.id, kind, case.clauses, len(recording.sent), recording.ended)
        )
    return entries, summaries


def _hunt_entries(
    corpus: Corpus, handshake: Handshake, only: Sequence[str], samples: int, seed: int
) -> list[Entry]:
    """``samples`` hunt scenarios, unless ``only`` selects none of the hunt's clauses."""
    clauses, observes = hunt_clauses(handshake)
    order = {clause.id: index for index, clause in enumerate(corpus.clauses)}
    clauses = tuple(sorted(clauses, key=lambda clause: order.get(clause, len(order))))
    wanted = set(only)
    if wanted and not any(c in wanted or c.split("#")[0] in wanted for c in clauses):
        return []
    return [
        Entry(
            id=hunt_case_id(scenario.id),
            case="HUNT",
            kind="hunt-sample",
            clauses=clauses,
            scenario=scenario,
            observes=observes,
        )
        for scenario in hunt_samples(handshake, samples, seed)
    ]


def _entries(
    case_id: str, kind: EntryKind, clauses: tuple[str, ...], rec: CaseRecording
) -> list[Entry]:
    entries: list[Entry] = []
    for scenario in rec.sent:
        entry_id = f"{case_id}/{scenario.id}"
        taken = {e.id for e in entries}
        number = 2
        while entry_id in taken:  # a case that sends one scenario id twice
            entry_id, number = f"{case_id}/{scenario.id}-{number}", number + 1
        entries.append(
            Entry(
                id=entry_id,
                case=case_id,
                kind=kind,
                clauses=clauses,
                scenario=scenario,
                observes=tuple(rec.observes),
                after=entries[-1].id if entries else None,
                missing=rec.missing.get(scenario.id),
            )
        )
    return entries


def build_catalog(
    *,
    only: Sequence[str] = (),
    first_only: bool = False,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    handshake: Handshake | None = None,
) -> Catalog:
    """List every scenario of the selected cases (``only``: rule or clause ids, checked
    against the corpus) and ``samples`` hunt scenarios drawn with ``seed``.

    The cases see ``handshake`` (default: the reference runtime's); a scenario needing
    what it lacks is listed with ``missing`` set and not answered, as a run would not
    send it.  With ``first_only`` and a ``handshake``, nothing at all is run.

    Raises :class:`adapters.errors.SuiteError` for an ``only`` the corpus does not have.
    """
    from adapters import Driver, connect
    from conformance import __version__
    from conformance.engine import REFERENCE_SPEC, Selection, check_selection, load_suite
    from conformance.rules import load_corpus

    corpus = load_corpus()
    check_selection(corpus, only, ())
    selection = Selection(only=tuple(only), kinds=("check", "vector"))
    cases = load_suite().cases(selection)
    runs = not (first_only and handshake is not None)
    reference = Driver(connect(REFERENCE_SPEC), suite_version=__version__) if runs else None
    try:
        if handshake is None:
            assert reference is not None
            handshake = reference.handshake()
        answer = None if first_only else reference
        entries, summaries = _record(cases, corpus, handshake, answer)
    finally:
        if reference is not None:
            reference.close()
    entries += _hunt_entries(corpus, handshake, only, samples, seed)
    return Catalog(tuple(entries), tuple(summaries), handshake, first_only, seed)
