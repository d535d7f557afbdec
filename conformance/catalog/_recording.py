"""Running a case only to see what it sends: a recording runner and an observing context.

Checks build their scenarios while they run, and some build a second one only after
judging the trace of the first.  So a case is run for real, against a runner that
records every scenario before answering it:

* in *first-only* mode the runner answers ``unsupported`` at once, so each case stops at
  its first scenario and nothing runs at all;
* otherwise the bundled reference runtime answers (it meets every rule), so a check
  goes on to the scenarios it sends only after judging an earlier one.  Those are
  marked as sent *after* it: an implementation whose answer to the earlier one fails
  the check never receives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adapters.capabilities import missing_capability, needed_capabilities
from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.engine import Case, judge
from conformance.toolkit.machinery import CheckContext, ScenarioRunner

__all__ = ["CaseRecording", "record_case"]

#: What the first-only runner answers: it never runs anything.
LISTING_ONLY = "listing-only"


@dataclass
class CaseRecording:
    """What one case sent, what it asked of the handshake, and how it ended.

    ``ended`` is ``"complete"`` when the case ran to its end, ``"first-only"`` when it
    was stopped at its first scenario on purpose, else why it stopped early (later
    scenarios, if it has any, are then not known).
    """

    sent: list[Scenario] = field(default_factory=list)
    observes: list[str] = field(default_factory=list)
    ended: str = "complete"
    #: scenario id -> the capability the handshake lacks (such a scenario is not sent)
    missing: dict[str, str] = field(default_factory=dict)


class _Recorder:
    """A runner that records each scenario, then answers it (or says it cannot)."""

    def __init__(self, handshake: Handshake, answer: ScenarioRunner | None, into: CaseRecording):
        self._handshake = handshake
        self._answer = answer
        self._into = into

    def handshake(self) -> Handshake:
        return self._handshake

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        self._into.sent.append(scenario)
        # As the driver does: a scenario needing what the handshake lacks is not sent.
        needs = needed_capabilities(scenario)
        missing = missing_capability(self._handshake.capabilities, needs)
        if missing is not None:
            self._into.missing[scenario.id] = missing
            return Unsupported(missing, "the handshake does not offer it")
        if self._answer is None:
            return Unsupported(LISTING_ONLY, "scenarios are listed, not run")
        return self._answer.run(scenario)


class _Observing(CheckContext):
    """A check context that notes the observations a case requires (``held_observation``,
    ``ledger``...): they are capabilities no scenario names, yet the case needs them."""

    def __init__(self, runner: ScenarioRunner, into: CaseRecording) -> None:
        super().__init__(runner)
        self._into = into

    def require(self, *capabilities: str) -> None:
        self._into.observes += [name for name in capabilities if name not in self._into.observes]
        super().require(*capabilities)


def record_case(case: Case, handshake: Handshake, answer: ScenarioRunner | None) -> CaseRecording:
    """Run ``case`` against a recorder and judge it; never raises for how it ends."""
    recording = CaseRecording()
    judged = judge(case, _Observing(_Recorder(handshake, answer, recording), recording))
    if judged.verdict == "untested":
        first_only = answer is None and judged.reason.endswith(LISTING_ONLY)
        recording.ended = "first-only" if first_only else f"untested: {judged.reason}"
    elif judged.verdict == "not-applicable":
        recording.ended = f"not applicable: {judged.reason}"
    elif judged.verdict == "failed":
        recording.ended = f"failed against the reference runtime: {judged.message}"
    elif judged.verdict == "error":  # a case that breaks is listed with what it sent so far
        recording.ended = f"stopped: {judged.message}"
    return recording
