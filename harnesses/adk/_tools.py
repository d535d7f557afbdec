"""The scenario's tools as ADK tools.

Each is a ``BaseTool`` declared with the scenario's own JSON schema (as ADK's MCP and
OpenAPI tools are declared with theirs), so that ADK hands the body the arguments the
model sent, every key of them.  A gated tool says so through ``check_require_confirmation``,
and ADK's confirmation gate does the rest: it answers the call with a request for
confirmation, pauses the invocation, and runs the body (or answers "rejected") once the
user's ``ToolConfirmation`` arrives.

The body takes the tool's next scripted return.  A scripted failure is answered the way
ADK answers every recoverable failure it makes itself (an unknown tool, a rejected call,
bad arguments): a response ``{"error": message}``, which the model sees.  Artifacts
travel the way ADK carries a tool's files beside its response: each entry of the
reserved ``artifacts`` list is saved, as it is, as one JSON artifact of the call
(``ToolContext.save_artifact``; a value that is not a list is one artifact), which ADK
records in the response event's ``artifact_delta`` and never shows the model.  A
failing call saves what it emitted before failing too: ADK keeps it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from adapters.kit import Script
from adapters.scenario import Tool
from harnesses.adk._model import Recorder

__all__ = ["ARTIFACTS", "ScenarioTool", "artifact_name", "artifacts_of", "decode_artifact"]

#: The reserved key a tool's output carries its artifacts on.
ARTIFACTS = "artifacts"
_MIME = "application/json"


def _folder(call_id: str | None) -> str:
    # A call id may hold any character, and an artifact name is a path: the id is one
    # segment of it, with no separator and no dot left to read as one.
    return "artifacts/" + quote(call_id or "", safe="").replace(".", "%2E")


def artifact_name(call_id: str | None, index: int) -> str:
    """The name a call's ``index``-th artifact is saved under."""
    return f"{_folder(call_id)}/{index}.json"


def artifacts_of(call_id: str | None, delta: Mapping[str, int]) -> list[tuple[str, int]]:
    """The artifacts ``delta`` records for the call, in the order the call saved them:
    ``(name, version)`` pairs."""
    prefix = _folder(call_id) + "/"
    found = []
    for name, version in delta.items():
        rest = name[len(prefix) : -len(".json")] if name.startswith(prefix) else ""
        if rest.isdigit() and name.endswith(".json"):
            found.append((int(rest), name, version))
    return [(name, version) for _, name, version in sorted(found)]


def _artifact_part(value: object) -> types.Part:
    return types.Part.from_bytes(data=json.dumps(value).encode(), mime_type=_MIME)


def decode_artifact(part: types.Part | None) -> object:
    """The entry a call saved as an artifact (the inverse of how it was saved)."""
    blob = part.inline_data if part is not None else None
    if blob is None or blob.data is None:
        return None
    return json.loads(blob.data)


class ScenarioTool(BaseTool):
    """One scenario tool: its schema, its gate, and a body playing its script."""

    def __init__(self, spec: Tool, script: Script, recorder: Recorder) -> None:
        super().__init__(name=spec.name, description=f"The scenario's tool {spec.name}.")
        self._spec, self._script, self._recorder = spec, script, recorder

    def _get_declaration(self) -> types.FunctionDeclaration:
        schema = self._spec.input_schema
        return types.FunctionDeclaration(
            name=self.name,
            description=self.description,
            parameters_json_schema=schema if isinstance(schema, dict) else {"type": "object"},
        )

    async def check_require_confirmation(
        self, args: dict[str, Any], tool_context: ToolContext
    ) -> bool:
        return self._spec.gate

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        # Taken before anything awaits: ADK runs a batch's calls side by side, and each
        # body starts in the batch's order, so the script is played in that order.
        call_id = tool_context.function_call_id
        scripted = self._script.invoke(self.name)
        self._recorder.body_ran(self.name, args, call_id)
        output = scripted.output
        if isinstance(output, dict) and ARTIFACTS in output:
            saved = output[ARTIFACTS]
            for index, entry in enumerate(saved if isinstance(saved, list) else [saved]):
                name = artifact_name(call_id, index)
                await tool_context.save_artifact(name, _artifact_part(entry))
            output = {key: value for key, value in output.items() if key != ARTIFACTS}
        if scripted.fail is not None:
            return {"error": scripted.fail}
        return output
