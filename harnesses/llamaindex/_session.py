"""One scenario on LlamaIndex: each step drives a ``FunctionAgent``, and each record
says what the agent did, read from the events its workflow streamed and from its memory.

A conversation is a LlamaIndex ``Memory`` session, stored by its SQL chat store in a
SQLite file; a turn is one ``agent.run(user_msg=..., memory=...)`` on a fresh workflow
``Context``, and a run is a stretch of that workflow up to the point it comes to rest:
it stopped, or it is idle, waiting for a human response.  A paused turn's workflow stays
alive and is resumed by the response.  A restart serialises each paused workflow's
context (``Context.to_dict``), cancels it, and restores it on a new agent from the
serialised form, with the conversation's memory opened again from its SQLite file.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
import warnings
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.memory import Memory
from llama_index.core.workflow import Context, JsonSerializer
from pydantic.warnings import PydanticDeprecationWarning
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from adapters.kit import Cause, Run, Script, Session, StepRecord, WireTurn
from adapters.scenario import Answer, Approve, Decline, Restart, Scenario, StartTurn, Step, Wait
from harnesses.llamaindex._live import LiveRun, Observed
from harnesses.llamaindex._model import Recorder, scripted_llm
from harnesses.llamaindex._tools import Bodies, UserResponse, ask_tool, scenario_tool
from harnesses.llamaindex._wire import pending_of, row_of

__all__ = ["TOKEN_LIMIT", "LlamaIndexSession"]

#: The memory's token budget: a large-context model's.  LlamaIndex's default (30,000)
#: would flush a conversation with a large tool output out of what the model is given.
TOKEN_LIMIT = 1_000_000
_T = TypeVar("_T")


@contextmanager
def _quiet() -> Iterator[None]:
    """LlamaIndex warns that a context's memory is not serialised with it (the memory is
    its own store, opened again after a restore), and reads pydantic attributes that
    pydantic has deprecated; the warnings are for the developer."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Skipping serialization of known")
        warnings.filterwarnings("ignore", category=PydanticDeprecationWarning)
        yield


@dataclass
class _Turn:
    conversation: str
    live: LiveRun | None = None
    seen: Observed = field(default_factory=Observed)
    status: str = "running"
    rows: list[int] = field(default_factory=list)  # indexes in the conversation's memory


