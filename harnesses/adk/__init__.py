"""rttool's harness for Google's Agent Development Kit (ADK): an ``LlmAgent`` on a
scripted ``BaseLlm``, the scenario's tools as ADK tools behind ADK's tool confirmation,
a resumable ``App`` whose paused invocations are resumed by the user's answer, ADK's
SQLite session service and file artifact service (no model, no network, no API key).

* in-process: ``rttool run --impl python:harnesses.adk:create``;
* stdio: ``rttool run --impl 'stdio:python -m harnesses.adk'``;
* HTTP: ``python -m harnesses.adk --http 127.0.0.1:8765``.

Install it with ``pip install -e '.[adk]'``.  See ``harnesses/adk/README.md`` and
docs/mapping-a-framework.md for how ADK's concepts map onto the protocol.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path

from adapters.kit import KitHarness, Session, UnsupportedScenario, handshake
from adapters.scenario import Poll, Scenario

__all__ = ["AdkHarness", "create"]


class AdkHarness(KitHarness):
    """The harness: one runner, one SQLite file and one artifact folder per scenario."""

    def __init__(self) -> None:
        super().__init__()
        self._directory = Path(tempfile.mkdtemp(prefix="rttool-adk-"))
        self._count = 0

    def describe(self) -> dict[str, object]:
        return handshake(
            "google-adk",
            version("google-adk"),
            homepage="https://github.com/google/adk-python",
            profiles=["runtime"],
            # A run keeps no collection of its artifacts: each call's stays in the
            # artifact service, named on the event that answered the call.
            collects_artifacts=False,
            # Gates are ADK's tool confirmation; a restart is a new runner on the same
            # SQLite sessions and artifact files.
            capabilities={"gates": True, "restart": True},
        )

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "ADK serves no message poll")
        from harnesses.adk._session import AdkSession  # ADK loads slowly

        self._count += 1
        directory = self._directory / f"scenario-{self._count}"
        directory.mkdir(parents=True, exist_ok=True)  # again after a bye
        return AdkSession(scenario, directory)

    def close(self) -> None:
        super().close()
        shutil.rmtree(self._directory, ignore_errors=True)


def create() -> AdkHarness:
    """``python:harnesses.adk:create``."""
    return AdkHarness()
