"""Legal variants: the reference runtime, taking each other reading the rule text allows.

Mutants prove that every check can fail; variants prove the dual, that no check fails a
runtime that reads the rules another legal way.  Each variant swaps one component of
:class:`~reference_impl.behaviour.Components`, as a mutant does, and names the entry of
``docs/interpretations.md`` it stands for.  ``rttool selftest`` runs the whole suite
against every variant and fails unless each conforms to every clause.

* :func:`catalogue` lists them; :func:`components_for` builds one (the harness does, for
  ``python:reference_impl.harness:create?variant=NAME``);
* ``python -m reference_impl.variants --list [--format text|json]`` prints the catalogue.
"""

from __future__ import annotations

from adapters.errors import SpecError
from reference_impl.behaviour import Components
from reference_impl.variants import _calls, _collection, _durable, _results, _wire
from reference_impl.variants._durable import NewestStopInTime
from reference_impl.variants._model import Variant

__all__ = [
    "NewestStopInTime",
    "UnknownVariant",
    "Variant",
    "catalogue",
    "components_for",
    "find",
]

_CATALOGUE: tuple[Variant, ...] = (
    *_wire.VARIANTS,
    *_calls.VARIANTS,
    *_results.VARIANTS,
    *_collection.VARIANTS,
    *_durable.VARIANTS,
)


class UnknownVariant(SpecError, LookupError):
    """A variant name the catalogue does not have."""


def catalogue() -> tuple[Variant, ...]:
    """Every legal variant."""
    return _CATALOGUE


def find(name: str) -> Variant:
    """The variant called ``name``; raises :class:`UnknownVariant`."""
    for variant in _CATALOGUE:
        if variant.name == name:
            return variant
    raise UnknownVariant("no such variant", name=name, listed_by="rttool selftest --list")


def components_for(name: str) -> Components:
    """Fresh components of the variant called ``name``."""
    return find(name).build()
