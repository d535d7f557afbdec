"""How examples become vectors: the types a rule's ``vectors`` module binds with.

Each verdict of a rule names the :data:`Stage` at which its example's value is observed.
A *whole* example is a vector on its own (its value says both what goes in and what
comes out); an *input* example starts a vector and the *outcome* examples after it
complete it.  A :class:`Binding` runs one shape of vector, ``(rule, verdicts)``, on a
:class:`VectorRun`.  Adding an example with verdicts a rule already binds adds a test
without touching code; an example whose verdict has no stage is a lint error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from conformance.rules import Example
from conformance.toolkit._channels import Channel
from conformance.toolkit._context import CheckContext
from conformance.toolkit._registry import where_defined

__all__ = ["Binding", "Stage", "VectorRun"]

Stage = Literal["whole", "input", "outcome"]


@dataclass(frozen=True)
class VectorRun:
    """The examples of one vector, in page order."""

    examples: tuple[Example, ...]

    @property
    def verdicts(self) -> tuple[str, ...]:
        """The examples' verdicts, in order."""
        return tuple(example.verdict for example in self.examples)

    def value(self, verdict: str) -> object:
        """The JSON value of the first example with ``verdict``."""
        return next(e.value for e in self.examples if e.verdict == verdict)

    def has(self, verdict: str) -> bool:
        """Whether an example with ``verdict`` is part of the vector."""
        return verdict in self.verdicts


@dataclass(frozen=True)
class Binding:
    """Runs the vectors of one rule whose verdicts are ``verdicts`` (in page order)."""

    rule: str
    verdicts: tuple[str, ...]
    clauses: tuple[str, ...]
    run: Callable[[CheckContext, VectorRun], None]
    #: the channels its observations go through (:class:`~conformance.toolkit.Channel`)
    through: tuple[Channel, ...] = ()

    @property
    def defined_at(self) -> tuple[str, int]:
        """``(file, line)`` of the function that runs the vector."""
        return where_defined(self.run)
