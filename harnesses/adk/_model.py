"""The scripted model: ADK's model seam, answering from the scenario.

It is a real ``BaseLlm``: the agent's flow calls it as it would call Gemini, with an
``LlmRequest``, and gets ``LlmResponse``s back.  Each scripted reply becomes the
response a Gemini-shaped provider returns: a text part, then one ``FunctionCall`` part
per raw call, with the call's arguments as a map and its id when the script gave one.
A call without an id keeps none: ADK gives it one of its own, as it does for every
provider that sends calls without ids.  What a provider could not send at all (a raw
call that is not an object, a name that is not a string, arguments that are not a map)
is not part of the response.  A question is a call of ADK's own ``adk_request_input``
tool, which pauses the invocation until the user answers it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from pydantic import PrivateAttr

from adapters.kit import Run, Script
from adapters.scenario import Reply

__all__ = ["ASK", "RESPONSE_ID", "Recorder", "ScriptedLlm", "model_view", "provider_parts"]

#: The name of ADK's tool for asking the user (``google.adk.tools.request_input``).
ASK = "adk_request_input"
#: Where a response names the scripted reply it plays (``LlmResponse.custom_metadata``).
RESPONSE_ID = "response_id"


class Recorder:
    """What the harness observes: the model's inputs and every tool body that ran, on
    the current run; the raw calls of every scripted reply, by the reply's id."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.ran: list[str | None] = []
        self.batches: dict[str, list[object]] = {}
        self._replies = 0

    def start(self, run: Run | None) -> None:
        """A run begins (``None``: it ended)."""
        self.run, self.ran = run, []

    def body_ran(self, tool: str, args: object, call_id: str | None) -> None:
        self.ran.append(call_id)
        if self.run is not None:
            self.run.side_effect(tool, args, call_id)

    def reply_played(self, reply: Reply) -> str:
        self._replies += 1
        response_id = f"reply-{self._replies}"
        if reply.tool_calls is not None:
            self.batches[response_id] = list(reply.tool_calls)
        return response_id


def _arguments(raw: dict[str, Any]) -> dict[str, Any] | None:
    """A call's arguments as a Gemini-shaped provider carries them: a map.  ``[]`` is the
    scenario's spelling of no arguments (the specification's examples come from a
    runtime where an empty list and an empty map are one value)."""
    args = raw.get("args", {})
    if args is None or args == []:
        return {}
    return args if isinstance(args, dict) else None


def provider_parts(reply: Reply) -> list[types.Part]:
    """The parts of the response a provider returns for ``reply``."""
    parts = [types.Part(text=reply.text)] if reply.text else []
    for raw in reply.tool_calls or ():
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            continue
        args = _arguments(raw)
        if args is None:
            continue
        call_id = raw.get("tool_call_id")
        call = types.FunctionCall(
            name=raw["name"], args=args, id=call_id if isinstance(call_id, str) else None
        )
        parts.append(types.Part(function_call=call))
    if reply.question:
        ask = types.FunctionCall(name=ASK, args={"message": reply.question})
        parts.append(types.Part(function_call=ask))
    return parts or [types.Part(text="")]


#: A provider reports what a response cost; the script costs nothing.
_NO_TOKENS = types.GenerateContentResponseUsageMetadata(
    prompt_token_count=0, candidates_token_count=0, total_token_count=0
)


def _message(role: str | None, part: types.Part) -> dict[str, Any]:
    """One part of a content, as a chat message: ADK's names in the wire's words (the
    ``model`` role is ``assistant``; a function response is a ``tool`` message)."""
    speaker = "assistant" if role == "model" else str(role)
    if part.function_call is not None:
        call = part.function_call
        return {
            "role": speaker,
            "tool_calls": [{"name": call.name, "args": call.args, "id": call.id}],
        }
    if part.function_response is not None:
        response = part.function_response
        return {
            "role": "tool",
            "tool_call_id": response.id,
            "name": response.name,
            "content": response.response,
        }
    return {"role": speaker, "content": part.text or ""}


def model_view(request: LlmRequest) -> list[dict[str, Any]]:
    """What the model is given: the system instruction, then every part of every content
    of the request, as ADK built them (an artifact is never among them unless a tool
    loads it, and the ids ADK gave calls itself are already taken off)."""
    view: list[dict[str, Any]] = []
    instruction = request.config.system_instruction if request.config else None
    if isinstance(instruction, str) and instruction:
        view.append({"role": "system", "content": instruction})
    for content in request.contents:
        view.extend(_message(content.role, part) for part in content.parts or ())
    return view


class ScriptedLlm(BaseLlm):
    """A model whose replies are the scenario's script, in order."""

    model: str = "rttool-scripted"
    _script: Script = PrivateAttr()
    _recorder: Recorder = PrivateAttr()

    def __init__(self, script: Script, recorder: Recorder) -> None:
        super().__init__(model="rttool-scripted")
        self._script, self._recorder = script, recorder

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        if self._recorder.run is not None:
            self._recorder.run.model_input(model_view(llm_request))
        reply = self._script.next_reply()
        content = types.Content(role="model", parts=provider_parts(reply))
        response_id = self._recorder.reply_played(reply)
        yield LlmResponse(
            content=content, custom_metadata={RESPONSE_ID: response_id}, usage_metadata=_NO_TOKENS
        )
