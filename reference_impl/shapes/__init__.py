"""Runtime shapes: the reference runtime, changed to behave the way real frameworks do.

rttool's verdicts must hold on runtimes it has never met.  Each shape takes one behaviour
seen in a real framework (a question asked through a stopping tool, a batch run side by
side, artifacts kept on the run's output only...) and builds it into the reference
runtime by swapping components of :class:`~reference_impl.behaviour.Components`, as a
legal variant or a mutant does.  A shape is ``legal`` (the rule text allows the
behaviour: the suite must find it conforming to every clause) or a ``gap`` (it breaks the
clauses it names: the suite must fail those and no other).

* :func:`catalogue` lists them; :func:`components_for` builds one (the harness does, for
  ``python:reference_impl.harness:create?shape=NAME``);
* ``python -m reference_impl.shapes --list [--format text|json]`` prints the catalogue.
"""

from __future__ import annotations

from adapters.errors import SpecError
from reference_impl.behaviour import Components
from reference_impl.shapes import (
    _arguments,
    _artifacts,
    _durable,
    _guard,
    _pauses,
    _steps,
    _unknown,
)
from reference_impl.shapes._model import KINDS, Shape

__all__ = ["KINDS", "Shape", "UnknownShape", "catalogue", "components_for", "find"]

_CATALOGUE: tuple[Shape, ...] = (
    *_artifacts.SHAPES,
    *_steps.SHAPES,
    *_unknown.SHAPES,
    *_guard.SHAPES,
    *_pauses.SHAPES,
    *_arguments.SHAPES,
    *_durable.SHAPES,
)


class UnknownShape(SpecError, LookupError):
    """A shape name the catalogue does not have."""


def catalogue() -> tuple[Shape, ...]:
    """Every runtime shape."""
    return _CATALOGUE


def find(name: str) -> Shape:
    """The shape called ``name``; raises :class:`UnknownShape`."""
    for shape in _CATALOGUE:
        if shape.name == name:
            return shape
    raise UnknownShape(
        "no such shape", name=name, listed_by="python -m reference_impl.shapes --list"
    )


def components_for(name: str) -> Components:
    """Fresh components of the shape called ``name``."""
    return find(name).build()
