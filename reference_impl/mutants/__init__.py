"""The mutant catalogue: deliberately broken variants of the reference runtime.

Each mutant replaces one component of :class:`~reference_impl.behaviour.Components`
with a subclass that overrides (usually) one hook, the method taking the one decision it
gets wrong, so that it breaks the clauses it names and as little else as possible.  The
suite proves its checks by running them against every mutant (``rttool selftest``): a
check that a broken runtime passes would vouch for nothing.

* :func:`catalogue` lists them; :func:`components_for` builds one (the harness does,
  for ``python:reference_impl.harness:create?mutant=NAME``);
* ``python -m reference_impl.mutants --list [--format text|json]`` prints the catalogue.

Each catalogue module declares its mutants whole: a mutant the property-based hunt must
find as well as the checks (one for each invariant) says so there, ``hunted=True``.

The clause ids are plain strings: this package never imports the suite.
"""

from __future__ import annotations

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

_CATALOGUE: tuple[Mutant, ...] = (
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
