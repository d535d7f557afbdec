"""The agent under test: a PydanticAI ``Agent`` on a ``FunctionModel`` that plays the script.

* The model is PydanticAI's own ``FunctionModel``: each scripted reply becomes a
  ``ModelResponse`` with a ``TextPart`` and one ``ToolCallPart`` per raw call, its
  arguments JSON-encoded as a provider sends them (PydanticAI validates them against
  the tool's schema).  A raw call a provider could not send at all (not an object, or
  without a string name) is not part of the response.  A question is a call of the
  ``ask_user`` tool, which PydanticAI defers as a question (``CallDeferred``).
* Each scenario tool is a PydanticAI ``Tool`` built from its JSON schema.  A gated tool
  asks for approval (``ApprovalRequired``) until the operator's decision arrives; a
  scripted failure is a ``ToolFailed``; artifacts travel the way PydanticAI carries data
  the model is not shown, as the ``ToolReturn``'s ``metadata``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_ai import Agent, DeferredToolRequests, RunContext, Tool
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ToolFailed
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturn,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from adapters.kit import Run, Script
from adapters.scenario import Tool as ScenarioTool

__all__ = ["ASK", "Recorder", "build_agent", "model_view", "provider_arguments"]

#: The tool a question is asked through.
ASK = "ask_user"


class Recorder:
    """What the harness observes: the model's inputs and every tool body that ran, on the
    current run; the raw calls of every scripted reply, by the reply's response id."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.batches: dict[str, list[object]] = {}
        self.ran: list[str | None] = []
        self._replies = 0

    def body_ran(self, tool: str, args: object, call_id: str | None) -> None:
        self.ran.append(call_id)
        if self.run is not None:
            self.run.side_effect(tool, args, call_id)

    def next_response_id(self, calls: list[object] | None) -> str:
        self._replies += 1
        response_id = f"reply-{self._replies}"
        if calls is not None:
            self.batches[response_id] = calls
        return response_id


def model_view(messages: list[ModelMessage]) -> list[dict[str, Any]]:
    """The messages as a model is given them: each part as PydanticAI renders it for a
    provider (a tool return's ``metadata`` is never among them)."""
    view: list[dict[str, Any]] = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, UserPromptPart):
                view.append({"role": "user", "content": part.content})
            elif isinstance(part, TextPart):
                view.append({"role": "assistant", "content": part.content})
            elif isinstance(part, ToolCallPart):
                call = {"name": part.tool_name, "args": part.args, "id": part.tool_call_id}
                view.append({"role": "assistant", "tool_calls": [call]})
            elif hasattr(part, "model_response_str") and hasattr(part, "tool_call_id"):
                text = part.model_response_str()
                view.append({"role": "tool", "tool_call_id": part.tool_call_id, "content": text})
            elif hasattr(part, "model_response"):  # a retry prompt
                view.append({"role": "user", "content": part.model_response()})
            elif hasattr(part, "content"):  # system prompts and instructions
                view.append({"role": "system", "content": str(part.content)})
    return view


def provider_arguments(args: object) -> str:
    """A call's arguments as a provider sends them: a JSON text.  ``[]`` is the scenario's
    spelling of no arguments (the specification's examples come from a runtime where an
    empty list and an empty map are one value), and a provider sends ``{}`` for it."""
    return json.dumps({} if args == [] else args)


def _response(script: Script, recorder: Recorder) -> ModelResponse:
    reply = script.next_reply()
    parts: list[Any] = [TextPart(reply.text)] if reply.text else []
    raw_calls = list(reply.tool_calls) if reply.tool_calls is not None else None
    for raw in raw_calls or ():
        if isinstance(raw, dict) and isinstance(raw.get("name"), str):
            call = ToolCallPart(raw["name"], provider_arguments(raw.get("args", {})))
            call_id = raw.get("tool_call_id")
            if isinstance(call_id, str):  # otherwise PydanticAI's own generated id stays
                call.tool_call_id = call_id
            parts.append(call)
    if reply.question:
        parts.append(ToolCallPart(ASK, {"question": reply.question}))
    return ModelResponse(
        parts=parts or [TextPart("")], provider_response_id=recorder.next_response_id(raw_calls)
    )


def _scenario_tool(spec: ScenarioTool, script: Script, recorder: Recorder) -> Tool[Any]:
    # An async body runs on the event loop, one call after the other in the batch's
    # order; a plain function would run on worker threads, in no fixed order.
    async def body(ctx: RunContext[Any], **args: Any) -> object:
        if spec.gate and not ctx.tool_call_approved:
            raise ApprovalRequired({"tool": spec.name})
        scripted = script.invoke(spec.name)
        recorder.body_ran(spec.name, args, ctx.tool_call_id)
        if scripted.fail is not None:
            raise ToolFailed(scripted.fail)
        output = scripted.output
        if isinstance(output, dict) and "artifacts" in output:
            data = {key: value for key, value in output.items() if key != "artifacts"}
            return ToolReturn(return_value=data, metadata=output["artifacts"])
        return output

    schema = spec.input_schema if isinstance(spec.input_schema, dict) else {"type": "object"}
    return Tool.from_schema(
        body,
        name=spec.name,
        description=f"The scenario's tool {spec.name}.",
        json_schema=schema,
        takes_ctx=True,
    )


async def _ask_user(question: str) -> str:
    """Ask the user; the answer arrives when the run is resumed."""
    raise CallDeferred(kind="question")


def build_agent(script: Script, recorder: Recorder) -> Agent[None, str | DeferredToolRequests]:
    """The agent for one scenario."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if recorder.run is not None:
            recorder.run.model_input(model_view(messages))
        return _response(script, recorder)

    tools = [_scenario_tool(spec, script, recorder) for spec in script.tools]
    if ASK not in {spec.name for spec in script.tools}:
        tools.append(Tool(_ask_user, name=ASK))
    return Agent(FunctionModel(respond), output_type=[str, DeferredToolRequests], tools=tools)
