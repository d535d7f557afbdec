"""The scenario's tools as smolagents tools, and smolagents' own tool for asking the user.

A scenario tool is a ``smolagents.Tool`` whose ``inputs`` are read off the tool's JSON
schema, property by property, the way smolagents' MCP adapter declares an MCP tool:
each property's JSON type (``any`` when it has none), its description, and ``nullable``
when the schema does not require it.  smolagents checks every call's arguments against
those inputs before the body runs, and refuses an argument the inputs do not name:
a schema that names no property (one that accepts anything) declares no input.

The body takes the tool's next scripted return and hands smolagents the output as it is,
the reserved ``artifacts`` key included: smolagents has no channel for artifacts beside a
tool's output.  A scripted failure raises, which is how a smolagents tool fails: the
agent turns the exception into an error the model reads, and the run goes on.

A question is smolagents' ``UserInputTool`` (its name, description and input), asking
the scenario's operator instead of the terminal: the call waits until the ``answer``
step gives the answer, which becomes the tool's output.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from smolagents import Tool, UserInputTool
from smolagents.tools import AUTHORIZED_TYPES

from adapters.kit import Script
from adapters.scenario import Tool as ScenarioSpec
from harnesses.smol._observer import Observer, ToolFailed
from harnesses.smol._turns import Human

__all__ = ["QuestionTool", "ScenarioTool", "inputs_of"]


class ScenarioTool(Tool):  # type: ignore[misc]  # smolagents ships no type hints
    """One tool of the scenario, declared with its input schema."""

    output_type = "any"  # a scenario tool outputs any JSON
    # The body takes whatever arguments smolagents validated against ``inputs``.
    skip_forward_signature_validation = True

    def __init__(self, spec: ScenarioSpec, script: Script, observer: Observer) -> None:
        self.name = spec.name
        self.description = f"The scenario's tool {spec.name}."
        self.inputs = inputs_of(spec.input_schema)
        self.script = script
        self.observer = observer
        super().__init__()

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        given: object = kwargs if kwargs or not args else args[0] if len(args) == 1 else list(args)
        call_id = self.observer.body_ran(self.name, copy.deepcopy(given))
        ret = self.script.invoke(self.name)
        if ret.fail is not None:  # what a failed call emitted first has nowhere to go
            raise ToolFailed(ret.fail, call_id)
        return copy.deepcopy(ret.output)


class QuestionTool(UserInputTool):  # type: ignore[misc]  # smolagents ships no type hints
    """smolagents' ``user_input`` tool, answered by the scenario's ``answer`` steps."""

    def __init__(self, human: Human) -> None:
        self.human = human
        super().__init__()

    def forward(self, question: str) -> str:
        return self.human.ask(question)


def inputs_of(schema: object) -> dict[str, dict[str, Any]]:
    """smolagents ``inputs`` for a JSON schema: one entry per property."""
    if not isinstance(schema, Mapping) or not isinstance(schema.get("properties"), Mapping):
        return {}
    required = schema.get("required")
    required = set(required) if isinstance(required, list) else set()
    inputs: dict[str, dict[str, Any]] = {}
    for name, declared in schema["properties"].items():
        prop = declared if isinstance(declared, Mapping) else {}
        entry: dict[str, Any] = {
            "type": _type_of(prop.get("type")),
            "description": str(prop.get("description") or name),
        }
        if name not in required:
            entry["nullable"] = True
        inputs[str(name)] = entry
    return inputs


def _type_of(declared: object) -> str | list[str]:
    if isinstance(declared, str) and declared in AUTHORIZED_TYPES:
        return declared
    if isinstance(declared, list) and declared and all(t in AUTHORIZED_TYPES for t in declared):
        return [str(t) for t in declared]
    return "any"  # no type, or one smolagents cannot name
