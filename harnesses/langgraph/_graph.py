"""The graph under test: a StateGraph with the prebuilt ToolNode, interrupt() and SQLite.

``agent`` calls the scripted chat model; the prebuilt ``tools_condition`` routes a reply
with tool calls to the prebuilt ``ToolNode``; a reply that asks the user goes (after its
tool pass, if it has one) to ``ask``, which raises ``interrupt()`` and turns the answer
into a user message.  A gated tool raises ``interrupt()`` inside its own body before it
does anything, and the operator's decision resumes it.  Every tool is the scenario's: its
body takes the tool's next scripted return, and artifacts travel the way LangGraph
carries them, as a ``ToolMessage``'s ``artifact`` (``response_format=
"content_and_artifact"``).  The checkpointer is LangGraph's ``SqliteSaver``.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import StructuredTool, ToolException
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, ToolRuntime, tools_condition
from langgraph.types import interrupt

from adapters.kit import Run, Script
from adapters.scenario import Tool
from harnesses.langgraph._model import QUESTION, ScriptedChatModel

__all__ = ["Recorder", "build_graph"]


class Recorder:
    """What the harness observes while the graph runs: the model's inputs and every tool
    body that really ran, on the current run; which calls ran or were declined in the
    current tool pass; and the raw calls of every scripted reply."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.batches: dict[str, list[object]] = {}
        #: the id of the reply that made each call, and of the newest reply
        self.reply_of: dict[str, str] = {}
        self.last_reply: str | None = None
        self.ran: list[str | None] = []
        self.declined: set[str | None] = set()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # the ToolNode runs calls on worker threads

    def model_called(self, messages: list[dict[str, Any]]) -> None:
        if self.run is not None:
            self.run.model_input(messages)

    def reply_emitted(self, calls: Sequence[object]) -> str:
        message_id = f"ai-{next(self._ids)}"
        self.batches[message_id] = list(calls)
        self.last_reply = message_id
        for call in calls:
            if isinstance(call, dict) and call.get("tool_call_id") is not None:
                self.reply_of.setdefault(str(call["tool_call_id"]), message_id)
        return message_id

    def batch_of(self, call_ids: Sequence[str | None]) -> list[object]:
        """The batch of the reply that made these calls (the newest reply's, when none
        of them has an id the script gave)."""
        reply = next((self.reply_of[i] for i in call_ids if i in self.reply_of), self.last_reply)
        return self.batches.get(reply, []) if reply is not None else []

    def body_ran(self, tool: str, args: object, call_id: str | None) -> None:
        with self._lock:
            self.ran.append(call_id)
            if self.run is not None:
                self.run.side_effect(tool, args, call_id)

    def call_declined(self, call_id: str | None) -> None:
        with self._lock:
            self.declined.add(call_id)

    def pass_done(self) -> tuple[list[str | None], set[str | None]]:
        """What ran and what was declined in the pass that just ended; starts afresh."""
        with self._lock:
            done = (self.ran, self.declined)
            self.ran, self.declined = [], set()
            return done


def _scenario_tool(spec: Tool, script: Script, recorder: Recorder, lock: threading.Lock) -> Any:
    def body(runtime: ToolRuntime, **args: Any) -> tuple[object, object]:
        call_id = runtime.tool_call_id
        if spec.gate:  # the consent gate: pause the graph until the operator decides
            decision = interrupt({"gate": {"tool": spec.name, "tool_call_id": call_id}})
            if not (isinstance(decision, dict) and decision.get("approved") is True):
                recorder.call_declined(call_id)
                reason = decision.get("reason") if isinstance(decision, dict) else None
                raise ToolException(str(reason or "declined by the operator"))
        with lock:
            scripted = script.invoke(spec.name)
        recorder.body_ran(spec.name, args, call_id)
        if scripted.fail is not None:  # a recoverable failure, as LangGraph reports one
            raise ToolException(scripted.fail)
        output = scripted.output
        if isinstance(output, dict) and "artifacts" in output:  # the tool's artifacts
            data = {key: value for key, value in output.items() if key != "artifacts"}
            return data, output["artifacts"]
        return output, None

    return StructuredTool(
        name=spec.name,
        description=f"The scenario's tool {spec.name}.",
        func=body,
        args_schema=spec.input_schema if isinstance(spec.input_schema, dict) else {},
        response_format="content_and_artifact",
        handle_tool_error=True,
    )


def _question(message: object) -> str | None:
    if isinstance(message, AIMessage):
        asked = message.response_metadata.get(QUESTION)
        return asked if isinstance(asked, str) else None
    return None


def _last_ai(state: MessagesState) -> AIMessage | None:
    return next((m for m in reversed(state["messages"]) if isinstance(m, AIMessage)), None)


def build_graph(script: Script, recorder: Recorder, checkpointer: Any) -> Any:
    """The compiled graph for one scenario, checkpointing into ``checkpointer``."""
    lock = threading.Lock()
    tools = [_scenario_tool(spec, script, recorder, lock) for spec in script.tools]
    model = ScriptedChatModel(
        script=script, observe=recorder.model_called, emitted=recorder.reply_emitted
    )

    def agent(state: MessagesState) -> dict[str, list[Any]]:
        return {"messages": [model.invoke(state["messages"])]}

    def ask(state: MessagesState) -> dict[str, list[Any]]:
        answer = interrupt({"question": _question(_last_ai(state))})
        return {"messages": [HumanMessage(content=str(answer))]}

    def after_agent(state: MessagesState) -> str:
        if tools_condition(dict(state)) == "tools":
            return "tools"
        return "ask" if _question(_last_ai(state)) else END

    def after_tools(state: MessagesState) -> str:
        return "ask" if _question(_last_ai(state)) else "agent"

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_node("ask", ask)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", after_agent, ["tools", "ask", END])
    graph.add_conditional_edges("tools", after_tools, ["ask", "agent"])
    graph.add_edge("ask", "agent")
    return graph.compile(checkpointer=checkpointer)
