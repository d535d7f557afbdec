"""One ``agent.run(...)`` of a turn, kept alive while it waits for the user, and what
the harness reads off its event stream.

A run streams its events (``handler.stream_events(expose_internal=True)``) into a queue
that a pump task fills; each step of the scenario reads the queue until the workflow
comes to rest: it stopped (a ``StopEvent``, or a failure), or it is idle, waiting for a
human response (LlamaIndex's ``WorkflowIdleEvent``).  A paused run stays alive, and the
step that answers it sends the ``HumanResponseEvent`` to the same handler: the waits'
requirements hold only there (a context restored from its serialized form loses them,
and one response then resolves every wait).

A pass is one batch of calls the agent handled: its ``ToolCall`` and ``ToolCallResult``
events, between the model response that made the calls and the next model call.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.agent.workflow import AgentOutput, ToolCall, ToolCallResult
from workflows.events import WorkflowIdleEvent
from workflows.handler import WorkflowHandler

from adapters.kit import Disposition, Pass, Run
from harnesses.llamaindex._model import ASK, Recorder
from harnesses.llamaindex._tools import Bodies, InputRequested, call_key
from harnesses.llamaindex._wire import dumped_result, result_of, tool_message

__all__ = ["EXPOSED", "LiveRun", "Observed", "Wait"]

#: The agent's tool step emits one ``ToolCallResult`` event per call; an application
#: reads them from the event stream.
EXPOSED = {"tool_call_results": True}
_END = object()


@dataclass
class Wait:
    """A wait a tool body announced: a consent gate or a question."""

    kind: str
    key: str
    tool: str
    tool_call_id: str | None
    question: str | None = None


@dataclass
class Observed:
    """What the harness knows of a turn's open batch and its waits, across its runs."""

    batch: list[object] | None = None
    calls: dict[str, tuple[str, object]] = field(default_factory=dict)  # id -> (tool, args)
    answered: set[str] = field(default_factory=set)  # call ids with a result
    waits: list[Wait] = field(default_factory=list)
    declined: set[str] = field(default_factory=set)  # keys the operator declined

    def wait_for(self, event: InputRequested) -> None:
        """A wait a body announced, paired with the first call of its key that has no
        wait and no result yet (a restored workflow announces its waits again)."""
        taken = {wait.tool_call_id for wait in self.waits} | self.answered
        call_id = next(
            (
                cid
                for cid, (name, args) in self.calls.items()
                if cid not in taken
                and call_key(name, _q(args) if name == ASK else args) == event.key
            ),
            None,
        )
        if call_id is None and any(wait.key == event.key for wait in self.waits):
            return
        self.waits.append(Wait(event.kind, event.key, event.tool or ASK, call_id, event.question))


def _q(args: object) -> object:
    return args.get("question", "") if isinstance(args, dict) else ""


class LiveRun:
    """A running (or paused) workflow handler, and the events it streamed."""

    def __init__(self, handler: WorkflowHandler) -> None:
        self.handler = handler
        self.events: asyncio.Queue[Any] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._pump())

    async def _pump(self) -> None:
        try:
            async for event in self.handler.stream_events(expose_internal=True):
                await self.events.put(event)
        except Exception as err:  # the run failed: its handler says how
            await self.events.put(err)
        await self.events.put(_END)

    async def outcome(self) -> str | None:
        """Why the stopped run failed (``None``: it completed)."""
        try:
            await self.handler
        except Exception as err:
            return f"{type(err).__name__}: {err}"
        return None

    async def drive(
        self, run: Run, seen: Observed, recorder: Recorder, bodies: Bodies, tools: set[str]
    ) -> str:
        """Read the stream until the run comes to rest; report its passes on ``run``.
        Returns ``paused``, ``completed`` or ``failed: <why>``."""
        current: Pass | None = None
        port: list[object] = []
        while True:
            event = await self.events.get()
            if isinstance(event, AgentOutput):
                current, port = None, []
                if recorder.batch is not None and event.tool_calls:
                    seen.batch, seen.calls, seen.answered = recorder.batch, {}, set()
                    current = run.add_pass(Pass(seen.batch, exposed=EXPOSED)).outcome(None)
                    current.port("tool_call_results", port)
            elif isinstance(event, ToolCallResult):
                seen.answered.add(event.tool_id)
                seen.waits = [w for w in seen.waits if w.tool_call_id != event.tool_id]
                if event.tool_name == ASK:
                    continue  # the harness's question, not a call of the scenario
                if current is None:  # a run resumed: the batch the paused run handled
                    current = run.add_pass(Pass(seen.batch or [], exposed=EXPOSED)).outcome(None)
                port.append(dumped_result(event))
                current.port("tool_call_results", port)
                self._result(current, run, event, seen, bodies, tools)
            elif isinstance(event, ToolCall):
                seen.calls.setdefault(event.tool_id, (event.tool_name, event.tool_kwargs))
            elif isinstance(event, InputRequested):
                seen.wait_for(event)
            elif isinstance(event, WorkflowIdleEvent) and seen.waits:
                if current is not None and any(w.kind == "gate" for w in seen.waits):
                    current.mark_paused()
                return "paused"
            elif event is _END:
                failure = await self.outcome()
                return "completed" if failure is None else f"failed: {failure}"

    def _result(
        self,
        current: Pass,
        run: Run,
        event: ToolCallResult,
        seen: Observed,
        bodies: Bodies,
        tools: set[str],
    ) -> None:
        """One call's result, with what really happened to it."""
        disposition: Disposition = "invalid"  # LlamaIndex answered without the body
        if event.tool_name not in tools:
            disposition = "unknown_tool"
        elif bodies.take(event.tool_name, event.tool_kwargs) is not None:
            disposition = "executed"
            run.side_effect(event.tool_name, event.tool_kwargs, event.tool_id)
        elif call_key(event.tool_name, event.tool_kwargs) in seen.declined:
            disposition = "declined"
        sent = {c.get("tool_call_id") for c in seen.batch or [] if isinstance(c, dict)}
        current.result(
            event.tool_name,
            event.tool_id,
            disposition,
            result_of(event.tool_output),
            generated_id=event.tool_id not in sent,
        )
        current.tool_message(tool_message(event))
