"""What a legal variant is: the dual of a mutant."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reference_impl.behaviour import Components

__all__ = ["Variant"]


@dataclass(frozen=True)
class Variant:
    """The reference runtime, taking another reading the rule text allows.

    A mutant breaks a clause; a variant keeps every clause and differs from the
    reference where the text leaves a choice.  ``reading`` is the anchor of the entry of
    ``docs/interpretations.md`` that records the choice, ``clauses`` the clause ids whose
    text allows it; ``build`` makes fresh components each time, one of them swapped, as a
    mutant's are.  The suite must find every variant conforming to every clause: a check
    that rejects one demands a reading the text does not.
    """

    name: str
    reading: str
    clauses: tuple[str, ...]
    description: str
    build: Callable[[], Components]

    def listing(self) -> str:
        """Its line of ``--list`` after its name: the reading it takes, what it does."""
        return f"{self.reading}: {self.description}"

    def to_json(self) -> dict[str, object]:
        """``{"name", "reading", "clauses", "description"}``, as ``--list --format json``
        prints it."""
        return {
            "name": self.name,
            "reading": self.reading,
            "clauses": list(self.clauses),
            "description": self.description,
        }
