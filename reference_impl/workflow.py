"""What the runtime runs: a workflow, a model, a world of tool bodies, and an observer.

A workflow has one tool-invoking node (an agent node driven by a model) wired to tool
nodes.  The model and the tool bodies are interfaces, supplied by whoever hosts the
runtime (the HTTP server's demo, or the adapter harness's scripted ones); the workflow
itself is stored with the conversation, so a restart runs the same one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from reference_impl.artifacts import Bounds

__all__ = [
    "PORT_DEFAULTS",
    "Model",
    "ModelReply",
    "NullObserver",
    "Observer",
    "ToolOutcome",
    "ToolSpec",
    "ToolWorld",
    "Workflow",
]

#: Output ports of the tool-invoking node and whether each is exposed by default
#: (RT-TOOL-3: ``tool_artifacts`` is not; RT-TOOL-10: ``executed_any`` is, ``executed`` is not).
PORT_DEFAULTS: Mapping[str, bool] = {
    "tool_artifacts": False,
    "executed_any": True,
    "executed": False,
    "skipped": False,
}


@dataclass(frozen=True)
class ToolSpec:
    """A tool node: its name, read-only flag, declared input schema and consent gate."""

    name: str
    read_only: bool = False
    input_schema: object = field(default_factory=lambda: {"type": "object"})
    gate: bool = False
    expose_artifacts_port: bool = False


@dataclass(frozen=True)
class Workflow:
    """The agent node's tools, its port exposure choices and its collection bounds."""

    tools: tuple[ToolSpec, ...] = ()
    expose: Mapping[str, bool] = field(default_factory=dict)
    bounds: Bounds = field(default_factory=Bounds)

    def tool(self, name: str) -> ToolSpec | None:
        """The wired tool called ``name``, if any."""
        return next((tool for tool in self.tools if tool.name == name), None)

    def exposed(self) -> dict[str, bool]:
        """Every port's exposure: the author's choice where made, else the default."""
        return {
            port: bool(self.expose.get(port, default)) for port, default in PORT_DEFAULTS.items()
        }

    def to_json(self) -> dict[str, object]:
        """The stored form."""
        return {
            "tools": [
                {
                    "name": t.name,
                    "read_only": t.read_only,
                    "input_schema": t.input_schema,
                    "gate": t.gate,
                    "expose_artifacts_port": t.expose_artifacts_port,
                }
                for t in self.tools
            ],
            "expose": dict(self.expose),
            "bounds": {
                "payload_bytes": self.bounds.payload_bytes,
                "run_artifacts": self.bounds.run_artifacts,
                "run_bytes": self.bounds.run_bytes,
                "held_artifacts": self.bounds.held_artifacts,
            },
        }

    @classmethod
    def from_json(cls, value: Mapping[str, object]) -> Workflow:
        """Rebuild from the stored form."""
        tools = value.get("tools") or []
        expose = value.get("expose") or {}
        bounds = value.get("bounds") or {}
        assert isinstance(tools, list) and isinstance(expose, dict) and isinstance(bounds, dict)
        return cls(
            tools=tuple(ToolSpec(**tool) for tool in tools),
            expose=dict(expose),
            bounds=Bounds(**bounds),
        )


@dataclass(frozen=True)
class ModelReply:
    """One model reply (see :class:`Model`)."""

    text: str | None = None
    tool_calls: tuple[object, ...] | None = None
    question: str | None = None


class Model(Protocol):
    """The model driving the agent node: messages in, one reply out."""

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        """The next reply given the conversation so far."""
        ...


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool body did: its node output, or (with ``error``) a recoverable failure."""

    output: object = None
    error: str | None = None


class ToolWorld(Protocol):
    """The bodies of the tools: where side effects happen."""

    def invoke(
        self, tool: str, args: object, tool_call_id: str | None, *, turn_id: str, run_id: str
    ) -> ToolOutcome:
        """Run tool ``tool`` with its normalized ``args``."""
        ...


class Observer(Protocol):
    """Receives what the runtime did, for the adapter harness and for logs."""

    def run_started(self, run_id: str, turn_id: str, cause: str) -> None: ...
    def model_input(self, run_id: str, messages: Sequence[Mapping[str, object]]) -> None: ...
    def resumed(self, run_id: str, nudge: str, note: Mapping[str, object] | None) -> None: ...
    def prior_turn_note(self, run_id: str, note: Mapping[str, object]) -> None: ...
    def pass_done(self, run_id: str, record: Mapping[str, object]) -> None: ...
    def warning(self, warning: Mapping[str, object]) -> None: ...
    def run_ended(
        self, run_id: str, end: str, interruption: Mapping[str, object] | None
    ) -> None: ...


class NullObserver:
    """An observer that ignores everything (the HTTP server logs warnings instead)."""

    def run_started(self, run_id: str, turn_id: str, cause: str) -> None:
        """Ignored."""

    def model_input(self, run_id: str, messages: Sequence[Mapping[str, object]]) -> None:
        """Ignored."""

    def resumed(self, run_id: str, nudge: str, note: Mapping[str, object] | None) -> None:
        """Ignored."""

    def prior_turn_note(self, run_id: str, note: Mapping[str, object]) -> None:
        """Ignored."""

    def pass_done(self, run_id: str, record: Mapping[str, object]) -> None:
        """Ignored."""

    def warning(self, warning: Mapping[str, object]) -> None:
        """Ignored."""

    def run_ended(self, run_id: str, end: str, interruption: Mapping[str, object] | None) -> None:
        """Ignored."""
