"""The mutant catalogue: deliberately broken variants of the reference runtime.

Each mutant replaces one component of :class:`~reference_impl.behaviour.Components`
with a subclass that overrides (usually) one hook, the method taking the one decision it
gets wrong, so that it breaks the clauses it names and as little else as possible.  The
suite proves its checks by running them against every mutant (``rttool selftest``): a
check that a broken runtime passes would vouch for nothing.

* :func:`catalogue` lists them; :func:`components_for` builds one (the harness does,
  for ``python:reference_impl.harness:create?mutant=NAME``);
* ``python -m reference_impl.mutants --list [--format text|json]`` prints the catalogue.

The clause ids are plain strings: this package never imports the suite.
"""

from __future__ import annotations

from dataclasses import replace

from adapters.errors import SpecError
from reference_impl.behaviour import Components
from reference_impl.mutants import (
    _calls,
    _collection,
    _combinations,
    _continuation,
    _delivery,
    _guard,
    _hardblock,
    _held,
    _journal,
    _matching,
    _note,
    _ports,
    _results,
    _work,
)
from reference_impl.mutants._model import Mutant

__all__ = ["Mutant", "UnknownMutant", "catalogue", "components_for", "find"]

#: Mutants the property-based hunt must find as well as the hand-written checks: one
#: for each invariant, so that every invariant is seen failing against a broken runtime.
_HUNTED = frozenset(
    {
        "artifacts-under-metadata",
        "held-discarded-on-pause",
        "held-lost-on-failed-write-back",
        "held-shown-on-wire",
        "tool-call-id-from-tool-entry",
        "held-appended-after-collected",
        "held-bound-off-by-one",
        "turn-result-omits-artifacts",
        "payload-measured-in-characters",
        "empty-type-collected",
        "unopened-run-collection-reaches-back",
        "collection-never-released",
        "executed-calls-not-guarded",
        "gated-call-recorded-before-approval",
        "repeat-left-out-of-outcome",
        "call-without-id-guarded-by-content",
        "repeats-counted-as-work",
        "empty-artifacts-key-always",
        "artifact-folded-into-data",
        "raw-arguments-reach-tool",
        "failed-call-keeps-artifacts",
        "completed-write-repeated",
        "read-only-tool-blocked",
        "hard-block-on-fresh-runs",
        "note-omits-completed-results",
        "auto-continue-limit-four",
        "rate-limit-stop-not-continuable",
        "continue-offered-for-older-stops",
        "reused-answer-recorded-in-ledger",
        "continuation-count-reset-by-continue",
        "note-of-last-chunk-only",
        "interrupted-guard-matches-by-name",
        "held-shared-by-conversation",
    }
)

_CATALOGUE: tuple[Mutant, ...] = tuple(
    replace(mutant, hunted=True) if mutant.name in _HUNTED else mutant
    for mutant in (
        *_results.MUTANTS,
        *_ports.MUTANTS,
        *_work.MUTANTS,
        *_delivery.MUTANTS,
        *_held.MUTANTS,
        *_collection.MUTANTS,
        *_calls.MUTANTS,
        *_journal.MUTANTS,
        *_note.MUTANTS,
        *_hardblock.MUTANTS,
        *_matching.MUTANTS,
        *_guard.MUTANTS,
        *_continuation.MUTANTS,
        *_combinations.MUTANTS,
    )
)


class UnknownMutant(SpecError, LookupError):
    """A mutant name the catalogue does not have."""


def catalogue() -> tuple[Mutant, ...]:
    """Every mutant, grouped by the rules they break."""
    return _CATALOGUE


def find(name: str) -> Mutant:
    """The mutant called ``name``; raises :class:`UnknownMutant` listing the known ones."""
    for mutant in _CATALOGUE:
        if mutant.name == name:
            return mutant
    close = sorted(m.name for m in _CATALOGUE if name and (name in m.name or m.name in name))
    details: dict[str, object] = {"name": name, "listed_by": "rttool selftest --list"}
    if close:
        details["close"] = ",".join(close[:5])
    raise UnknownMutant("no such mutant", **details)


def components_for(name: str) -> Components:
    """Fresh components of the mutant called ``name``."""
    return find(name).build()
