"""What the harness sees of a smolagents run, turned into the protocol's run and passes.

A ``ToolCallingAgent`` step is one model call and, when the model called tools, one tool
pass: smolagents yields a ``ToolCall`` event for every call of the message, then a
``ToolOutput`` for each call that returned, then the finished ``ActionStep``.  Those events
(read from ``agent.run(stream=True)``), the model's inputs (from the scripted model) and
the tool bodies that ran (from the scenario's tools) are what this observer records, on
the protocol run under way.

Two things smolagents does not say are worked out here, from what it does:

* which call a tool body answers: smolagents hands a body its arguments and no call id.
  With one tool thread the bodies run one after another in the order smolagents keeps
  the calls (a map by call id: a repeated id is one call, the last one's arguments), so a
  body answers the first call not yet answered with its tool's name and its arguments;
* which call failed a step: smolagents stops the step at the first call that raised,
  keeps that one error for the model and discards every other call's output.  The
  failed call is the one whose body raised (the error's cause names it), or else the
  first call that returned nothing and whose body never ran.

The events arrive on the agent's thread; the session reads the observer only while that
thread waits (the run paused on a question, or ended), so nothing is shared at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from smolagents import ActionStep, ToolCall, ToolOutput
from smolagents.agent_types import AgentType
from smolagents.memory import MessageRole
from smolagents.utils import AgentToolCallError, AgentToolExecutionError

from adapters.kit import Disposition, Pass, Run

__all__ = ["EXPOSED", "Observer", "ToolFailed"]

#: What smolagents' tool step gives the application: the ``ToolOutput`` events it yields
#: and the step's observations, the text the model reads.  Both are read by whoever runs
#: the agent.
EXPOSED = {"tool_outputs": True, "observations": True}


class ToolFailed(Exception):  # the tool's own failure, as smolagents reports it
    """A scripted failure, raised by the tool body: smolagents' recoverable tool error."""

    def __init__(self, message: str, call_id: str | None) -> None:
        super().__init__(message)
        self.call_id = call_id


@dataclass
class _Step:
    """One smolagents step, as far as it has got."""

    batch: list[object]  # the reply's raw calls, as the scenario scripted them
    own: frozenset[str]  # the harness's calls in it (a question, a final answer)
    calls: dict[str | None, Any] = field(default_factory=dict)  # smolagents' order
    ran: list[str | None] = field(default_factory=list)  # whose bodies ran
    outputs: dict[str | None, Any] = field(default_factory=dict)
    reported: set[str | None] = field(default_factory=set)  # results in any pass
    one: Pass | None = None  # the pass under way, on the current run
    shown: list[str | None] = field(default_factory=list)  # the outputs in that pass


