"""The scripted model and tool bodies a scenario describes.

Both belong to the harness, not to the runtime: they stand for the outside world (the
model provider, the systems tools touch), so they survive a runtime restart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence

from adapters.scenario import UNENCODABLE, Reply, Tool
from reference_impl.workflow import ModelReply, ToolOutcome

__all__ = ["ScriptedModel", "ScriptedWorld"]


class ScriptedModel:
    """Replies in order across the whole scenario; ``{"text": "Done."}`` once they run out."""

    def __init__(self, replies: Sequence[Reply]) -> None:
        self._replies = list(replies)
        self._next = 0
        self._lock = threading.Lock()

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        """The next scripted reply."""
        with self._lock:
            if self._next >= len(self._replies):
                return ModelReply(text="Done.")
            reply = self._replies[self._next]
            self._next += 1
        calls = None if reply.tool_calls is None else tuple(reply.tool_calls)
        return ModelReply(text=reply.text, tool_calls=calls, question=reply.question)


def _substitute(value: object) -> object:
    """Replace the unencodable marker by a value JSON cannot encode (NaN)."""
    if value == UNENCODABLE:
        return {"value": float("nan")}
    if isinstance(value, Mapping):
        return {key: _substitute(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_substitute(item) for item in value]
    return value


class ScriptedWorld:
    """Tool bodies: each invocation of a tool takes its next scripted return (the last
    repeats), and is reported as a side effect."""

    def __init__(
        self, tools: Sequence[Tool], on_side_effect: Callable[[str, Mapping[str, object]], None]
    ) -> None:
        self._tools = {tool.name: tool for tool in tools}
        self._calls: dict[str, int] = {}
        self._lock = threading.Lock()
        self._on_side_effect = on_side_effect

    def invoke(
        self, tool: str, args: object, tool_call_id: str | None, *, turn_id: str, run_id: str
    ) -> ToolOutcome:
        """Run the scripted body of ``tool``."""
        with self._lock:
            index = self._calls.get(tool, 0)
            self._calls[tool] = index + 1
        self._on_side_effect(run_id, {"tool": tool, "input": args, "tool_call_id": tool_call_id})
        returns = self._tools[tool].returns
        scripted = returns[min(index, len(returns) - 1)]
        output = _substitute(scripted.output)
        return ToolOutcome(output=output, error=scripted.fail)
