"""The situations DR-2's clauses name."""

from __future__ import annotations

from itertools import pairwise

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    RESUMING,
    ClauseSituation,
    Situation,
    cut_by,
    runs_by_turn,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _resumed_after(cause: str) -> Situation:
    """A run resumed its turn (on its own or by Continue) right after a run of the turn
    that ``cause`` cut, on a harness that can cut by ``cause``."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if cause not in handshake.capabilities.interrupt_causes:
            return False
        return any(
            later.cause in RESUMING and cut_by(scenario, earlier) == cause
            for runs in runs_by_turn(trace).values()
            for earlier, later in pairwise(runs)
        )

    return reached


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "after a soft timeout, a gateway timeout or a resumable transport error"
    situation(
        "DR-2#c1",
        "a run resumed after a soft timeout (its time limit)",
        _resumed_after("time_limit"),
    ),
    situation(
        "DR-2#c1", "a run resumed after a gateway timeout", _resumed_after("gateway_timeout")
    ),
    situation(
        "DR-2#c1",
        "a run resumed after a resumable transport error",
        _resumed_after("transport_error"),
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "DR-2#c2": (
        "one behaviour for every completed call alike (named, with a short result); the "
        "text names no circumstance to tell apart"
    ),
    "DR-2#c3": (
        "one behaviour for every interrupted call alike (named as of unknown outcome); the "
        "text names no circumstance to tell apart"
    ),
    "DR-2#c4": "one behaviour in one circumstance: a resume whose journal is empty",
    "DR-2#c5": (
        "one behaviour in one circumstance, a ledger read that fails when a run resumes, "
        "which every case of the clause plays"
    ),
}
