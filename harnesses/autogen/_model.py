"""The scripted model: AutoGen's model seam, answering from the scenario.

``ScriptedClient`` is a real ``ChatCompletionClient``: the ``AssistantAgent`` calls it as
it would call a provider's client, with AutoGen's ``LLMMessage``s and tool schemas, and
gets a ``CreateResult`` back, shaped the way AutoGen's provider clients shape one:

* a reply with tool calls is a list of ``FunctionCall``s, each with its arguments as a
  JSON text (``"args": []`` is sent as ``{}``, as a provider sends "no arguments"), and
  the reply's text beside the calls is the result's ``thought`` (autogen-ext's OpenAI
  client puts a message's text there when the message also calls tools);
* a raw call a provider could not send at all (not an object, a name that is not a
  string) is not part of the result;
* a call without an identifier, or with one that is not a string, gets one from the
  client, as every provider gives one (``FunctionCall.id`` is a required string): the
  trace marks it generated;
* a question is a call of the agent's handoff to the user (AutoGen's human-in-the-loop
  pause), with the question as the result's ``thought``.

The client also reports what the agent gave the model: each call's messages, in the
chat shape a provider receives (one ``tool`` message per function result).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    CreateResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    ModelInfo,
    RequestUsage,
    SystemMessage,
    UserMessage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from adapters.kit import Run, Script

__all__ = ["HANDOFF", "Dispatch", "Played", "Recorder", "ScriptedClient", "model_view"]

#: The name of the tool AutoGen gives an agent for its handoff to the user.
HANDOFF = "transfer_to_user"
_INFO = ModelInfo(
    vision=False,
    function_calling=True,
    json_output=False,
    family="unknown",
    structured_output=False,
    multiple_system_messages=True,
)
_NO_USAGE = RequestUsage(prompt_tokens=0, completion_tokens=0)


@dataclass(frozen=True)
class Played:
    """One scripted reply that called tools: the raw calls as the scenario scripted them
    (``None`` when the reply only asked the user), and the id of its handoff call."""

    batch: list[object] | None
    handoff: str | None


@dataclass
class Dispatch:
    """One call AutoGen dispatched to a scenario tool: its id, a serial number that tells
    apart two calls of one batch sharing an id, and whether the body ran (AutoGen
    refuses arguments its schema does not accept before the body runs)."""

    call_id: str
    serial: int
    ran: bool = False


class Recorder:
    """What the harness observes: the model's inputs, the replies that called tools (in
    the order the model made them), and every call dispatched to a tool, on the current
    run; the identifiers the client made up."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.played: deque[Played] = deque()
        self.dispatched: list[Dispatch] = []
        self.generated: set[str] = set()
        self._serials = 0
        self._ids = 0

    def start(self, run: Run | None) -> None:
        """A run begins (``None``: it ended)."""
        self.run = run
        self.played.clear()
        self.dispatched.clear()

    def dispatch(self, call_id: str) -> Dispatch:
        """AutoGen hands a call to a scenario tool."""
        self._serials += 1
        made = Dispatch(call_id, self._serials)
        self.dispatched.append(made)
        return made

    def body_ran(self, dispatch: Dispatch, tool: str, args: object) -> None:
        """The tool body ran for a dispatched call."""
        dispatch.ran = True
        if self.run is not None:
            self.run.side_effect(tool, args, dispatch.call_id)

    def take(self, call_id: str) -> Dispatch | None:
        """The oldest dispatched call with this id not yet reported (batch order)."""
        for index, made in enumerate(self.dispatched):
            if made.call_id == call_id:
                return self.dispatched.pop(index)
        return None

    def new_id(self, kind: str) -> str:
        """An identifier the client gives a call the model sent without one."""
        self._ids += 1
        made = f"{kind}-{self._ids}"
        self.generated.add(made)
        return made


def _arguments(raw: Mapping[str, object]) -> str:
    args = raw.get("args", {})
    return json.dumps({} if args == [] else args)


def _function_calls(raw_calls: Sequence[object], recorder: Recorder) -> list[FunctionCall]:
    calls = []
    for raw in raw_calls:
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            continue  # nothing a provider can send
        call_id = raw.get("tool_call_id")
        if not isinstance(call_id, str):
            call_id = recorder.new_id("generated")
        calls.append(FunctionCall(id=call_id, arguments=_arguments(raw), name=raw["name"]))
    return calls


class ScriptedClient(ChatCompletionClient):
    """A ``ChatCompletionClient`` playing the scenario's model replies, in order."""

    def __init__(self, script: Script, recorder: Recorder) -> None:
        self._script = script
        self._recorder = recorder

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = (),
        tool_choice: Tool | str = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] | None = None,
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        recorder = self._recorder
        if recorder.run is not None:
            recorder.run.model_input(model_view(messages))
        reply = self._script.next_reply()
        if reply.tool_calls is None and not reply.question:
            text = reply.text or ""
            return CreateResult(finish_reason="stop", content=text, usage=_NO_USAGE, cached=False)
        calls = _function_calls(reply.tool_calls or (), recorder)
        handoff = None
        if reply.question:
            handoff = recorder.new_id("handoff")
            calls.append(FunctionCall(id=handoff, arguments="{}", name=HANDOFF))
        batch = list(reply.tool_calls) if reply.tool_calls is not None else None
        recorder.played.append(Played(batch, handoff))
        thought = "\n\n".join(part for part in (reply.text, reply.question) if part) or None
        return CreateResult(
            finish_reason="function_calls",
            content=calls,
            usage=_NO_USAGE,
            cached=False,
            thought=thought,
        )

    async def create_stream(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = (),
        tool_choice: Tool | str = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] | None = None,
        cancellation_token: CancellationToken | None = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        yield await self.create(messages, tools=tools, tool_choice=tool_choice)

    async def close(self) -> None:
        return None

    def actual_usage(self) -> RequestUsage:
        return _NO_USAGE

    def total_usage(self) -> RequestUsage:
        return _NO_USAGE

    def count_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = ()
    ) -> int:
        return 0

    def remaining_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = ()
    ) -> int:
        return 1_000_000

    @property
    def capabilities(self) -> ModelInfo:  # deprecated in AutoGen; its model info
        return _INFO

    @property
    def model_info(self) -> ModelInfo:
        return _INFO


def _call(call: FunctionCall) -> dict[str, str]:
    return {"id": call.id, "name": call.name, "arguments": call.arguments}


def model_view(messages: Sequence[LLMMessage]) -> list[dict[str, Any]]:
    """The messages as a chat provider is given them: AutoGen's message types renamed to
    chat roles, one ``tool`` message per function result."""
    view: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            view.append({"role": "system", "content": message.content})
        elif isinstance(message, UserMessage):
            content = message.content if isinstance(message.content, str) else str(message.content)
            view.append({"role": "user", "content": content})
        elif isinstance(message, AssistantMessage) and isinstance(message.content, str):
            view.append({"role": "assistant", "content": message.content})
        elif isinstance(message, AssistantMessage):
            calls = [_call(call) for call in message.content if isinstance(call, FunctionCall)]
            text = message.thought or ""
            view.append({"role": "assistant", "content": text, "tool_calls": calls})
        elif isinstance(message, FunctionExecutionResultMessage):
            view.extend(
                {"role": "tool", "tool_call_id": result.call_id, "content": result.content}
                for result in message.content
            )
    return view
