"""What a runtime shape is: a way real frameworks behave, built into the reference runtime."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from reference_impl.behaviour import Components

__all__ = ["KINDS", "Shape"]

#: ``legal``: the rules allow the behaviour, and the suite must find the shape conforming
#: to every clause; ``gap``: the behaviour breaks the clauses the shape names, and the
#: suite must fail those and no other.
KINDS = ("legal", "gap")

_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CLAUSE = re.compile(r"^(?:RT-TOOL|DR)-[0-9]+#c[0-9]+$")


@dataclass(frozen=True)
class Shape:
    """The reference runtime, changed to behave the way some real frameworks do.

    A legal variant takes another reading of a clause whose words allow several; a shape
    starts from what runtimes out there really do, and says what the rules make of it.
    ``kind`` is ``legal`` (the rule text allows it) or ``gap`` (it breaks ``clauses``,
    ideally exactly one); for a legal shape ``clauses`` are those whose words allow it.
    ``reason`` quotes the words that allow or that are broken, ``frameworks`` names the
    frameworks known to behave so (from their documentation, or from the harnesses this
    project ships), and ``build`` makes fresh components each time.
    """

    name: str
    kind: Literal["legal", "gap"]
    summary: str
    frameworks: tuple[str, ...]
    clauses: tuple[str, ...]
    reason: str
    build: Callable[[], Components]

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"shape name {self.name!r} is not kebab-case")
        if self.kind not in KINDS:
            raise ValueError(f"shape {self.name}: kind {self.kind!r} is not one of {KINDS}")
        if not self.clauses:
            raise ValueError(f"shape {self.name}: names no clause")
        malformed = [clause for clause in self.clauses if not _CLAUSE.match(clause)]
        if malformed:
            raise ValueError(f"shape {self.name}: clause ids {malformed} are not RULE#cN")
        if not self.summary.strip() or not self.reason.strip():
            raise ValueError(f"shape {self.name}: a summary and a reason are required")

    @property
    def breaks(self) -> tuple[str, ...]:
        """The clauses a gap breaks (none for a legal shape)."""
        return self.clauses if self.kind == "gap" else ()

    def listing(self) -> str:
        """Its line of ``--list`` after its name: its kind, its clauses, what it does."""
        return f"{self.kind} {','.join(self.clauses)}: {self.summary}"

    def to_json(self) -> dict[str, object]:
        """``{"name", "kind", "clauses", "frameworks", "summary", "reason"}``, as
        ``--list --format json`` prints it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "clauses": list(self.clauses),
            "frameworks": list(self.frameworks),
            "summary": self.summary,
            "reason": self.reason,
        }
