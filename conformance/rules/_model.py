"""Immutable objects for rules, their clauses and examples, and the corpus they form.

Every object remembers the file and line it came from, so that anything built on
the corpus (the linter, the suite's verdicts, a report) can point at the exact
source line.  Line numbers are 1-based.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from adapters.errors import RttoolError
from conformance.rules._splitter import collapse_whitespace
from conformance.rules._vocabulary import FAMILY_ORDER

__all__ = [
    "Clause",
    "Corpus",
    "CorpusError",
    "Example",
    "Finding",
    "Rule",
    "Severity",
    "normative_hash",
    "rule_sort_key",
]

_ID_SHAPE = re.compile(r"^(?P<family>[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*)-(?P<number>[0-9]+)$")


class CorpusError(RttoolError):
    """The rule corpus (or an upstream checkout) cannot be read as rules."""


def normative_hash(text: str) -> str:
    """First 12 hex digits of SHA-256 of ``text`` with whitespace collapsed and trimmed."""
    return hashlib.sha256(collapse_whitespace(text).encode("utf-8")).hexdigest()[:12]


def rule_sort_key(rule_id: str) -> tuple[int, str, int, str]:
    """Order rule ids by family (RT-TOOL, then DR, then others A-Z) and then by number."""
    match = _ID_SHAPE.match(rule_id)
    if match is None:
        return (len(FAMILY_ORDER) + 1, rule_id, 0, rule_id)
    family = match["family"]
    rank = FAMILY_ORDER.index(family) if family in FAMILY_ORDER else len(FAMILY_ORDER)
    return (rank, family, int(match["number"]), rule_id)


class Severity(Enum):
    """How bad a lint finding is: errors fail ``rttool rules lint``, warnings do not."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One linter or parser complaint, printed as ``PATH:LINE: CODE: message``.

    ``code`` is a stable finding code (``front-matter-schema``, ``clause-split``, …);
    a warning's message starts with ``warning:`` so the line says how bad it is.
    """

    path: Path
    line: int
    code: str
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        return f"{self.path}:{self.line}: {self.code}: {prefix}{self.message}"

    @property
    def is_error(self) -> bool:
        """True for an error (a finding that makes the linter exit 1)."""
        return self.severity is Severity.ERROR


@dataclass(frozen=True)
class Clause:
    """One numbered clause of a rule's normative text."""

    rule_id: str
    number: int
    text: str
    path: Path
    line: int

    @property
    def id(self) -> str:
        """Stable clause id, ``RT-TOOL-7#c3``."""
        return f"{self.rule_id}#c{self.number}"

    @property
    def citation(self) -> str:
        """How a clause is cited in prose, ``RT-TOOL-7 ¶3``."""
        return f"{self.rule_id} ¶{self.number}"


@dataclass(frozen=True)
class Example:
    """One worked example: a fenced ``json`` block with a title and a verdict word.

    ``value`` is the parsed JSON (``None`` both for JSON ``null`` and for a block that
    does not parse: ``json_error`` tells them apart).  It is excluded from equality
    and hashing because JSON values are mutable; ``raw`` carries the same content.
    ``prose_after`` is the prose between this block and the next one, if any.
    """

    rule_id: str
    index: int
    title: str
    verdict: str
    value: object = field(compare=False, hash=False, repr=False)
    raw: str
    path: Path
    line: int
    prose_after: str = ""
    json_error: str | None = None

    @property
    def id(self) -> str:
        """Stable example id, ``RT-TOOL-4#e2`` (1-based, in page order)."""
        return f"{self.rule_id}#e{self.index}"


