"""One scenario on LangGraph: each step drives the compiled graph, and each record says
what the graph did, read from LangGraph's own stream and checkpointed state.

A conversation is a LangGraph thread; a turn is a user message and everything after it
in that thread; a run is one ``stream()`` of the graph (the first, or a resume with
``Command(resume=...)``).  A turn is paused while its thread has a pending interrupt,
and the interrupt's value is what it waits for.
"""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from adapters.kit import Cause, Disposition, Pass, Run, Script, Session, StepRecord, WireTurn
from adapters.scenario import Answer, Approve, Decline, Restart, Scenario, StartTurn, Step, Wait
from harnesses.langgraph._graph import Recorder, build_graph
from harnesses.langgraph._wire import model_message, result_of, row_of

__all__ = ["EXPOSED", "LangGraphSession"]

#: The ToolNode's one output is its state update on the ``messages`` channel, and every
#: channel of the state is visible to whoever reads it.
EXPOSED = {"messages": True}


@dataclass
class _Turn:
    conversation: str
    first: str  # the id of the user message that started it
    failed: bool = False


class LangGraphSession(Session):
    """The graph, its SQLite checkpoints, and what the harness saw of them."""

    def __init__(self, scenario: Scenario, database: Path) -> None:
        super().__init__(scenario)
        self.script = Script(scenario)
        self.recorder = Recorder()
        self.database = database
        self.turns: dict[str, _Turn] = {}
        self.order: dict[str, list[str]] = {}  # conversation -> its turns, oldest first
        self._run_ids = itertools.count(1)
        self._open()

    def _open(self) -> None:
        self.connection = sqlite3.connect(self.database, check_same_thread=False)
        self.graph = build_graph(self.script, self.recorder, SqliteSaver(self.connection))

    def close(self) -> None:
        self.connection.close()

    # ---------------------------------------------------------------- steps

    def step(self, index: int, step: Step) -> StepRecord:
        record = StepRecord(index, step.op)
        match step:
            case StartTurn(turn=label) if label in self.turns:
                record.refused("turn_exists", f"turn {label} was already started")
            case StartTurn(turn=label, conversation=conversation, message=text):
                self.turns[label] = _Turn(conversation, f"user-{label}")
                self.order.setdefault(conversation, []).append(label)
                message = HumanMessage(content=text, id=f"user-{label}")
                self._run(record, label, "start", {"messages": [message]})
            case Answer(turn=label, value=value):
                self._resume(record, label, "answer", "question", value)
            case Approve(turn=label):
                self._resume(record, label, "approve", "gate", {"approved": True})
            case Decline(turn=label, reason=reason):
                self._resume(
                    record, label, "decline", "gate", {"approved": False, "reason": reason}
                )
            case Wait():
                pass  # LangGraph does nothing on its own
            case Restart():  # a new process would reopen the same SQLite file
                self.connection.close()
                self._open()
            case _:
                record.refused("not_supported", f"LangGraph has no {step.op}")
        self._report_wire(record)
        return record

    def _config(self, conversation: str) -> dict[str, Any]:
        # One call at a time, in the batch's order: LangGraph's default thread pool would
        # make the order of side effects differ from run to run.
        return {"configurable": {"thread_id": conversation}, "max_concurrency": 1}

    def _pending(self, conversation: str) -> list[Any]:
        return list(self.graph.get_state(self._config(conversation)).interrupts)

    def _resume(self, record: StepRecord, label: str, cause: Cause, kind: str, value: Any) -> None:
        turn = self.turns.get(label)
        waiting = [] if turn is None else self._pending(turn.conversation)
        matching = [item for item in waiting if isinstance(item.value, dict) and kind in item.value]
        if turn is None or self.order[turn.conversation][-1] != label or not matching:
            record.refused("not_paused", f"turn {label} is not waiting for a {kind}")
            return
        self._run(record, label, cause, Command(resume={matching[0].id: value}))

    def _run(self, record: StepRecord, label: str, cause: Cause, graph_input: Any) -> None:
        turn = self.turns[label]
        run = record.add_run(
            Run(
                f"run-{next(self._run_ids)}",
                turn=label,
                conversation=turn.conversation,
                cause=cause,
            )
        )
        self.recorder.run = run
        try:
            config = self._config(turn.conversation)
            for update in self.graph.stream(graph_input, config, stream_mode="updates"):
                for node, value in update.items():
                    if node == "tools" and isinstance(value, dict):
                        self._pass(run, turn.conversation, value.get("messages", []))
                    elif node == "__interrupt__" and any(
                        isinstance(item.value, dict) and "gate" in item.value for item in value
                    ):
                        self._pass(run, turn.conversation, [], paused=True)
        except Exception as err:  # the graph failed: reported as LangGraph reported it
            turn.failed = True
            record.run_failed(run, "graph_error", err)
            return
        finally:
            self.recorder.run = None
        turn.failed = False
        if self._pending(turn.conversation):
            run.ended("paused")

    def _pass(
        self, run: Run, conversation: str, emitted: list[Any], *, paused: bool = False
    ) -> None:
        """One ToolNode execution: the batch it answered and the messages it emitted."""
        # Not read from the graph's state: LangGraph runs ahead of the stream's consumer, so
        # a checkpoint read here may be of a later (or an earlier) step.
        batch = self.recorder.batch_of(
            [m.tool_call_id for m in emitted if isinstance(m, ToolMessage)]
        )
        ran, declined = self.recorder.pass_done()
        one = run.add_pass(Pass(batch, exposed=EXPOSED))
        wired = {tool.name for tool in self.scenario.tools}
        for message in emitted:
            if not isinstance(message, ToolMessage):
                continue
            call_id = message.tool_call_id
            disposition: Disposition
            if message.name not in wired:
                disposition = "unknown_tool"
            elif call_id in declined:
                disposition = "declined"
            elif call_id in ran:
                ran.remove(call_id)
                disposition = "executed"
            else:  # the ToolNode refused the call before its body ran
                disposition = "invalid"
            one.result(message.name, call_id, disposition, result_of(message))
            one.tool_message(model_message(message))
        one.port("messages", [row_of(message, conversation) for message in emitted])
        one.outcome(None)  # the ToolNode reports no outcome of its batch
        if paused:
            one.mark_paused()

    # ---------------------------------------------------------------- the wire

    def _report_wire(self, record: StepRecord) -> None:
        for conversation, labels in self.order.items():
            snapshot = self.graph.get_state(self._config(conversation))
            messages = list(snapshot.values.get("messages", []))
            starts = [self._index(messages, self.turns[label].first) for label in labels]
            for position, label in enumerate(labels):
                begin = starts[position]
                end = starts[position + 1] if position + 1 < len(labels) else len(messages)
                rows = [row_of(m, conversation) for m in messages[begin:end]] if begin >= 0 else []
                latest = position == len(labels) - 1
                pending = [item.value for item in snapshot.interrupts] if latest else []
                status = "failed" if self.turns[label].failed else "completed"
                record.wire(
                    conversation,
                    label,
                    WireTurn(
                        "paused" if pending else status,
                        id=label,
                        messages=rows,
                        pending=(pending[0] if len(pending) == 1 else pending) or None,
                        tool_artifacts=None,  # LangGraph has no turn result to aggregate them
                    ),
                )

    @staticmethod
    def _index(messages: list[Any], message_id: str) -> int:
        return next((i for i, m in enumerate(messages) if m.id == message_id), -1)
