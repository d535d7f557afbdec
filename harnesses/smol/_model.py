"""The scripted model: smolagents' model seam, answering from the scenario.

It is a real ``smolagents.Model``: the ``ToolCallingAgent`` calls ``generate`` with its
memory written out as chat messages and the tools it may call, as it calls an API model,
and gets a ``ChatMessage`` back.  Each scripted reply becomes the message an
OpenAI-shaped provider returns, decoded by smolagents' own ``ChatMessage.from_dict``: the
reply's text as ``content``, and one function call per raw call, with its arguments
JSON-encoded (``"args": []`` as ``{}``, as a provider sends no arguments) and its id when
the script gave one.  A call without an id is sent with none: smolagents makes up no id
for a structured call.  What such a provider could not send at all (a raw call that is not
an object, a name or an id that is not a string) is not part of the message.

Two of the scenario's replies have no call of their own, and smolagents' agent knows only
calls (it asks providers for ``tool_choice="required"``): a reply that ends the run is a
call of smolagents' ``final_answer`` tool with the reply's text, and a question is a call of
its ``user_input`` tool, put first in the message.  Both are the harness's way of ending
and of pausing, not calls of the scenario: their ids are the harness's own.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from smolagents import ChatMessage, Model, TokenUsage

from adapters.kit import Script
from adapters.scenario import Reply
from harnesses.smol._observer import Observer

__all__ = ["ASK", "FINAL", "ScriptedModel", "chat_view", "provider_message"]

#: The name of smolagents' tool for asking the user (``UserInputTool``).
ASK = "user_input"
#: The name of smolagents' tool that ends a run (``FinalAnswerTool``).
FINAL = "final_answer"

#: smolagents' message roles, as the chat shape the protocol reads names them: a
#: ``tool-call`` message is the assistant announcing its calls, a ``tool-response`` is
#: what the tools answered.
_ROLES = {"tool-call": "assistant", "tool-response": "tool"}


class ScriptedModel(Model):  # type: ignore[misc]  # smolagents ships no type hints
    """Plays the scenario's replies, in order, through smolagents' model interface."""

    def __init__(self, script: Script, observer: Observer) -> None:
        super().__init__(model_id="rttool-scripted")
        self.script = script
        self.observer = observer
        self._numbers = itertools.count(1)

    def generate(
        self,
        messages: list[Any],
        stop_sequences: list[str] | None = None,
        response_format: dict[str, str] | None = None,
        tools_to_call_from: list[Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        reply = self.script.next_reply()
        message, own = provider_message(reply, next(self._numbers), bool(tools_to_call_from))
        batch = None if reply.tool_calls is None else list(reply.tool_calls)
        self.observer.model_called(chat_view(messages), batch, own)
        # A provider reports usage; a script uses no tokens.
        usage = TokenUsage(input_tokens=0, output_tokens=0)
        return ChatMessage.from_dict(copy.deepcopy(message), raw=message, token_usage=usage)


def provider_message(
    reply: Reply, number: int, offers_tools: bool
) -> tuple[dict[str, Any], frozenset[str]]:
    """The provider's message for ``reply`` (the ``number``-th model call), and the ids of
    the calls the harness put in it (a question, a final answer)."""
    if not offers_tools:  # smolagents' last resort after max_steps: text, no tools
        return {"role": "assistant", "content": reply.text or reply.question or ""}, frozenset()
    calls: list[dict[str, Any]] = []
    own: set[str] = set()
    if reply.question is not None:
        own.add(f"rttool-ask-{number}")
        calls.append(_function(f"rttool-ask-{number}", ASK, {"question": reply.question}))
    if reply.tool_calls is not None:
        calls.extend(_provider_call(raw) for raw in reply.tool_calls if _sendable(raw))
    content = reply.text
    if reply.tool_calls is None and reply.question is None:  # the reply ends the run
        own.add(f"rttool-answer-{number}")
        calls = [_function(f"rttool-answer-{number}", FINAL, {"answer": reply.text or ""})]
        content = None
    return {"role": "assistant", "content": content, "tool_calls": calls}, frozenset(own)


def _sendable(raw: object) -> TypeGuard[Mapping[str, Any]]:
    """Whether an OpenAI-shaped provider can carry ``raw`` as a function call."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
        return False
    return raw.get("tool_call_id") is None or isinstance(raw.get("tool_call_id"), str)


def _provider_call(raw: Mapping[str, Any]) -> dict[str, Any]:
    args = raw.get("args")
    args = {} if args is None or args == [] else args  # `[]` is how the examples say none
    return _function(raw.get("tool_call_id"), raw["name"], args)


def _function(call_id: str | None, name: str, args: object) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }


def chat_view(messages: Iterable[Any]) -> list[dict[str, Any]]:
    """The messages smolagents gave the model, in the chat shape: each one's role and its
    text parts joined (smolagents writes one text part per message)."""
    viewed: list[dict[str, Any]] = []
    for message in messages:
        role = getattr(message.role, "value", message.role)
        content = message.content
        if isinstance(content, list):
            content = "\n".join(
                str(part.get("text", "")) for part in content if part.get("type") == "text"
            )
        viewed.append({"role": _ROLES.get(str(role), str(role)), "content": content})
    return viewed
