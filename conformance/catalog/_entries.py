"""Catalog entries: one scenario, where it comes from, what it serves and what it needs."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from adapters.capabilities import needed_capabilities
from adapters.scenario import Scenario

__all__ = ["CaseSummary", "Entry", "EntryKind", "file_names"]

EntryKind = Literal["check", "vector", "hunt-sample"]


@dataclass(frozen=True)
class Entry:
    """One scenario the suite can send.

    ``id`` is ``<case id>/<scenario id>`` (``RT-TOOL-9#c2/repeat-reported-and-re-emitted/
    rt9-c2-once``); ``needs`` are the handshake capabilities the scenario itself needs
    (:func:`adapters.capabilities.needed_capabilities`), ``observes`` those its case
    requires to judge it (observations no scenario names); ``after`` is the id of the
    entry its check judged before sending it (``None``: sent without waiting on any);
    ``missing`` is the first capability it needs that the listing's handshake lacks
    (``None``: it is sent to that handshake).
    """

    id: str
    case: str
    kind: EntryKind
    clauses: tuple[str, ...]
    scenario: Scenario
    observes: tuple[str, ...] = ()
    after: str | None = None
    missing: str | None = None

    @property
    def needs(self) -> tuple[str, ...]:
        """Capabilities the scenario needs, named ``name`` or ``name:value``."""
        return tuple(needed_capabilities(self.scenario))

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids of its clauses."""
        return tuple(dict.fromkeys(clause.split("#")[0] for clause in self.clauses))


@dataclass(frozen=True)
class CaseSummary:
    """One case of the suite and how its listing ended (see ``CaseRecording.ended``)."""

    id: str
    kind: EntryKind
    clauses: tuple[str, ...]
    scenarios: int
    ended: str

    @property
    def applicable(self) -> bool:
        """Whether the handshake claims a profile of the case's rules (a run sends an
        inapplicable case nothing)."""
        return not self.ended.startswith("not applicable")

    @property
    def stopped_early(self) -> bool:
        """Whether the listing stopped for a reason the handshake does not explain (the
        reference runtime failed a check, or the case broke): later scenarios, if the
        case has any, are not listed."""
        return self.ended.startswith(("failed", "stopped"))


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_names(entries: Iterable[Entry]) -> dict[str, str]:
    """A file name for each entry id: letters, digits, ``._-`` only, never starting with
    a dot, unique (a ``-2``... suffix where two would collide), ending ``.json``."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for entry in entries:
        stem = _UNSAFE.sub("_", entry.id).strip("._") or "scenario"
        name, counter = f"{stem}.json", 1
        while name.lower() in used:
            counter += 1
            name = f"{stem}-{counter}.json"
        used.add(name.lower())
        names[entry.id] = name
    return names
