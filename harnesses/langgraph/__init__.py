"""rttool's harness for LangGraph: a StateGraph with the prebuilt ToolNode, ``interrupt()``
for questions and consent gates, LangGraph's SQLite checkpointer, and a scripted chat
model in place of a real one (no model, no network).

* in-process: ``rttool run --impl python:harnesses.langgraph:create``;
* stdio: ``rttool run --impl 'stdio:python -m harnesses.langgraph'``;
* HTTP: ``python -m harnesses.langgraph --http 127.0.0.1:8765``.

Install it with ``pip install -e '.[langgraph]'``.  See docs/mapping-a-framework.md for
how LangGraph's concepts map onto the protocol, and what the harness cannot offer.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path

from adapters.kit import KitHarness, Session, UnsupportedScenario, handshake
from adapters.scenario import Poll, Scenario

__all__ = ["LangGraphHarness", "create"]


class LangGraphHarness(KitHarness):
    """The harness: one graph and one SQLite checkpoint file per scenario."""

    def __init__(self) -> None:
        super().__init__()
        self._directory = Path(tempfile.mkdtemp(prefix="rttool-langgraph-"))
        self._count = 0

    def describe(self) -> dict[str, object]:
        return handshake(
            "langgraph",
            version("langgraph"),
            homepage="https://github.com/langchain-ai/langgraph",
            profiles=["runtime"],
            # A run keeps no collection of its artifacts: each stays on its ToolMessage.
            collects_artifacts=False,
            # Questions and gates are interrupt(); a restart reopens the SQLite checkpoints.
            capabilities={"gates": True, "restart": True},
        )

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "LangGraph serves no message poll")
        from harnesses.langgraph._session import LangGraphSession  # LangGraph loads slowly

        self._count += 1
        self._directory.mkdir(parents=True, exist_ok=True)  # again after a bye
        return LangGraphSession(scenario, self._directory / f"scenario-{self._count}.sqlite")

    def close(self) -> None:
        super().close()
        shutil.rmtree(self._directory, ignore_errors=True)


def create() -> LangGraphHarness:
    """``python:harnesses.langgraph:create``."""
    return LangGraphHarness()
