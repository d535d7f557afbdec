"""Turn read latency: a turn of 100 messages read 1,000 times, in process and over HTTP.

The turn is built by a real run: 97 assistant messages each calling a read-only tool that
emits one artifact, a question in the middle (so the first half is held and delivered on
the answer), the user's two messages and a final text; the last message carries 97
artifacts.  Over HTTP the server is a real uvicorn process on a loopback port, read with
one keep-alive client.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from reference_impl.runtime import Runtime
from reference_impl.server.process import spawn_server
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec, Workflow

__all__ = ["MESSAGES", "Latency", "build_turn", "read_in_process", "read_over_http"]

MESSAGES = 100
_FIRST_RUN = 49  # assistant messages before the question (a run may call the model 64 times)
_SECOND_RUN = MESSAGES - 3 - _FIRST_RUN
_QUESTION = "Half way: go on?"


class _Chatty:
    """Text plus one tool call per reply; a question after the first run's share."""

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        calls = sum(1 for m in messages if m.get("role") == "assistant" and m.get("tool_calls"))
        asked = any(m.get("content") == _QUESTION for m in messages)
        if calls == _FIRST_RUN and not asked:
            return ModelReply(question=_QUESTION)
        if calls >= _FIRST_RUN + _SECOND_RUN:
            return ModelReply(text="All done.")
        call = {"name": "peek", "args": {"n": calls}, "tool_call_id": f"peek-{calls}"}
        return ModelReply(text=f"Step {calls}: looking.", tool_calls=(call,))


class _Peek:
    def invoke(
        self, tool: str, args: object, tool_call_id: str | None, *, turn_id: str, run_id: str
    ) -> ToolOutcome:
        link = {"type": "link", "payload": {"url": f"https://example.com/peek/{tool_call_id}"}}
        return ToolOutcome(output={"result": "seen", "artifacts": [link]})


@dataclass(frozen=True)
class Latency:
    """Percentiles of one series of reads, in milliseconds."""

    reads: int
    p50_ms: float
    p99_ms: float


def build_turn(db: Path) -> tuple[str, str]:
    """Create the 100-message turn on ``db``; ``(conversation, turn)``."""
    runtime = Runtime(db, model=_Chatty(), world=_Peek())
    try:
        conversation = runtime.create_conversation(
            Workflow(tools=(ToolSpec("peek", read_only=True),))
        )
        turn = runtime.start_turn(conversation, "Look around, please.")
        runtime.answer(turn, "Yes, go on.")
        messages = runtime.turn_view(turn, conversation)["messages"]
        built = len(messages) if isinstance(messages, list) else 0
        if built != MESSAGES:
            raise RuntimeError(f"built a turn of {built} messages, not {MESSAGES}")
    finally:
        runtime.close()
    return conversation, turn


def _series(read: Callable[[], object], reads: int, warmup: int) -> Latency:
    for _ in range(warmup):
        read()
    samples = []
    for _ in range(reads):
        started = time.perf_counter()
        read()
        samples.append((time.perf_counter() - started) * 1000)
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return Latency(reads, statistics.median(samples), cuts[98])


def read_in_process(db: Path, conversation: str, turn: str, reads: int = 1000) -> Latency:
    """``Runtime.turn_view`` latency."""
    runtime = Runtime(db, model=_Chatty(), world=_Peek())
    try:
        return _series(lambda: runtime.turn_view(turn, conversation), reads, warmup=50)
    finally:
        runtime.close()


def read_over_http(
    db: Path, conversation: str, turn: str, *, log_dir: Path, reads: int = 1000
) -> Latency:
    """``GET .../turns/{turn}`` latency against a real server on a loopback port."""
    with spawn_server(db, log_dir=log_dir) as server, httpx.Client(base_url=server.url) as http:
        path = f"/api/conversations/{conversation}/turns/{turn}"

        def read() -> object:
            response = http.get(path)
            response.raise_for_status()
            return response.content

        return _series(read, reads, warmup=50)