class Observer:
    """Records what the agent does on the protocol run under way."""

    def __init__(self, wired: frozenset[str]) -> None:
        self.wired = wired  # the scenario's tool names
        self.run: Run | None = None
        self.conversation: str | None = None  # the run's
        # conversation -> its agent's step under way: a run that paused mid-step goes on
        # with it once answered, after other conversations' runs.
        self._steps: dict[str, _Step | None] = {}

    def begin(self, run: Run | None, conversation: str | None = None) -> None:
        """A protocol run of ``conversation`` begins (``None``: no run is under way any
        more).  One run at a time is under way: a step's run comes to rest before the
        next step."""
        self.run, self.conversation = run, conversation

    @property
    def _step(self) -> _Step | None:
        return None if self.conversation is None else self._steps.get(self.conversation)

    @_step.setter
    def _step(self, step: _Step | None) -> None:
        if self.conversation is not None:
            self._steps[self.conversation] = step

    # ------------------------------------------------------------ from the agent's thread

    def model_called(
        self, messages: list[dict[str, Any]], batch: list[object] | None, own: frozenset[str]
    ) -> None:
        """The model was given ``messages`` and answered with ``batch`` (and ``own``)."""
        if self.run is not None:
            self.run.model_input(messages)
        self._step = _Step([] if batch is None else batch, own)

    def event(self, event: object) -> None:
        """One event of ``agent.run(stream=True)``."""
        step = self._step
        if step is None:
            return
        if isinstance(event, ToolCall) and event.id not in step.own:
            step.calls[event.id] = event  # smolagents keys a step's calls by id too
            self._pass(step)
        elif isinstance(event, ToolOutput) and event.id not in step.own:
            step.outputs[event.id] = event
        elif isinstance(event, ActionStep):
            self._end(step, event)
            self._step = None

    def body_ran(self, tool: str, given: object) -> str | None:
        """A body of ``tool`` runs with ``given``: record the side effect on the call it
        answers, and return that call's id."""
        step = self._step
        call_id = None
        if step is not None:
            for key, call in step.calls.items():
                if key not in step.ran and call.name == tool and _same(call.arguments, given):
                    call_id = key
                    step.ran.append(key)
                    break
        if self.run is not None:
            self.run.side_effect(tool, given, call_id)
        return call_id

    # ------------------------------------------------------------ from the session

    def paused(self) -> None:
        """The run paused mid-step (a question): its pass stops here, with the calls that
        returned so far; the run that resumes it reports the rest in a pass of its own."""
        step = self._step
        if step is not None and step.one is not None:
            self._results(step, step.one)
            step.one.port("tool_outputs", _outputs(step))
            step.one.outcome(None).mark_paused()
            step.one, step.shown = None, []

    # ------------------------------------------------------------ building the pass

    def _pass(self, step: _Step) -> Pass | None:
        if step.one is None and self.run is not None:
            step.one = self.run.add_pass(Pass(step.batch, exposed=EXPOSED))
        return step.one

    def _end(self, step: _Step, action: ActionStep) -> None:
        if not step.calls:
            return  # no call of the scenario: a final answer, or a parsing error
        one = self._pass(step)
        if one is None:
            return
        self._results(step, one)
        failed = self._failed(step, action.error)
        if failed is not None:
            key, disposition = failed
            call = step.calls[key]
            error = {"success": False, "data": None, "error": str(action.error)}
            if disposition == "invalid":  # refused as smolagents held the arguments
                one.result(call.name, key, disposition, error, arguments=call.arguments or {})
            else:
                one.result(call.name, key, disposition, error)
            step.reported.add(key)
        for message in action.to_messages():
            if getattr(message.role, "value", message.role) == MessageRole.TOOL_RESPONSE.value:
                text = "\n".join(part.get("text", "") for part in message.content)
                one.tool_message({"role": "tool", "content": text})
        one.port("tool_outputs", _outputs(step)).port("observations", action.observations)
        one.outcome(None)  # smolagents counts nothing per batch

    def _results(self, step: _Step, one: Pass) -> None:
        """Every call that returned and is not reported yet, in smolagents' order."""
        for key, call in step.calls.items():
            if key in step.outputs and key not in step.reported:
                data = _plain(step.outputs[key].output)
                one.result(
                    call.name, key, "executed", {"success": True, "data": data, "error": None}
                )
                step.reported.add(key)
                step.shown.append(key)

    def _failed(self, step: _Step, error: object) -> tuple[str | None, Disposition] | None:
        if not isinstance(error, AgentToolCallError | AgentToolExecutionError):
            return None  # not a call's failure (a parsing error, say)
        cause = getattr(error, "__cause__", None)
        if isinstance(cause, ToolFailed) and cause.call_id in step.calls:
            return cause.call_id, "executed"
        for key, call in step.calls.items():
            if key not in step.outputs and key not in step.ran and key not in step.reported:
                return key, "unknown_tool" if call.name not in self.wired else "invalid"
        return None


def _outputs(step: _Step) -> list[dict[str, Any]]:
    """The ``ToolOutput`` events of the pass under way, in smolagents' order of the calls."""
    return [
        {
            "id": key,
            "output": _plain(step.outputs[key].output),
            "observation": step.outputs[key].observation,
            "is_final_answer": step.outputs[key].is_final_answer,
        }
        for key in step.shown
    ]


def _plain(output: object) -> object:
    """A tool's output as JSON: smolagents wraps a string in ``AgentText``."""
    return output.to_raw() if isinstance(output, AgentType) else output


def _same(arguments: object, given: object) -> bool:
    """Whether a body given ``given`` was called with ``arguments`` (smolagents calls a
    tool with ``arguments or {}``, a map as keywords)."""
    expected = arguments or {}
    if isinstance(expected, Mapping):
        return isinstance(given, Mapping) and dict(given) == dict(expected)
    return bool(given == expected)
