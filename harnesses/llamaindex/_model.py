"""The scripted model: LlamaIndex's model seam, answering from the scenario.

The model is ``MockFunctionCallingLLM``, the function-calling LLM llama-index-core ships
for driving an agent without a provider, given a response generator that plays the
scenario's replies in order.  Each reply becomes the message a provider integration
builds: a text block, then one ``ToolCallBlock`` per raw call, with the call's arguments
as the JSON text a provider sends and its id when the script gives one.  What becomes a
``ToolSelection``, and with which arguments and id, is LlamaIndex's own parsing
(``get_tool_calls_from_response``): a call without an id gets the id ``""``, and
arguments that do not decode to a map become ``{}``.  A raw call no provider could send
(not an object, or a name that is not a string) is not part of the message.  A question
is a call of the harness's ``ask_the_user`` tool, which waits for the user's answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, TextBlock, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM

from adapters.kit import Run, Script

__all__ = ["ASK", "Recorder", "chat_view", "provider_message", "scripted_llm"]

#: The name of the tool a question is asked through.
ASK = "ask_the_user"


class Recorder:
    """What the harness observes of the model: the run it is playing for, and the raw
    batch of the reply it played last (``None``: the reply called no tools)."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.batch: list[object] | None = None
        self._asked = 0

    def ask_id(self) -> str:
        """The id of the next question call, as a provider would number it."""
        self._asked += 1
        return f"ask_{self._asked}"


def _arguments(raw: dict[str, Any]) -> str:
    """A call's arguments as a provider sends them: JSON text.  ``[]`` (the scenario's
    spelling of no arguments) and ``null`` are sent as they are: LlamaIndex reads any
    text that does not decode to a map as no arguments."""
    return json.dumps(raw.get("args", {}))


def provider_message(reply: object, ask_id: str) -> ChatMessage:
    """The assistant message a provider integration builds for ``reply``."""
    text = getattr(reply, "text", None)
    calls = getattr(reply, "tool_calls", None)
    question = getattr(reply, "question", None)
    blocks: list[Any] = [TextBlock(text=text)] if text else []
    for raw in calls or ():
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            continue
        call_id = raw.get("tool_call_id")
        blocks.append(
            ToolCallBlock(
                tool_call_id=call_id if isinstance(call_id, str) else None,
                tool_name=raw["name"],
                tool_kwargs=_arguments(raw),
            )
        )
    if question:
        blocks.append(
            ToolCallBlock(
                tool_call_id=ask_id, tool_name=ASK, tool_kwargs=json.dumps({"question": question})
            )
        )
    return ChatMessage(role="assistant", blocks=blocks or [TextBlock(text="")])


def chat_view(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """What the model is given, as chat messages: LlamaIndex's roles and text as they
    are, an assistant message's tool calls, a tool message's ``tool_call_id``."""
    view: list[dict[str, Any]] = []
    for message in messages:
        entry: dict[str, Any] = {"role": message.role.value, "content": message.content or ""}
        calls = [block for block in message.blocks if isinstance(block, ToolCallBlock)]
        if calls:
            entry["tool_calls"] = [
                {"name": c.tool_name, "args": c.tool_kwargs, "tool_call_id": c.tool_call_id}
                for c in calls
            ]
        if "tool_call_id" in message.additional_kwargs:
            entry["tool_call_id"] = message.additional_kwargs["tool_call_id"]
        view.append(entry)
    return view


def scripted_llm(script: Script, recorder: Recorder) -> MockFunctionCallingLLM:
    """LlamaIndex's function-calling mock LLM, answering with the scenario's replies."""

    def respond(messages: Sequence[ChatMessage], **_: Any) -> ChatMessage:
        if recorder.run is not None:
            recorder.run.model_input(chat_view(messages))
        reply = script.next_reply()
        recorder.batch = list(reply.tool_calls) if reply.tool_calls is not None else None
        return provider_message(reply, recorder.ask_id() if reply.question else "")

    return MockFunctionCallingLLM(response_generator=respond)