@dataclass(frozen=True)
class Rule:
    """One rule page: metadata, numbered clauses, narrative and examples.

    ``names`` is the rule's own related list; ``referenced_by`` is what the page
    claims names it (the corpus computes the truth, see :meth:`Corpus.referencing`).
    ``narrative`` is the verbatim markdown from ``## What it means`` up to
    ``## Related rules``; ``locations`` maps a part of the page (``heading``,
    ``meta``, ``rule``, ``names``, a front-matter key, …) to its line.
    """

    id: str
    family: str
    title: str
    level: str
    profiles: tuple[str, ...]
    posture: str
    added: str
    changed: str
    source: str
    specification: str
    licence: str
    part: str | None
    rule_hash: str | None
    summary: str | None
    what_it_means: str
    narrative: str
    clauses: tuple[Clause, ...]
    examples: tuple[Example, ...]
    names: tuple[str, ...]
    referenced_by: tuple[str, ...]
    path: Path
    line: int
    locations: tuple[tuple[str, int], ...] = ()

    @property
    def normative_text(self) -> str:
        """The clauses joined by single spaces: the rule's binding text."""
        return " ".join(clause.text for clause in self.clauses)

    @property
    def computed_hash(self) -> str:
        """The hash of :attr:`normative_text` (what ``rule_hash`` must equal)."""
        return normative_hash(self.normative_text)

    @property
    def number(self) -> int:
        """The rule's number within its family (7 for ``RT-TOOL-7``), 0 if it has none."""
        match = _ID_SHAPE.match(self.id)
        return int(match["number"]) if match else 0

    def line_of(self, part: str) -> int:
        """The line of ``part`` on the page, or the heading line if it is not recorded."""
        for name, line in self.locations:
            if name == part:
                return line
        return self.line


@dataclass(frozen=True)
class Corpus:
    """The rules, in corpus order, with lookup by rule id and by clause id."""

    rules: tuple[Rule, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.rules, key=lambda rule: rule_sort_key(rule.id)))
        object.__setattr__(self, "rules", ordered)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._by_id

    def __getitem__(self, rule_id: str) -> Rule:
        return self._by_id[rule_id]

    @cached_property
    def _by_id(self) -> Mapping[str, Rule]:
        return MappingProxyType({rule.id: rule for rule in self.rules})

    @cached_property
    def _clauses(self) -> Mapping[str, Clause]:
        return MappingProxyType(
            {clause.id: clause for rule in self.rules for clause in rule.clauses}
        )

    def get(self, rule_id: str) -> Rule | None:
        """The rule with id ``rule_id``, or ``None``."""
        return self._by_id.get(rule_id)

    def clause(self, clause_id: str) -> Clause:
        """The clause with id ``RT-TOOL-7#c3``; raises ``KeyError`` if there is none."""
        return self._clauses[clause_id]

    @property
    def clauses(self) -> tuple[Clause, ...]:
        """Every clause of every rule, in corpus order."""
        return tuple(clause for rule in self.rules for clause in rule.clauses)

    @property
    def examples(self) -> tuple[Example, ...]:
        """Every example of every rule, in corpus order."""
        return tuple(example for rule in self.rules for example in rule.examples)

    @property
    def families(self) -> tuple[str, ...]:
        """The families present, in corpus order."""
        seen: dict[str, None] = {}
        for rule in self.rules:
            seen.setdefault(rule.family, None)
        return tuple(seen)

    def related(self, rule_id: str) -> tuple[Rule, ...]:
        """The rules that ``rule_id`` names and that exist in this corpus."""
        rule = self._by_id.get(rule_id)
        if rule is None:
            return ()
        return tuple(self._by_id[name] for name in rule.names if name in self._by_id)

    @property
    def digest(self) -> str:
        """A short digest of the normative text, rule by rule: two machines with the same
        digest judge against the same clauses (shards of different corpora never merge,
        and the hunt's saved examples are never shared between them)."""
        lines = (f"{rule.id}:{rule.computed_hash}" for rule in self.rules)
        return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]

    def referencing(self, rule_id: str) -> tuple[Rule, ...]:
        """The rules of this corpus whose related list names ``rule_id``, in corpus order."""
        return tuple(rule for rule in self.rules if rule_id in rule.names)
