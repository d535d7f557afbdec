"""rttool's harness for LlamaIndex agents: a ``FunctionAgent`` (llama-index-core's agent
workflow) on LlamaIndex's function-calling mock LLM playing the scenario's replies, the
scenario's tools as ``FunctionTool``s, consent gates and questions as LlamaIndex's
human-in-the-loop (``wait_for_event`` with ``InputRequiredEvent`` and
``HumanResponseEvent``), conversations in LlamaIndex's SQL ``Memory`` on SQLite, and
restarts through the workflow context's serialised form (no model, no network).

* in-process: ``rttool run --impl python:harnesses.llamaindex:create``;
* stdio: ``rttool run --impl 'stdio:python -m harnesses.llamaindex'``;
* HTTP: ``python -m harnesses.llamaindex --http 127.0.0.1:8765``.

Install it with ``pip install -e '.[llamaindex]'``.  See ``harnesses/llamaindex/README.md``
for how LlamaIndex's concepts map onto the protocol.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path

from adapters.kit import KitHarness, Session, UnsupportedScenario, handshake
from adapters.scenario import Poll, Scenario

__all__ = ["LlamaIndexHarness", "create"]


class LlamaIndexHarness(KitHarness):
    """The harness: one agent and one SQLite memory file per scenario."""

    def __init__(self) -> None:
        super().__init__()
        self._directory = Path(tempfile.mkdtemp(prefix="rttool-llamaindex-"))
        self._count = 0

    def describe(self) -> dict[str, object]:
        return handshake(
            "llama-index-core",
            version("llama-index-core"),
            homepage="https://github.com/run-llama/llama_index",
            profiles=["runtime"],
            # A tool output has no artifacts: nothing is collected per run.
            collects_artifacts=False,
            # Gates are LlamaIndex's human in the loop; a restart restores each paused
            # workflow from its serialised context, and the memory from its SQLite file.
            capabilities={"gates": True, "restart": True},
        )

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "LlamaIndex serves no message poll")
        from harnesses.llamaindex._session import LlamaIndexSession  # loads slowly

        self._count += 1
        directory = self._directory / f"scenario-{self._count}"
        directory.mkdir(parents=True, exist_ok=True)  # again after a bye
        return LlamaIndexSession(scenario, directory)

    def close(self) -> None:
        super().close()
        shutil.rmtree(self._directory, ignore_errors=True)


def create() -> LlamaIndexHarness:
    """``python:harnesses.llamaindex:create``."""
    return LlamaIndexHarness()