class LlamaIndexSession(Session):
    """The agent, its memories and paused workflows, and what the harness saw."""

    def __init__(self, scenario: Scenario, directory: Path) -> None:
        super().__init__(scenario)
        self.script = Script(scenario)
        self.recorder = Recorder()
        self.bodies = Bodies()
        self.directory = directory
        self.turns: dict[str, _Turn] = {}
        self.order: dict[str, list[str]] = {}  # conversation -> its turns, oldest first
        self.memories: dict[str, Memory] = {}
        self.stored: dict[str, int] = {}  # conversation -> messages attributed to turns
        self._run_ids = itertools.count(1)
        with _quiet():
            self._open()
        self.loop = asyncio.new_event_loop()

    def _call(self, work: Coroutine[Any, Any, _T]) -> _T:
        with _quiet():
            return self.loop.run_until_complete(work)

    def _open(self) -> None:
        tools = [scenario_tool(t, self.script, self.bodies) for t in self.script.tools]
        self.agent = FunctionAgent(
            name="agent",
            tools=[*tools, ask_tool()],
            llm=scripted_llm(self.script, self.recorder),
        )
        self.engine: AsyncEngine = create_async_engine(
            f"sqlite+aiosqlite:///{self.directory / 'memory.db'}"
        )
        self.memories = {}

    def _memory(self, conversation: str) -> Memory:
        if conversation not in self.memories:
            self.memories[conversation] = Memory.from_defaults(
                session_id=conversation, token_limit=TOKEN_LIMIT, async_engine=self.engine
            )
        return self.memories[conversation]

    def close(self) -> None:
        self._call(self._release())
        self.loop.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    async def _release(self) -> None:
        for turn in self.turns.values():
            if turn.live is not None:
                await turn.live.handler.cancel_run()
                await turn.live.task
                turn.live = None
        await self.engine.dispose()

    # ---------------------------------------------------------------- steps

    def step(self, index: int, step: Step) -> StepRecord:
        record = StepRecord(index, step.op)
        match step:
            case StartTurn(turn=label) if label in self.turns:
                record.refused("turn_exists", f"turn {label} was already started")
            case StartTurn(turn=label, conversation=conversation, message=text):
                self.turns[label] = _Turn(conversation)
                self.order.setdefault(conversation, []).append(label)
                self._start(record, label, text)
            case Answer(turn=label, value=value):
                self._respond(record, label, "answer", "question", approved=True, value=value)
            case Approve(turn=label):
                self._respond(record, label, "approve", "gate", approved=True, value="yes")
            case Decline(turn=label, reason=reason):
                self._respond(record, label, "decline", "gate", approved=False, value=reason)
            case Wait():
                pass  # LlamaIndex does nothing on its own
            case Restart():
                self._call(self._restart())
            case _:
                record.refused("not_supported", f"LlamaIndex has no {step.op}")
        self._report_wire(record)
        return record

    def _start(self, record: StepRecord, label: str, text: str) -> None:
        turn = self.turns[label]
        memory = self._memory(turn.conversation)

        async def begin() -> LiveRun:
            handler = self.agent.run(user_msg=text, ctx=Context(self.agent), memory=memory)
            return LiveRun(handler)

        turn.live = self._call(begin())
        self._drive(record, label, "start")

    def _respond(
        self, record: StepRecord, label: str, cause: Cause, kind: str, *, approved: bool, value: str
    ) -> None:
        """Answer the first wait of ``kind`` the turn is paused on, in batch order."""
        turn = self.turns.get(label)
        waits = [] if turn is None or turn.live is None else turn.seen.waits
        wait = next((w for w in waits if w.kind == kind), None)
        if turn is None or turn.live is None or wait is None:
            record.refused("not_paused", f"turn {label} is not waiting for a {kind}")
            return
        if not approved:
            turn.seen.declined.add(wait.key)
        response = UserResponse(
            response=value, key=wait.key, approved=approved, reason=None if approved else value
        )
        self._drive(record, label, cause, response)

    def _drive(
        self, record: StepRecord, label: str, cause: Cause, response: UserResponse | None = None
    ) -> None:
        """Drive the turn's workflow until it comes to rest (after sending it the user's
        response, when there is one), as one run."""
        turn = self.turns[label]
        live = turn.live
        assert live is not None
        run = record.add_run(
            Run(
                f"run-{next(self._run_ids)}",
                turn=label,
                conversation=turn.conversation,
                cause=cause,
            )
        )
        self.recorder.run = run
        tools = {tool.name for tool in self.scenario.tools}

        async def resume() -> str:
            if response is not None:
                live.handler.ctx.send_event(response)
            return await live.drive(run, turn.seen, self.recorder, self.bodies, tools)

        try:
            end = self._call(resume())
        finally:
            self.recorder.run = None
        if end == "paused":
            turn.status = "paused"
            run.ended("paused")
        else:
            turn.live, turn.seen.waits = None, []
            turn.status = "completed" if end == "completed" else "failed"
            if end != "completed":
                run.ended("failed")
                record.failed("agent_error", end.removeprefix("failed: ")[:500])
        self._attribute(label)

    def _attribute(self, label: str) -> None:
        """The messages the run added to its conversation's memory are its turn's."""
        turn = self.turns[label]
        messages = self._call(self._memory(turn.conversation).aget_all())
        known = self.stored.get(turn.conversation, 0)
        turn.rows.extend(range(known, len(messages)))
        self.stored[turn.conversation] = len(messages)

    # ---------------------------------------------------------------- restart

    async def _restart(self) -> None:
        """A new process: every paused workflow serialised and cancelled, then a new
        agent, the memories opened again, and each workflow restored and resumed."""
        snapshots: dict[str, dict[str, Any]] = {}
        for label, turn in self.turns.items():
            if turn.live is not None:
                data = turn.live.handler.ctx.to_dict(serializer=JsonSerializer())
                snapshots[label] = json.loads(json.dumps(data))
                await turn.live.handler.cancel_run()
                await turn.live.task
                turn.live = None
        await self.engine.dispose()
        with _quiet():
            self._open()
        for label, data in snapshots.items():
            turn = self.turns[label]
            ctx: Context[Any] = Context.from_dict(self.agent, data, serializer=JsonSerializer())
            turn.live = LiveRun(self.agent.run(ctx=ctx))
            # The memory is not part of the serialised context: it is set again.
            await turn.live.handler.ctx.store.set("memory", self._memory(turn.conversation))
            replay = Run("restore", turn=label, conversation=turn.conversation, cause="start")
            tools = {tool.name for tool in self.scenario.tools}
            end = await turn.live.drive(replay, turn.seen, self.recorder, self.bodies, tools)
            if end != "paused":
                turn.live, turn.status = None, "failed"

    # ---------------------------------------------------------------- the wire

    def _report_wire(self, record: StepRecord) -> None:
        for conversation, labels in self.order.items():
            messages = self._call(self._memory(conversation).aget_all())
            for label in labels:
                turn = self.turns[label]
                rows = [
                    row_of(messages[i], conversation, i) for i in turn.rows if i < len(messages)
                ]
                record.wire(
                    conversation,
                    label,
                    WireTurn(
                        turn.status,
                        id=label,
                        messages=rows,
                        pending=pending_of(turn.seen.waits) if turn.live is not None else None,
                        tool_artifacts=None,  # LlamaIndex keeps no turn result
                    ),
                )
