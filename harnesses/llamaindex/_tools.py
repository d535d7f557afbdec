"""The scenario's tools as LlamaIndex ``FunctionTool``s, and the human in the loop.

Each tool is a ``FunctionTool`` declared with the scenario's own JSON schema, whose body
takes the workflow ``Context`` (LlamaIndex hands it to a tool that asks for it) and every
argument the agent passes.  The body takes the tool's next scripted return and gives the
scripted output back as it is: LlamaIndex has no artifact channel, so a reserved
``artifacts`` key is part of what the tool returns, like any other key.  A scripted
failure raises, which LlamaIndex turns into an error result the model reads.

Consent gates and questions are LlamaIndex's human-in-the-loop: the body waits for a
``HumanResponseEvent`` (``Context.wait_for_event``), announcing the wait with an
``InputRequiredEvent``; the workflow is idle until the user's response arrives, and then
replays the step, so the body runs from its start and the wait returns the response.  A
gated body waits before it does anything else, and a declined call raises.  A wait is
matched to its response by a key the body can know: the tool's name and its arguments.
"""

# No `from __future__ import annotations` here: LlamaIndex finds the parameter a tool
# takes its Context through by the annotation's value, which must be the class itself.

import json
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.bridge.pydantic import BaseModel, ConfigDict, Field
from llama_index.core.tools import FunctionTool, ToolMetadata
from llama_index.core.workflow import Context, HumanResponseEvent, InputRequiredEvent

from adapters.kit import Script
from adapters.scenario import Tool
from harnesses.llamaindex._model import ASK

__all__ = [
    "Bodies",
    "InputRequested",
    "ToolDeclined",
    "ToolFailed",
    "UserResponse",
    "ask_tool",
    "call_key",
    "scenario_tool",
]


class InputRequested(InputRequiredEvent):
    """What a waiting tool body announces: a gate (``tool`` and its ``arguments``) or a
    question, and the key its response must carry."""

    kind: str
    key: str
    tool: str = ""
    arguments: dict[str, Any] = Field(default_factory=dict)
    question: str | None = None


class UserResponse(HumanResponseEvent):
    """The user's response to the wait ``key``: an answer, an approval or a decline."""

    key: str
    response: str = ""
    approved: bool = True
    reason: str | None = None


class ToolFailed(Exception):
    """A scripted failure: the tool raises, and LlamaIndex answers with its message."""


class ToolDeclined(Exception):
    """The operator declined a gated call: the tool raises, with the reason."""


def call_key(tool: str, arguments: object) -> str:
    """The key a wait is matched to its response by: the tool and its arguments."""
    return json.dumps([tool, arguments], sort_keys=True)


@dataclass
class Bodies:
    """The tool bodies that ran and have not been paired with a result yet."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def take(self, tool: str, arguments: object) -> dict[str, Any] | None:
        """The oldest body of ``tool`` that ran with ``arguments`` (``None``: none)."""
        for index, (name, given) in enumerate(self.ran):
            if name == tool and given == arguments:
                del self.ran[index]
                return given
        return None


def _declared(schema: object) -> type[BaseModel]:
    """A schema class that declares the scenario's JSON schema as it is."""
    declared = dict(schema) if isinstance(schema, dict) else {"type": "object"}

    class Declared(BaseModel):
        model_config = ConfigDict(extra="allow")

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return dict(declared)

    return Declared


async def _decision(ctx: Context, announced: InputRequested) -> UserResponse:
    """Wait for the user's response to the wait ``announced`` (no time limit: a consent
    gate and a question wait for as long as the user takes)."""
    return await ctx.wait_for_event(
        UserResponse,
        waiter_event=announced,
        requirements={"key": announced.key},
        timeout=None,
    )


def scenario_tool(spec: Tool, script: Script, bodies: Bodies) -> FunctionTool:
    """One scenario tool: its schema, its gate, and a body playing its script."""

    async def body(workflow_context: Context, **arguments: Any) -> Any:
        if spec.gate:
            gate = InputRequested(
                kind="gate", key=call_key(spec.name, arguments), tool=spec.name, arguments=arguments
            )
            decision = await _decision(workflow_context, gate)
            if not decision.approved:
                raise ToolDeclined(decision.reason or "declined")
        scripted = script.invoke(spec.name)
        bodies.ran.append((spec.name, arguments))
        if scripted.fail is not None:
            raise ToolFailed(scripted.fail)
        return scripted.output

    metadata = ToolMetadata(
        name=spec.name,
        description=f"The scenario's tool {spec.name}.",
        fn_schema=_declared(spec.input_schema),
    )
    return FunctionTool(async_fn=body, metadata=metadata)


def ask_tool() -> FunctionTool:
    """The tool a question is asked through: it waits for the user's answer and returns
    it, so the model reads the answer as the call's result."""

    async def ask(workflow_context: Context, question: str = "") -> str:
        asked = InputRequested(kind="question", key=call_key(ASK, question), question=question)
        return (await _decision(workflow_context, asked)).response

    metadata = ToolMetadata(
        name=ASK,
        description="Ask the user a question and wait for the answer.",
        fn_schema=_declared({"type": "object", "properties": {"question": {"type": "string"}}}),
    )
    return FunctionTool(async_fn=ask, metadata=metadata)
