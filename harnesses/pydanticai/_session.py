"""One scenario on PydanticAI: each step runs the agent, and each record says what the
agent did, read from the message history PydanticAI returned.

A conversation is a message history, kept as PydanticAI serialises it (JSON, which is
how an application stores it between runs); a turn is a user prompt and everything
after it; a run is one ``Agent.run``.  A run that ends in ``DeferredToolRequests`` has
paused: the turn waits for those calls (an approval, or the answer to a question), and
the next run is given the results with ``deferred_tool_results``.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import Any

from pydantic_ai import DeferredToolRequests, DeferredToolResults, ToolDenied
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelResponse,
    TextPart,
    UserPromptPart,
)

from adapters.kit import Cause, Disposition, Pass, Run, Script, Session, StepRecord, WireTurn
from adapters.scenario import Answer, Approve, Decline, Restart, Scenario, StartTurn, Step, Wait
from harnesses.pydanticai._agent import ASK, Recorder, build_agent

__all__ = ["EXPOSED", "PydanticAiSession"]

#: A tool pass's only output is the return parts of the next model request, and the whole
#: message history is the application's to read.
EXPOSED = {"parts": True}


@dataclass
class _Turn:
    conversation: str
    first: int  # where the turn's user prompt sits in the conversation's history
    failed: bool = False


class PydanticAiSession(Session):
    """The agent, the stored histories, and what the harness saw of the runs."""

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self.script = Script(scenario)
        self.recorder = Recorder()
        self.agent = build_agent(self.script, self.recorder)
        self.histories: dict[str, bytes] = {}  # conversation -> its stored history
        self.pending: dict[str, DeferredToolRequests | None] = {}
        self.turns: dict[str, _Turn] = {}
        self.order: dict[str, list[str]] = {}
        self._run_ids = itertools.count(1)

    def _history(self, conversation: str) -> list[ModelMessage]:
        stored = self.histories.get(conversation)
        return ModelMessagesTypeAdapter.validate_json(stored) if stored else []

    # ---------------------------------------------------------------- steps

    def step(self, index: int, step: Step) -> StepRecord:
        record = StepRecord(index, step.op)
        match step:
            case StartTurn(turn=label) if label in self.turns:
                record.refused("turn_exists", f"turn {label} was already started")
            case StartTurn(turn=label, conversation=conversation, message=text):
                first = len(self._history(conversation))
                self.turns[label] = _Turn(conversation, first)
                self.order.setdefault(conversation, []).append(label)
                self._run(record, label, "start", text, None)
            case Answer(turn=label, value=value):
                self._resume(record, label, "answer", lambda asked: _answers(asked, value))
            case Approve(turn=label):
                self._resume(record, label, "approve", lambda asked: _decisions(asked, True))
            case Decline(turn=label, reason=reason):
                decision = ToolDenied(reason)
                self._resume(record, label, "decline", lambda asked: _decisions(asked, decision))
            case Wait():
                pass  # PydanticAI does nothing on its own
            case Restart():  # a new process: a new agent, the stored histories
                self.agent = build_agent(self.script, self.recorder)
            case _:
                record.refused("not_supported", f"PydanticAI has no {step.op}")
        self._report_wire(record)
        return record

    def _resume(self, record: StepRecord, label: str, cause: Cause, results: Any) -> None:
        turn = self.turns.get(label)
        asked = None if turn is None else self.pending.get(turn.conversation)
        answered = None if asked is None else results(asked)
        if turn is None or self.order[turn.conversation][-1] != label or answered is None:
            record.refused("not_paused", f"turn {label} is not paused for an {cause}")
            return
        self._run(record, label, cause, None, answered)

    def _run(
        self,
        record: StepRecord,
        label: str,
        cause: Cause,
        prompt: str | None,
        results: DeferredToolResults | None,
    ) -> None:
        turn = self.turns[label]
        run_id = f"run-{next(self._run_ids)}"
        run = record.add_run(Run(run_id, turn=label, conversation=turn.conversation, cause=cause))
        self.recorder.run, self.recorder.ran = run, []
        history = self._history(turn.conversation)
        try:
            result = asyncio.run(
                self.agent.run(prompt, message_history=history, deferred_tool_results=results)
            )
        except Exception as err:  # the run failed: reported as PydanticAI reported it
            turn.failed = True
            record.run_failed(run, "agent_error", err)
            return
        finally:
            self.recorder.run = None
        turn.failed = False
        messages = result.all_messages()
        self.histories[turn.conversation] = ModelMessagesTypeAdapter.dump_json(messages)
        asked = result.output if isinstance(result.output, DeferredToolRequests) else None
        self.pending[turn.conversation] = asked
        self._passes(run, messages, len(history), turn.conversation, paused=asked is not None)
        if asked is not None:
            run.ended("paused")

    def _passes(
        self, run: Run, messages: list[ModelMessage], start: int, conversation: str, *, paused: bool
    ) -> None:
        """Every tool pass whose results this run added to the history."""
        owner: ModelResponse | None = None
        found: list[Pass] = []
        for position, message in enumerate(messages):
            if isinstance(message, ModelResponse):
                key = message.provider_response_id or ""
                owner = message if key in self.recorder.batches else None
                continue
            returns: list[Any] = [part for part in message.parts if _is_return(part)]
            if position < start or owner is None or not returns:
                continue
            batch = self.recorder.batches[owner.provider_response_id or ""]
            one = run.add_pass(Pass(batch, exposed=EXPOSED))
            # PydanticAI gives a call the model sent without an id one of its own.
            sent = {c.get("tool_call_id") for c in batch if isinstance(c, dict)}
            for part in returns:
                call_id = part.tool_call_id
                one.result(
                    part.tool_name,
                    call_id,
                    self._disposition(part),
                    _result(part),
                    generated_id=call_id not in sent,
                )
                content = part.model_response_str()  # what a provider is sent for it
                one.tool_message({"role": "tool", "tool_call_id": call_id, "content": content})
            one.port("parts", _parts(message)).outcome(None)  # no outcome is reported
            found.append(one)
        if paused and found:
            found[-1].mark_paused()

    def _disposition(self, part: Any) -> Disposition:
        if part.tool_name not in {tool.name for tool in self.scenario.tools}:
            return "unknown_tool"
        if getattr(part, "outcome", None) == "denied":
            return "declined"
        if part.tool_call_id in self.recorder.ran:
            self.recorder.ran.remove(part.tool_call_id)
            return "executed"
        return "invalid"  # PydanticAI refused the arguments before the body ran

    # ---------------------------------------------------------------- the wire

    def _report_wire(self, record: StepRecord) -> None:
        for conversation, labels in self.order.items():
            messages = self._history(conversation)
            asked = self.pending.get(conversation)
            for position, label in enumerate(labels):
                turn = self.turns[label]
                end = (
                    self.turns[labels[position + 1]].first
                    if position + 1 < len(labels)
                    else len(messages)
                )
                rows = [
                    _row(message, conversation, turn.first + offset)
                    for offset, message in enumerate(messages[turn.first : end])
                ]
                waiting = asked if position == len(labels) - 1 else None
                status = "failed" if turn.failed else "completed"
                record.wire(
                    conversation,
                    label,
                    WireTurn(
                        "paused" if waiting is not None else status,
                        id=label,
                        messages=rows,
                        pending=_waiting(waiting) if waiting is not None else None,
                        tool_artifacts=None,  # PydanticAI has no turn result to aggregate them
                    ),
                )


def _is_return(part: Any) -> bool:
    return getattr(part, "part_kind", None) in ("tool-return", "retry-prompt") and getattr(
        part, "tool_name", None
    ) not in (None, ASK)


def _result(part: Any) -> dict[str, Any]:
    success = getattr(part, "outcome", "success") == "success" and part.part_kind == "tool-return"
    result: dict[str, Any] = {
        "success": success,
        "data": part.content if success else None,
        "error": None if success else part.model_response_str(),
    }
    metadata = getattr(part, "metadata", None)
    if success and metadata is not None:
        result["artifacts"] = metadata
    return result


def _parts(message: ModelMessage) -> list[Any]:
    dumped: list[Any] = ModelMessagesTypeAdapter.dump_python([message], mode="json")[0]["parts"]
    return dumped


def _row(message: ModelMessage, conversation: str, index: int) -> dict[str, Any]:
    if isinstance(message, ModelResponse):
        role = "assistant"
    else:
        role = "user" if any(isinstance(p, UserPromptPart) for p in message.parts) else "tool"
    text = [
        part.content
        for part in message.parts
        if isinstance(part, TextPart | UserPromptPart) and isinstance(part.content, str)
    ]
    return {
        "id": f"{conversation}-{index}",
        "sessionId": conversation,
        "role": role,
        "content": "\n".join(text),
        "parts": _parts(message),
    }


def _waiting(asked: DeferredToolRequests) -> dict[str, Any]:
    def calls(parts: list[Any]) -> list[dict[str, Any]]:
        return [
            {"tool": part.tool_name, "tool_call_id": part.tool_call_id, "args": part.args_as_dict()}
            for part in parts
        ]

    return {"calls": calls(asked.calls), "approvals": calls(asked.approvals)}


def _answers(asked: DeferredToolRequests, value: str) -> DeferredToolResults | None:
    questions = [part.tool_call_id for part in asked.calls if part.tool_name == ASK]
    return DeferredToolResults(calls=dict.fromkeys(questions, value)) if questions else None


def _decisions(asked: DeferredToolRequests, decision: Any) -> DeferredToolResults | None:
    gated = [part.tool_call_id for part in asked.approvals]
    return DeferredToolResults(approvals=dict.fromkeys(gated, decision)) if gated else None
