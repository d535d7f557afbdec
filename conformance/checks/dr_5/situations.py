"""The situations DR-5's clauses name."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario, Wait
from adapters.trace import RunRecord, Trace
from conformance.toolkit import ClauseSituation, Situation, cut_by, runs_by_turn, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _cut(cause: str) -> Situation:
    """A run was cut by ``cause``, on a harness that can cut by it."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return cause in handshake.capabilities.interrupt_causes and any(
            cut_by(scenario, run) == cause for run in trace.runs()
        )

    return reached


def _time_limits(scenario: Scenario, trace: Trace) -> list[int]:
    """For each turn, how many of its runs its time limit cut."""
    return [
        sum(1 for run in runs if cut_by(scenario, run) == "time_limit")
        for runs in runs_by_turn(trace).values()
    ]


def _fourth_time_limit(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn was cut by its time limit four times or more."""
    return any(count >= 4 for count in _time_limits(scenario, trace))


def _error(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run was cut by an armed error, on a harness that can cut by one, or ended failed
    or crashed on its own (its write-back failing, say)."""
    return _cut("error")(scenario, trace, handshake) or any(
        run.end in ("failed", "crashed") for run in trace.runs()
    )


def _cut_times(scenario: Scenario, runs: list[RunRecord]) -> int:
    """How many of ``runs`` were cut by an armed cause."""
    return sum(1 for run in runs if cut_by(scenario, run) is not None)


def _fourth_cut(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn was cut four times or more, by whatever armed causes."""
    return any(_cut_times(scenario, runs) >= 4 for runs in runs_by_turn(trace).values())


def _four_cuts_across_turns(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Two turns or more of one conversation were cut by their time limits, four times or
    more in all: each turn's count is its own."""
    counted: dict[str, list[int]] = {}
    for (conversation, _), runs in runs_by_turn(trace).items():
        cuts = sum(1 for run in runs if cut_by(scenario, run) == "time_limit")
        if cuts:
            counted.setdefault(conversation, []).append(cuts)
    return any(len(cuts) >= 2 and sum(cuts) >= 4 for cuts in counted.values())


def _cut_after_the_third(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """The third automatic continuation of a turn was itself cut by the time limit."""
    for runs in runs_by_turn(trace).values():
        automatic = [run for run in runs if run.cause == "auto_continue"]
        if len(automatic) >= 3 and cut_by(scenario, automatic[2]) == "time_limit":
            return True
    return False


def _reload_after_a_continuation(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """The implementation restarted from its storage after a turn had continued on its
    own, and the steps went on after the restart."""
    continued = False
    for index, step in enumerate(trace.steps):
        if step.op == "restart" and step.outcome == "ok" and continued:
            return index < len(trace.steps) - 1
        continued = continued or any(run.cause == "auto_continue" for run in step.runs)
    return False


def _two_clients(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Two clients or more waited at once, on a harness that runs concurrent clients, and
    a turn continued on its own while they waited."""
    if not handshake.capabilities.concurrent_clients:
        return False
    waits = {
        i for i, step in enumerate(scenario.steps) if isinstance(step, Wait) and step.clients >= 2
    }
    return any(
        step.index in waits
        and step.outcome == "ok"
        and any(run.cause == "auto_continue" for run in step.runs)
        for step in trace.steps
    )


def _waiting_after_its_time_limit(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A step after which a turn's latest run was cut by its time limit, with a step after
    it: the turn was there to be read, or stopped, while it waited to continue."""
    if "time_limit" not in handshake.capabilities.interrupt_causes:
        return False
    latest: dict[tuple[str, str], RunRecord] = {}
    for step in trace.steps[:-1]:
        for run in step.runs:
            latest[(run.conversation, run.turn)] = run
        if any(cut_by(scenario, run) == "time_limit" for run in latest.values()):
            return True
    return False


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "When a turn is stopped at its run time limit"
    situation("DR-5#c1", "a turn stopped at its run time limit", _cut("time_limit")),
    # ¶2: "While it waits to continue, the turn reports that it is resuming, and stopping it
    # still works"
    situation(
        "DR-5#c2", "a turn waiting to continue after its time limit", _waiting_after_its_time_limit
    ),
    # ¶3: "at most three times"
    situation("DR-5#c3", "a turn cut by its time limit a fourth time", _fourth_time_limit),
    situation("DR-5#c3", "a turn cut a fourth time", _fourth_cut),
    situation(
        "DR-5#c3",
        "turns of one conversation cut by their time limits four times in all",
        _four_cuts_across_turns,
    ),
    # ¶4: "a reload does not reset it and a second client cannot double it"
    situation("DR-5#c4", "a reload after an automatic continuation", _reload_after_a_continuation),
    situation("DR-5#c4", "two clients waiting while the turn continues", _two_clients),
    # ¶5: "After the third automatic continuation, or after an error, a stop, a
    # cancellation, or a credential or rate-limit failure"
    situation(
        "DR-5#c5", "the third automatic continuation cut by the time limit", _cut_after_the_third
    ),
    situation("DR-5#c5", "a run ended by an error", _error),
    situation("DR-5#c5", "a run ended by a stop", _cut("stop")),
    situation("DR-5#c5", "a run ended by a cancellation", _cut("cancel")),
    situation("DR-5#c5", "a run ended by a credential failure", _cut("credential")),
    situation("DR-5#c5", "a run ended by a rate-limit failure", _cut("rate_limit")),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
