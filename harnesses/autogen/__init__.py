"""rttool's harness for Microsoft AutoGen AgentChat: an ``AssistantAgent`` on a scripted
``ChatCompletionClient``, the scenario's tools declared from their JSON schemas as
AutoGen tools, questions as the agent's handoff to the user, and each conversation a
one-agent ``RoundRobinGroupChat`` whose state is saved after every run and loaded again
after a restart (no model, no network, no API key).

* in-process: ``rttool run --impl python:harnesses.autogen:create``;
* stdio: ``rttool run --impl 'stdio:python -m harnesses.autogen'``;
* HTTP: ``python -m harnesses.autogen --http 127.0.0.1:8765``.

Install it with ``pip install -e '.[autogen]'``.  See ``harnesses/autogen/README.md`` for
how AutoGen's concepts map onto the protocol.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path

from adapters.kit import KitHarness, Session, UnsupportedScenario, handshake
from adapters.scenario import Poll, Scenario

__all__ = ["AutoGenHarness", "create"]


class AutoGenHarness(KitHarness):
    """The harness: one session, with a folder for its teams' stored states, per scenario."""

    def __init__(self) -> None:
        super().__init__()
        self._directory = Path(tempfile.mkdtemp(prefix="rttool-autogen-"))
        self._count = 0

    def describe(self) -> dict[str, object]:
        return handshake(
            "autogen-agentchat",
            version("autogen-agentchat"),
            homepage="https://github.com/microsoft/autogen",
            profiles=["runtime"],
            # A run keeps no collection of its artifacts: each is an event of the agent's
            # stream, kept in the team's message thread.
            collects_artifacts=False,
            # A restart is a new team loading the state the last run saved.  No gates:
            # AgentChat puts no consent gate in front of a tool call.
            capabilities={"restart": True},
        )

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "AutoGen serves no message poll")
        from harnesses.autogen._session import AutoGenSession  # AutoGen loads slowly
        from harnesses.autogen._tools import ToolRefused

        self._count += 1
        directory = self._directory / f"scenario-{self._count}"
        directory.mkdir(parents=True, exist_ok=True)  # again after a bye
        try:
            return AutoGenSession(scenario, directory)
        except ToolRefused as err:
            shutil.rmtree(directory, ignore_errors=True)
            raise UnsupportedScenario("tool", f"AutoGen cannot declare the tool {err}") from err

    def close(self) -> None:
        super().close()
        shutil.rmtree(self._directory, ignore_errors=True)


def create() -> AutoGenHarness:
    """``python:harnesses.autogen:create``."""
    return AutoGenHarness()
