"""Held-artifact delivery: how long the answer's write-back takes with N artifacts held.

A turn's only tool call emits N artifacts, then the model asks a question, so all N are
held against the paused turn (the workflow's bounds are set above N).  What is timed is
``Runtime.answer``: the claim, one model call, and the write-back that takes the held
list and persists it on the final message.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reference_impl.artifacts import Bounds
from reference_impl.runtime import Runtime
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec, Workflow

__all__ = ["HeldTiming", "time_held_delivery"]

_QUESTION = "Deliver them?"


class _EmitThenAsk:
    """Call ``emit`` once, then ask; after the answer, finish."""

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        last = messages[-1]
        if last.get("role") == "tool":
            return ModelReply(question=_QUESTION)
        if any(m.get("content") == _QUESTION for m in messages):
            return ModelReply(text="Delivered.")
        return ModelReply(tool_calls=({"name": "emit", "args": {}, "tool_call_id": "emit-1"},))


class _Emitter:
    def __init__(self, count: int) -> None:
        self._count = count

    def invoke(
        self, tool: str, args: object, tool_call_id: str | None, *, turn_id: str, run_id: str
    ) -> ToolOutcome:
        artifacts = [
            {"type": "link", "payload": {"url": f"https://example.com/a/{i}"}}
            for i in range(self._count)
        ]
        return ToolOutcome(output={"result": "emitted", "artifacts": artifacts})


@dataclass(frozen=True)
class HeldTiming:
    """One measurement: N held, seconds the answer took, artifacts that arrived."""

    count: int
    seconds: float
    delivered: int


def _workflow(count: int) -> Workflow:
    room = count + 1
    return Workflow(
        tools=(ToolSpec("emit"),),
        bounds=Bounds(run_artifacts=room, run_bytes=count * 256 + 1024 * 1024, held_artifacts=room),
    )


def time_held_delivery(count: int, *, workdir: Path | None = None) -> HeldTiming:
    """Build a turn holding ``count`` artifacts, then time the answer that delivers them."""
    with tempfile.TemporaryDirectory(dir=workdir, prefix="bench-held-") as scratch:
        runtime = Runtime(Path(scratch) / "held.db", model=_EmitThenAsk(), world=_Emitter(count))
        try:
            conversation = runtime.create_conversation(_workflow(count))
            turn = runtime.start_turn(conversation, "go")
            held = len(runtime.held(turn))
            if held != count:
                raise RuntimeError(f"expected {count} held artifacts, found {held}")
            started = time.perf_counter()
            runtime.answer(turn, "yes")
            seconds = time.perf_counter() - started
            view = runtime.turn_view(turn)
            artifacts = view["toolArtifacts"]
            delivered = len(artifacts) if isinstance(artifacts, list) else 0
        finally:
            runtime.close()
    return HeldTiming(count, seconds, delivered)
