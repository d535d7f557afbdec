"""rttool's harness for PydanticAI: an ``Agent`` on PydanticAI's own ``FunctionModel``,
with deferred tools for consent gates (``ApprovalRequired``) and questions
(``CallDeferred``), and the message history stored as PydanticAI serialises it (no
model, no network).

* in-process: ``rttool run --impl python:harnesses.pydanticai:create``;
* stdio: ``rttool run --impl 'stdio:python -m harnesses.pydanticai'``;
* HTTP: ``python -m harnesses.pydanticai --http 127.0.0.1:8765``.

Install it with ``pip install -e '.[pydantic-ai]'``.  See docs/mapping-a-framework.md
for how PydanticAI's concepts map onto the protocol.
"""

from __future__ import annotations

from importlib.metadata import version

from adapters.kit import KitHarness, Session, UnsupportedScenario, handshake
from adapters.scenario import Poll, Scenario

__all__ = ["PydanticAiHarness", "create"]


class PydanticAiHarness(KitHarness):
    """The harness: one agent and one set of stored histories per scenario."""

    def describe(self) -> dict[str, object]:
        return handshake(
            "pydantic-ai",
            version("pydantic-ai-slim"),
            homepage="https://github.com/pydantic/pydantic-ai",
            profiles=["runtime"],
            # A run keeps no collection of its artifacts: each stays on its tool return.
            collects_artifacts=False,
            # Gates are deferred approvals; a restart is a new agent on the stored history.
            capabilities={"gates": True, "restart": True},
        )

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "PydanticAI serves no message poll")
        from harnesses.pydanticai._session import PydanticAiSession  # a heavy import

        return PydanticAiSession(scenario)


def create() -> PydanticAiHarness:
    """``python:harnesses.pydanticai:create``."""
    return PydanticAiHarness()
