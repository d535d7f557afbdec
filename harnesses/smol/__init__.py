"""rttool's harness for Hugging Face smolagents: a ``ToolCallingAgent`` on a scripted
``Model``, the scenario's tools as smolagents tools, smolagents' ``user_input`` tool for
questions, one agent (one memory) per conversation (no model, no network, no API key).

* in-process: ``rttool run --impl python:harnesses.smol:create``;
* stdio: ``rttool run --impl 'stdio:python -m harnesses.smol'``;
* HTTP: ``python -m harnesses.smol --http 127.0.0.1:8765``.

Install it with ``pip install -e '.[smolagents]'``.  See ``harnesses/smol/README.md``
for how smolagents' concepts map onto the protocol, and what it cannot offer.
"""

from __future__ import annotations

from importlib.metadata import version

from adapters.kit import KitHarness, Session, UnsupportedScenario, handshake
from adapters.scenario import Poll, Scenario

__all__ = ["SmolHarness", "create"]

#: smolagents' own tools, which every agent has (``final_answer``) or which the harness
#: adds for questions (``user_input``): a scenario tool of the same name would replace it.
RESERVED = frozenset({"final_answer", "user_input"})


class SmolHarness(KitHarness):
    """The harness: a fresh set of agents per scenario, all in this process."""

    def describe(self) -> dict[str, object]:
        return handshake(
            "smolagents",
            version("smolagents"),
            homepage="https://github.com/huggingface/smolagents",
            profiles=["runtime"],
            # A run keeps no collection of artifacts: a tool's output, the reserved key
            # included, is the observation the model reads.
            collects_artifacts=False,
            # smolagents has no tool confirmation (no gates) and no way to load an
            # agent's memory back (no restart): nothing optional is offered.
            capabilities={},
        )

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "smolagents serves no message poll")
        clash = sorted(RESERVED & {tool.name for tool in scenario.tools})
        if clash:
            raise UnsupportedScenario("tool_names", f"smolagents' own tool {clash[0]}")
        from harnesses.smol._session import SmolSession  # smolagents loads slowly

        return SmolSession(scenario)


def create() -> SmolHarness:
    """``python:harnesses.smol:create``."""
    return SmolHarness()
