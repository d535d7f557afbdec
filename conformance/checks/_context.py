"""What a check sees: the implementation's handshake, and scenario runs through the protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn, Protocol

from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks._outcomes import CheckFailed, NotApplicable, Untested

__all__ = ["CheckContext", "Evidence", "ScenarioRunner"]


class ScenarioRunner(Protocol):
    """The part of :class:`adapters.Driver` a check uses."""

    def handshake(self) -> Handshake:
        """The implementation's handshake."""
        ...

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        """Run one scenario."""
        ...


@dataclass
class Evidence:
    """The scenarios a check ran and the traces they produced, kept for the report;
    ``counterexample`` is a shrunk scenario the hunt found (saved on its own)."""

    runs: list[tuple[Scenario, Trace | None]] = field(default_factory=list)
    counterexample: dict[str, object] | None = None
    hunt: dict[str, float] | None = None


class CheckContext:
    """Handed to every check.  A check builds scenarios, runs them with :meth:`run`, and
    judges the traces with :meth:`expect` / :meth:`fail`."""

    def __init__(self, runner: ScenarioRunner) -> None:
        self._runner = runner
        self.handshake = runner.handshake()
        self.evidence = Evidence()

    @property
    def runner(self) -> ScenarioRunner:
        """The implementation, for code that runs many scenarios (the hunt)."""
        return self._runner

    @property
    def capabilities(self) -> object:
        """The handshake's capabilities."""
        return self.handshake.capabilities

    def run(self, scenario: Scenario) -> Trace:
        """Run ``scenario``; a missing capability ends the check as untested."""
        self.evidence.runs.append((scenario, None))
        outcome = self._runner.run(scenario)
        if isinstance(outcome, Unsupported):
            raise Untested(f"needs capability {outcome.capability}")
        self.evidence.runs[-1] = (scenario, outcome)
        return outcome

    def require(self, *capabilities: str) -> None:
        """End the check as untested unless the handshake offers every capability named
        (observations such as ``held_observation`` or ``ledger``)."""
        for name in capabilities:
            if getattr(self.handshake.capabilities, name, False) is not True:
                raise Untested(f"needs capability {name}")

    def require_profile(self, profile: str) -> None:
        """End the check as not applicable unless the implementation claims ``profile``."""
        if profile not in self.handshake.profiles:
            raise NotApplicable(f"profile {profile} not claimed")

    def expect(self, condition: bool, message: str) -> None:
        """Fail the check with ``message`` unless ``condition`` holds."""
        if not condition:
            raise CheckFailed(message)

    def fail(self, message: str) -> NoReturn:
        """Fail the check."""
        raise CheckFailed(message)
