"""How a check ends, other than by passing, and what a failed expectation records."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from adapters.errors import RttoolError

__all__ = ["Blocked", "CheckFailed", "Failure", "NotApplicable", "Untested", "citation"]


@dataclass(frozen=True)
class Failure:
    """One expectation that did not hold.

    ``message`` says what was observed and what the clause requires; ``scenario`` names
    the scenario whose trace shows it and ``pointer`` is a JSON pointer into that trace
    (``/steps/1/runs/0/passes/0/ports/executed``); ``reading`` names the entry of
    ``docs/interpretations.md`` the expectation depends on, where the rule text allows
    several readings and the suite had to say which it accepts.  ``clause`` is the one
    clause whose words the expectation tests, where a case is bound to several (a hunt
    invariant, a check of two clauses): the failure lands on that clause alone; ``None``
    lands it on every clause of the case.  ``expected`` and ``got``, where a check
    compares a value with the one the clause requires, are both as one line of JSON
    (cut, ending in ``…``): a report shows them side by side.
    """

    message: str
    scenario: str | None = None
    pointer: str | None = None
    reading: str | None = None
    clause: str | None = None
    expected: str | None = None
    got: str | None = None

    def line(self) -> str:
        """The failure on one line: the message, then where it was observed."""
        where = ""
        if self.pointer is not None:
            where = f" (at {self.pointer}" + (f" of {self.scenario})" if self.scenario else ")")
        return f"{self.message}{where}"


class CheckFailed(AssertionError):
    """The implementation does not do what the clause requires.

    ``failures`` lists every expectation that failed, most specific first; the
    exception's text is the first of them.
    """

    def __init__(self, failures: Iterable[Failure] | str) -> None:
        found = (Failure(failures),) if isinstance(failures, str) else tuple(failures)
        if not found:
            found = (Failure("the check failed without saying why"),)
        super().__init__(found[0].line())
        self.failures = found


class Untested(RttoolError):
    """The check could not run: the implementation lacks a capability or observation."""


def citation(clause: str) -> str:
    """How the specification cites a clause id: ``RT-TOOL-8#c4`` -> ``RT-TOOL-8 ¶4``."""
    rule, _, number = clause.partition("#c")
    return f"{rule} ¶{number}" if number else clause


class Blocked(Untested):
    """The case needs what another clause provides (a port, a decoding, a reported list),
    and the implementation does not provide it: the case says nothing about its own
    clause, whose words it never reached.  ``prerequisite`` is that other clause's id.
    """

    def __init__(self, prerequisite: str, reason: str) -> None:
        super().__init__(f"blocked by {citation(prerequisite)}: {reason}")
        self.prerequisite = prerequisite
        self.reason = reason


class NotApplicable(RttoolError):
    """The clause does not bind this implementation (a profile or stance it does not claim)."""
