"""The situations DR-2's clauses name."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise

from adapters.handshake import Handshake
from adapters.scenario import FailLedgerRead, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    RESUMING,
    ClauseSituation,
    Situation,
    cut_by,
    dispatched,
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


#: A result too long to show whole: what "with a short result" has to shorten (the long
#: result the checks play is about 12 KB).
LONG_RESULT_BYTES = 4096


def _before_a_resume(count: Callable[[list[RunRecord]], bool]) -> Situation:
    """A run resumed its turn (on its own or by Continue) after earlier runs of the turn
    for which ``count`` holds."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        for runs in runs_by_turn(trace).values():
            for position, run in enumerate(runs):
                if run.cause in RESUMING and count(runs[:position]):
                    return True
        return False

    return reached


def _completed(runs: list[RunRecord]) -> list[object]:
    """The results of the calls ``runs`` completed."""
    return [
        result.result
        for run in runs
        for one in run.passes
        for result in one.results
        if result.disposition == "executed"
    ]


def _interrupted(runs: list[RunRecord]) -> int:
    """How many calls ``runs`` dispatched and were cut before they recorded a result."""
    return sum(
        1
        for run in runs
        if run.end in ("interrupted", "crashed")
        for one in dispatched(run)
        if one.disposition is None
    )


def _long(result: object) -> bool:
    text = json.dumps(result, ensure_ascii=False, default=str)
    return len(text.encode("utf-8")) > LONG_RESULT_BYTES


def _ledger_read_failing(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A ledger read armed to fail (``fail_ledger_read``, accepted) and a run cut after it:
    the recovery from that cut is the one whose read fails, whether or not the
    implementation then recovers."""
    armed = next(
        (
            index
            for index, (played, record) in enumerate(zip(scenario.steps, trace.steps, strict=False))
            if isinstance(played, FailLedgerRead) and record.outcome == "ok"
        ),
        None,
    )
    return armed is not None and any(
        run.end in ("interrupted", "crashed") for step in trace.steps[armed:] for run in step.runs
    )


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
    # ¶2: "names each call that already completed, with a short result"
    situation(
        "DR-2#c2",
        "a resume after a completed call",
        _before_a_resume(lambda runs: bool(_completed(runs))),
    ),
    situation(
        "DR-2#c2",
        "a resume after several completed calls",
        _before_a_resume(lambda runs: len(_completed(runs)) >= 2),
    ),
    situation(
        "DR-2#c2",
        "a resume after a completed call whose result is over 4 KB",
        _before_a_resume(lambda runs: any(_long(result) for result in _completed(runs))),
    ),
    # ¶3: "names each call that was interrupted"
    situation(
        "DR-2#c3",
        "a resume after an interrupted call",
        _before_a_resume(lambda runs: _interrupted(runs) >= 1),
    ),
    situation(
        "DR-2#c3",
        "a resume after several interrupted calls",
        _before_a_resume(lambda runs: _interrupted(runs) >= 2),
    ),
    # ¶4: "When the journal is empty, nothing is appended"
    situation(
        "DR-2#c4",
        "a resume after no call of its turn",
        _before_a_resume(lambda runs: not any(True for run in runs for _ in dispatched(run))),
    ),
    # ¶5: "a failed ledger read never blocks a recovery that would otherwise succeed"
    situation("DR-2#c5", "a recovery whose ledger read fails", _ledger_read_failing),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
