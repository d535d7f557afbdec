"""One scenario on AutoGen AgentChat: each step runs a team, and each record says what
the agent did, read from the events AutoGen streamed and the state it saved.

A conversation is a ``RoundRobinGroupChat`` of one ``AssistantAgent``, the way AutoGen's
human-in-the-loop guide sets a team up to stop for the user: ``max_turns=1`` (each run
is one response of the agent) and ``HandoffTermination`` on the agent's handoff to the
user.  A turn is a user message and everything after it in the team's message thread; a
run is one ``Team.run_stream``.  A turn is paused while its last message is the agent's
handoff to the user, and the user's answer is the next run's task, a ``HandoffMessage``
back to the agent.  After every run the team's state (``Team.save_state``: the agent's
model context and the message thread) is stored as JSON, and a restart is a new team
that loads it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.base import Handoff
from autogen_agentchat.conditions import HandoffTermination
from autogen_agentchat.messages import (
    BaseChatMessage,
    HandoffMessage,
    ToolCallExecutionEvent,
    ToolCallRequestEvent,
)
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core import FunctionCall

from adapters.files import write_file
from adapters.kit import Cause, Disposition, Pass, Run, Script, Session, StepRecord, WireTurn
from adapters.scenario import Answer, Restart, Scenario, StartTurn, Step, Wait
from harnesses.autogen._model import Played, Recorder, ScriptedClient
from harnesses.autogen._tools import ToolArtifactEvent, build_tools
from harnesses.autogen._wire import (
    USER,
    pending_of,
    result_of,
    row_of,
    thread_of,
    tool_message,
    waiting_handoff,
)

__all__ = ["AGENT", "EXPOSED", "MAX_TOOL_ITERATIONS", "AutoGenSession"]

AGENT = "agent"
#: A tool step's output is two kinds of event in the agent's stream: the execution event
#: (every call's result) and the events the tools streamed; the application reads both.
EXPOSED = {"tool_call_execution": True, "tool_events": True}
#: ``AssistantAgent``'s bound on model calls that answer with tool calls in one response
#: (its default, 1, ends the response after one tool pass without calling the model
#: again).  No scenario needs more than a few.
MAX_TOOL_ITERATIONS = 20
#: What a run is given: the user's message, or the answer handed back to the agent.
Task = str | BaseChatMessage


@dataclass
class _Turn:
    conversation: str
    first: int  # where the turn's first message sits in the conversation's thread
    failed: bool = False


@dataclass
class _Step:
    """A tool step under way: the reply that made it, its calls, the events it streamed."""

    played: Played
    calls: Sequence[FunctionCall]
    events: list[ToolArtifactEvent] = field(default_factory=list)


class AutoGenSession(Session):
    """The teams, their stored states, and what the harness saw of the runs."""

    def __init__(self, scenario: Scenario, directory: Path) -> None:
        super().__init__(scenario)
        self.script = Script(scenario)
        self.recorder = Recorder()
        build_tools(self.script, self.recorder)  # refuses a tool AutoGen cannot declare
        self.directory = directory
        self.loop = asyncio.new_event_loop()
        self.teams: dict[str, RoundRobinGroupChat] = {}
        self.files: dict[str, Path] = {}  # conversation -> where its team's state is stored
        self.turns: dict[str, _Turn] = {}
        self.order: dict[str, list[str]] = {}  # conversation -> its turns, oldest first
        self._run_ids = itertools.count(1)
        self._names = {tool.name for tool in scenario.tools}

    def close(self) -> None:
        self.loop.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    # ---------------------------------------------------------------- the teams

    async def _team(self, conversation: str) -> RoundRobinGroupChat:
        team = self.teams.get(conversation)
        if team is None:
            agent = AssistantAgent(
                AGENT,
                ScriptedClient(self.script, self.recorder),
                tools=[*build_tools(self.script, self.recorder)],
                handoffs=[Handoff(target=USER)],
                max_tool_iterations=MAX_TOOL_ITERATIONS,
            )
            team = RoundRobinGroupChat(
                [agent],
                termination_condition=HandoffTermination(target=USER),
                max_turns=1,
                custom_message_types=[ToolArtifactEvent],
            )
            stored = self.files.get(conversation)
            if stored is not None:  # a restarted process: the state the last run saved
                await team.load_state(json.loads(stored.read_text()))
            self.teams[conversation] = team
        return team

    def _thread(self, conversation: str) -> list[dict[str, Any]]:
        stored = self.files.get(conversation)
        return thread_of(json.loads(stored.read_text())) if stored is not None else []

    async def _save(self, conversation: str, team: RoundRobinGroupChat) -> None:
        path = self.files.setdefault(conversation, self.directory / f"team-{len(self.files)}.json")
        write_file(path.parent, path.name, json.dumps(await team.save_state()).encode("utf-8"))

    # ---------------------------------------------------------------- steps

    def step(self, index: int, step: Step) -> StepRecord:
        record = StepRecord(index, step.op)
        match step:
            case StartTurn(turn=label) if label in self.turns:
                record.refused("turn_exists", f"turn {label} was already started")
            case StartTurn(turn=label, conversation=conversation, message=text):
                self.turns[label] = _Turn(conversation, len(self._thread(conversation)))
                self.order.setdefault(conversation, []).append(label)
                self._run(record, label, "start", text)
            case Answer(turn=label, value=value):
                if label in self.turns and self._waiting(label):
                    answer = HandoffMessage(source=USER, target=AGENT, content=value)
                    self._run(record, label, "answer", answer)
                else:
                    record.refused("not_paused", f"turn {label} is not waiting for the user")
            case Wait():
                pass  # AutoGen does nothing on its own
            case Restart():  # a new process: each team is rebuilt from its stored state
                self.teams.clear()
            case _:
                record.refused("not_supported", f"AutoGen has no {step.op}")
        self._report_wire(record)
        return record

    def _rows(self, label: str) -> list[dict[str, Any]]:
        """The thread entries of one turn, from its first message to the next turn's."""
        turn = self.turns[label]
        labels = self.order[turn.conversation]
        position = labels.index(label)
        thread = self._thread(turn.conversation)
        end = self.turns[labels[position + 1]].first if position + 1 < len(labels) else None
        return thread[turn.first : end]

    def _waiting(self, label: str) -> bool:
        """A turn waits for the user while it is its conversation's newest and its last
        message is the agent's handoff to the user: AutoGen keeps no other open request."""
        turn = self.turns[label]
        newest = self.order[turn.conversation][-1] == label
        return newest and not turn.failed and waiting_handoff(self._rows(label))

    def _run(self, record: StepRecord, label: str, cause: Cause, task: Task) -> None:
        turn = self.turns[label]
        run_id = f"run-{next(self._run_ids)}"
        run = record.add_run(Run(run_id, turn=label, conversation=turn.conversation, cause=cause))
        self.recorder.start(run)
        try:
            self.loop.run_until_complete(self._drive(run, turn.conversation, task))
            turn.failed = False
        except Exception as err:  # the run failed: reported as AutoGen reported it
            turn.failed = True
            run.ended("failed")
            record.failed("agent_error", f"{type(err).__name__}: {err}"[:500])
        finally:
            self.recorder.start(None)
        if not turn.failed and self._waiting(label):
            run.ended("paused")

    async def _drive(self, run: Run, conversation: str, task: Task) -> None:
        """One run of the conversation's team; each tool step is reported as it comes."""
        team = await self._team(conversation)
        under_way: _Step | None = None
        try:
            async for item in team.run_stream(task=task):
                if isinstance(item, ToolCallRequestEvent):
                    under_way = _Step(self.recorder.played.popleft(), item.content)
                elif isinstance(item, ToolArtifactEvent) and under_way is not None:
                    under_way.events.append(item)
                elif isinstance(item, ToolCallExecutionEvent) and under_way is not None:
                    self._pass(run, under_way, item)
                    under_way = None
        finally:
            await self._save(conversation, team)

    # ---------------------------------------------------------------- passes

    def _pass(self, run: Run, under_way: _Step, done: ToolCallExecutionEvent) -> None:
        """One tool step, for the batch of the reply that made it.  A reply that only
        asked the user ran the handoff alone: that is AutoGen's pause, not a pass."""
        played = under_way.played
        if played.batch is None:
            return
        one = run.add_pass(Pass(played.batch, exposed=EXPOSED))
        arguments = {call.id: call.arguments for call in under_way.calls}
        for result in done.content:
            if result.call_id == played.handoff:
                continue
            disposition: Disposition = "unknown_tool"
            artifacts: list[object] = []
            extra: dict[str, Any] = {}
            dispatched = self.recorder.take(result.call_id) if result.name in self._names else None
            if dispatched is not None and dispatched.ran:
                disposition = "executed"
                artifacts = [
                    event.content
                    for event in under_way.events
                    if event.invocation == dispatched.serial
                ]
            elif dispatched is not None:  # AutoGen refused the arguments; none reconciled
                disposition = "invalid"
                extra["arguments"] = json.loads(arguments.get(result.call_id, "{}"))
            one.result(
                result.name,
                result.call_id,
                disposition,
                result_of(result, artifacts),
                generated_id=result.call_id in self.recorder.generated,
                **extra,
            )
            one.tool_message(tool_message(result))
        one.port("tool_call_execution", [result.model_dump(mode="json") for result in done.content])
        streamed = [_dumped(event) for event in under_way.events]
        one.port("tool_events", streamed).outcome(None)  # AutoGen counts no outcome

    # ---------------------------------------------------------------- the wire

    def _report_wire(self, record: StepRecord) -> None:
        for conversation, labels in self.order.items():
            for label in labels:
                turn = self.turns[label]
                rows = self._rows(label)
                waiting = self._waiting(label)
                status = "paused" if waiting else "failed" if turn.failed else "completed"
                record.wire(
                    conversation,
                    label,
                    WireTurn(
                        status,
                        id=label,
                        messages=[
                            row_of(entry, conversation, turn.first + offset)
                            for offset, entry in enumerate(rows)
                        ],
                        pending=pending_of(rows) if waiting else None,
                        tool_artifacts=None,  # AutoGen keeps no turn result to aggregate them on
                    ),
                )


def _dumped(event: ToolArtifactEvent) -> dict[str, Any]:
    """An event as AutoGen dumps it, without its random id and its clock time."""
    return event.model_dump(mode="json", exclude={"id", "created_at"})
