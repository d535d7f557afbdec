"""The scripted chat model: LangGraph's model seam, answering from the scenario.

It is a real ``BaseChatModel``: the graph's agent node calls it as it would call any
provider's model.  Each scripted reply becomes an ``AIMessage`` the way a provider
integration builds one: the model's raw tool calls are put in the provider's wire shape
(a function name and JSON-encoded arguments) and parsed by langchain-core's own tool-call
parser, so that what counts as a call (and what an ``"args": []`` becomes) is the
framework's decision, not the harness's.  A raw call the parser cannot even be handed
(not an object, or without a string name) becomes an ``InvalidToolCall``, langchain's
type for a call the model emitted that cannot be run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, convert_to_openai_messages
from langchain_core.messages.tool import default_tool_parser, invalid_tool_call
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict

from adapters.kit import Script
from adapters.scenario import Reply

__all__ = ["QUESTION", "ScriptedChatModel", "ai_message"]

#: Where a scripted reply's question travels on the AIMessage (the ask node reads it).
QUESTION = "question"


def provider_arguments(args: object) -> str:
    """A call's arguments as a provider sends them: a JSON text.  ``[]`` is the scenario's
    spelling of no arguments (the specification's examples come from a runtime where an
    empty list and an empty map are one value), and a provider sends ``{}`` for it;
    langchain-core's parser would read ``"[]"`` as no arguments too."""
    return json.dumps({} if args == [] else args)


def _provider_call(raw: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": raw.get("tool_call_id"),
        "type": "function",
        "function": {"name": raw["name"], "arguments": provider_arguments(raw.get("args", {}))},
    }


def ai_message(reply: Reply, message_id: str) -> AIMessage:
    """The AIMessage a provider integration would build for ``reply``."""
    provider_calls: list[dict[str, Any]] = []
    unusable: list[Any] = []
    for raw in reply.tool_calls or ():
        if isinstance(raw, dict) and isinstance(raw.get("name"), str):
            provider_calls.append(_provider_call(raw))
        else:
            unusable.append(
                invalid_tool_call(
                    name=None,
                    args=json.dumps(raw),
                    id=None,
                    error="not a tool call",
                )
            )
    calls, invalid = default_tool_parser(provider_calls)
    # A parsed call whose arguments are not an object cannot be held by an AIMessage.
    usable = [call for call in calls if isinstance(call.get("args"), dict)]
    invalid += [
        invalid_tool_call(
            name=call["name"], args=json.dumps(call["args"]), id=call["id"], error="not an object"
        )
        for call in calls
        if not isinstance(call.get("args"), dict)
    ]
    metadata = {QUESTION: reply.question} if reply.question else {}
    return AIMessage(
        content=reply.text or reply.question or "",
        id=message_id,
        tool_calls=usable,
        invalid_tool_calls=[*invalid, *unusable],
        response_metadata=metadata,
    )


class ScriptedChatModel(BaseChatModel):
    """A chat model whose replies are the scenario's script, in order.

    ``observe`` is told the messages of every call, in the provider's shape (what the
    model was given); ``emitted`` is told each reply's raw tool calls and returns the id
    the reply's message gets.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: Script
    observe: Callable[[list[dict[str, Any]]], None]
    emitted: Callable[[Sequence[object]], str]

    @property
    def _llm_type(self) -> str:
        return "rttool-scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        """The script already knows the tools: binding changes nothing."""
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.observe(convert_to_openai_messages(messages))
        reply = self.script.next_reply()
        message = ai_message(reply, self.emitted(reply.tool_calls or ()))
        return ChatResult(generations=[ChatGeneration(message=message)])
