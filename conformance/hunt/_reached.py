"""The situations the hunt's examples reached, for the clauses of the invariants judged.

A hunt case that found nothing has no trace of its own to show which circumstances of its
clauses it met: the examples it judged are its evidence.  As the search holds each
generated example to the invariants still active, :class:`ReachedSituations` tests the
situations of their clauses on the same trace.  The cost is bounded: a situation once
reached is never tested again, so each test runs at most once per example and stops at
its first hit, and no test runs on an example hypothesis replays while shrinking.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit.machinery import ClauseSituation, reached_situations

__all__ = ["ReachedSituations"]


class ReachedSituations:
    """The situations of each clause some example reached, by clause id."""

    def __init__(self, situations: Mapping[str, tuple[ClauseSituation, ...]]) -> None:
        self._situations = situations
        self._reached: dict[str, set[str]] = {}
        #: the situation tests run so far (what the bound above is measured in)
        self.tests = 0

    def note(
        self, clauses: Iterable[str], scenario: Scenario, trace: Trace, handshake: Handshake
    ) -> None:
        """Test the situations of ``clauses`` not reached yet on one example."""
        for clause in dict.fromkeys(clauses):
            seen = self._reached.setdefault(clause, set())
            left = [one for one in self._situations.get(clause, ()) if one.words not in seen]
            if not left:
                continue
            self.tests += len(left)
            seen.update(reached_situations(left, [(scenario, trace)], handshake))

    def of(self, clauses: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """The words reached for each of ``clauses``, in the order the clause names them
        (a clause that names none is left out)."""
        return {
            clause: tuple(
                one.words
                for one in self._situations[clause]
                if one.words in self._reached.get(clause, set())
            )
            for clause in clauses
            if self._situations.get(clause)
        }
