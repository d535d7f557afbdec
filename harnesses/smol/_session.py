"""One scenario on smolagents: each step drives a ``ToolCallingAgent``, and each record
says what the agent did, read from the events it yielded and from its memory.

A conversation is one agent: its memory is the conversation, and each turn is one
``agent.run(message, reset=False)`` on it.  A run of the protocol is that run up to where
it comes to rest: it ends, or it stands on a question in ``user_input`` (the turn is then
paused), and the ``answer`` step goes on with the same smolagents run, as a new run of the
protocol (cause ``answer``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from smolagents import LogLevel, ToolCallingAgent

from adapters.kit import Cause, Run, Script, Session, StepRecord, WireTurn
from adapters.scenario import Answer, Scenario, StartTurn, Step, Wait
from harnesses.smol._model import ScriptedModel
from harnesses.smol._observer import Observer
from harnesses.smol._tools import QuestionTool, ScenarioTool
from harnesses.smol._turns import Asked, Conversation, Ended, Human, Rest
from harnesses.smol._wire import row_of

__all__ = ["SmolSession"]


@dataclass
class _Turn:
    conversation: str
    first: int  # where the turn's TaskStep sits in the agent's memory
    status: str = "running"
    question: str | None = None


class SmolSession(Session):
    """The agents (one per conversation), and what the harness saw of their runs."""

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self.script = Script(scenario)
        self.observer = Observer(frozenset(tool.name for tool in scenario.tools))
        self.model = ScriptedModel(self.script, self.observer)
        self.conversations: dict[str, Conversation] = {}
        self.turns: dict[str, _Turn] = {}
        self.order: dict[str, list[str]] = {}  # conversation -> its turns, oldest first
        self._run_ids = itertools.count(1)

    def _agent(self, human: Human) -> Any:
        tools = [ScenarioTool(spec, self.script, self.observer) for spec in self.script.tools]
        return ToolCallingAgent(
            tools=[*tools, QuestionTool(human)],
            model=self.model,
            verbosity_level=LogLevel.OFF,
            # One tool thread: a batch's calls run one after another, in the order
            # smolagents keeps them, so that traces are the same from run to run.
            max_tool_threads=1,
        )

    def close(self) -> None:
        for conversation in self.conversations.values():
            conversation.close()

    # ---------------------------------------------------------------- steps

    def step(self, index: int, step: Step) -> StepRecord:
        record = StepRecord(index, step.op)
        match step:
            case StartTurn(turn=label) if label in self.turns:
                record.refused("turn_exists", f"turn {label} was already started")
            case StartTurn(turn=label, conversation=name, message=text):
                self._start(record, label, name, text)
            case Answer(turn=label, value=value):
                self._answer(record, label, value)
            case Wait():
                pass  # smolagents does nothing on its own
            case _:
                record.refused("not_supported", f"smolagents has no {step.op}")
        self._report_wire(record)
        return record

    def _start(self, record: StepRecord, label: str, name: str, text: str) -> None:
        conversation = self.conversations.get(name)
        if conversation is None:
            conversation = Conversation(self._agent, self.observer.event)
            self.conversations[name] = conversation
        if conversation.asked is not None:  # one agent runs one run at a time
            waiting = self.order[name][-1]
            record.refused("busy", f"the agent is still running turn {waiting}, on a question")
            return
        self.turns[label] = _Turn(name, len(conversation.agent.memory.steps))
        self.order.setdefault(name, []).append(label)
        run = self._run(record, label, "start")
        self._settle(record, run, label, conversation.start(text))

    def _answer(self, record: StepRecord, label: str, value: str) -> None:
        turn = self.turns.get(label)
        if turn is None or turn.status != "paused":
            record.refused("not_paused", f"turn {label} is not waiting for an answer")
            return
        run = self._run(record, label, "answer")
        self._settle(record, run, label, self.conversations[turn.conversation].answer(value))

    def _run(self, record: StepRecord, label: str, cause: Cause) -> Run:
        turn = self.turns[label]
        run_id = f"run-{next(self._run_ids)}"
        run = record.add_run(Run(run_id, turn=label, conversation=turn.conversation, cause=cause))
        turn.status, turn.question = "running", None
        self.observer.begin(run, turn.conversation)
        return run

    def _settle(self, record: StepRecord, run: Run, label: str, rest: Rest) -> None:
        turn = self.turns[label]
        if isinstance(rest, Asked):
            self.observer.paused()
            run.ended("paused")
            turn.status, turn.question = "paused", rest.question
        elif isinstance(rest, Ended) and rest.error is not None:
            run.ended("failed")
            turn.status = "failed"
            error = rest.error
            record.failed("agent_error", f"{type(error).__name__}: {error}"[:500])
        else:
            turn.status = "completed"
        self.observer.begin(None)

    # ---------------------------------------------------------------- the wire

    def _report_wire(self, record: StepRecord) -> None:
        for name, labels in self.order.items():
            steps = list(self.conversations[name].agent.memory.steps)
            for position, label in enumerate(labels):
                turn = self.turns[label]
                end = (
                    self.turns[labels[position + 1]].first
                    if position + 1 < len(labels)
                    else len(steps)
                )
                rows = [row_of(name, at, steps[at]) for at in range(turn.first, end)]
                pending = {"question": turn.question} if turn.question is not None else None
                record.wire(
                    name,
                    label,
                    WireTurn(
                        turn.status,
                        id=label,
                        messages=rows,
                        pending=pending,
                        tool_artifacts=None,  # smolagents keeps no turn result
                    ),
                )
