"""The scenario's tools as AutoGen tools.

Each tool is a ``BaseTool`` declared the way AutoGen declares a tool from a JSON schema
(its MCP tools, ``autogen_ext.tools.mcp``): the schema becomes a pydantic model with
``autogen_core.utils.schema_to_pydantic_model``, AutoGen validates the model's
arguments against it before the body runs, and the body is handed the validated
arguments as the MCP adapter hands them on (``model_dump(exclude_unset=True)``).

* A scripted output is the body's return value; AutoGen turns it into the result's text
  (``BaseTool.return_value_as_string``).  A scripted failure raises, and AutoGen's
  workbench turns the exception into an error result, its recoverable failure.
* AutoGen's side channel for what a tool emits beside its result is a stream tool's
  events: they reach the application in the agent's stream and the team's message
  thread, and never the model.  A tool whose scripted outputs carry the reserved
  ``artifacts`` key is a ``BaseStreamTool`` that takes the key off its output and
  streams each entry (the value itself when it is not a list) as a
  ``ToolArtifactEvent``, with no filtering, before it returns (or fails).
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import AsyncGenerator, Mapping
from typing import Any, Literal

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken
from autogen_core.tools import BaseStreamTool, BaseTool
from autogen_core.utils import schema_to_pydantic_model
from pydantic import BaseModel

from adapters.kit import Script
from adapters.scenario import Return, Tool
from harnesses.autogen._model import HANDOFF, Dispatch, Recorder

__all__ = ["ToolArtifactEvent", "ToolFailure", "ToolRefused", "build_tools"]

#: The call AutoGen is running a tool for.  AutoGen hands the id to ``run_json``, not
#: to the body; each call of a batch runs in a task of its own, with its own context.
_CALL: contextvars.ContextVar[Dispatch] = contextvars.ContextVar("call")
CallId = str | None


class ToolArtifactEvent(BaseAgentEvent):
    """One entry a tool emitted on the reserved ``artifacts`` key, as AutoGen streams it:
    the call it was emitted for, and which invocation of the tool emitted it."""

    content: Any
    tool_call_id: str
    invocation: int
    type: Literal["ToolArtifactEvent"] = "ToolArtifactEvent"

    def to_text(self) -> str:
        return json.dumps(self.content)


class ToolFailure(Exception):
    """A scripted recoverable failure; AutoGen's workbench reports its message."""


class ToolRefused(Exception):
    """AutoGen cannot declare this tool: its input schema does not convert, or its name
    is the one AutoGen gives the agent's handoff to the user."""


def _describe(tool: Tool) -> str:
    return f"The scenario's tool {tool.name}."


def _emits_artifacts(tool: Tool) -> bool:
    return any(isinstance(ret.output, dict) and "artifacts" in ret.output for ret in tool.returns)


class _Body:
    """What every scenario tool does when AutoGen runs its body."""

    def __init__(self, tool: Tool, script: Script, recorder: Recorder) -> None:
        self.tool, self.script, self.recorder = tool, script, recorder

    def invoke(self, args: BaseModel) -> Return:
        scripted = self.script.invoke(self.tool.name)
        given = args.model_dump(mode="json", exclude_unset=True)
        self.recorder.body_ran(_CALL.get(), self.tool.name, given)
        return scripted


class ScenarioTool(BaseTool[BaseModel, Any]):
    """A scenario tool whose outputs carry no artifacts: a plain AutoGen tool."""

    def __init__(self, body: _Body, arguments: type[BaseModel]) -> None:
        super().__init__(
            arguments, object, body.tool.name, f"The scenario's tool {body.tool.name}."
        )
        self._body = body

    async def run_json(
        self,
        args: Mapping[str, Any],
        cancellation_token: CancellationToken,
        call_id: str | None = None,
    ) -> Any:
        _CALL.set(self._body.recorder.dispatch(call_id or ""))
        return await super().run_json(args, cancellation_token, call_id)

    async def run(self, args: BaseModel, cancellation_token: CancellationToken) -> object:
        scripted = self._body.invoke(args)
        if scripted.fail is not None:
            raise ToolFailure(scripted.fail)
        return scripted.output


class ScenarioStreamTool(BaseStreamTool[BaseModel, BaseAgentEvent, Any]):
    """A scenario tool that emits artifacts: it streams them as events, then returns."""

    def __init__(self, body: _Body, arguments: type[BaseModel]) -> None:
        super().__init__(
            arguments, object, body.tool.name, f"The scenario's tool {body.tool.name}."
        )
        self._body = body

    async def run_json_stream(
        self,
        args: Mapping[str, Any],
        cancellation_token: CancellationToken,
        call_id: str | None = None,
    ) -> AsyncGenerator[Any, None]:
        _CALL.set(self._body.recorder.dispatch(call_id or ""))
        async for item in super().run_json_stream(args, cancellation_token, call_id):
            yield item

    async def run_stream(
        self, args: BaseModel, cancellation_token: CancellationToken
    ) -> AsyncGenerator[Any, None]:
        scripted = self._body.invoke(args)
        output = scripted.output
        if isinstance(output, dict) and "artifacts" in output:
            emitted = output["artifacts"]
            call = _CALL.get()
            for entry in emitted if isinstance(emitted, list) else [emitted]:
                yield ToolArtifactEvent(
                    source=self.name,
                    content=entry,
                    tool_call_id=call.call_id,
                    invocation=call.serial,
                )
            output = {key: value for key, value in output.items() if key != "artifacts"}
        if scripted.fail is not None:
            raise ToolFailure(scripted.fail)
        yield output

    async def run(self, args: BaseModel, cancellation_token: CancellationToken) -> object:
        last: object = None
        async for item in self.run_stream(args, cancellation_token):
            last = item
        return last


def build_tools(script: Script, recorder: Recorder) -> list[BaseTool[Any, Any]]:
    """Every scenario tool, declared from its JSON schema as AutoGen declares one."""
    tools: list[BaseTool[Any, Any]] = []
    for tool in script.tools:
        if tool.name == HANDOFF:  # AutoGen refuses a tool named like a handoff
            raise ToolRefused(f"{tool.name}: the name of the agent's handoff to the user")
        schema = tool.input_schema if isinstance(tool.input_schema, dict) else {"type": "object"}
        try:
            arguments = schema_to_pydantic_model(schema, "Arguments")
        except Exception as err:  # AutoGen's conversion raises several kinds, and TypeError
            raise ToolRefused(f"{tool.name}: {type(err).__name__}: {err}"[:300]) from err
        body = _Body(tool, script, recorder)
        built = ScenarioStreamTool if _emits_artifacts(tool) else ScenarioTool
        tools.append(built(body, arguments))
    return tools
