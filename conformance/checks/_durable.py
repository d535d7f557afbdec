"""Helpers for the durable-resume checks (DR-1 … DR-6)."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import Tool
from adapters.trace import RunRecord, Trace
from conformance.checks._common import mapping
from conformance.checks._context import CheckContext
from conformance.checks._outcomes import Untested
from conformance.scenarios import output, tool

__all__ = ["ANA", "BO", "CY", "continuations", "nudge", "resume_message", "send", "tools"]

ANA = {"to": "ana@example.com"}
BO = {"to": "bo@example.com"}
CY = {"to": "cy@example.com"}


def tools() -> list[Tool]:
    """A write tool (``send_email``), another (``create_ticket``), a read (``lookup``)."""
    return [
        tool("send_email", output("sent"), schema={}),
        tool("create_ticket", output("T-1"), schema={}),
        tool("lookup", output({"result": "order 7: shipped"}), schema={}, read_only=True),
    ]


def send(args: Mapping[str, object], call_id: str | None) -> dict[str, object]:
    """A ``send_email`` call."""
    out: dict[str, object] = {"name": "send_email", "args": dict(args)}
    if call_id is not None:
        out["tool_call_id"] = call_id
    return out


def nudge(ctx: CheckContext) -> str:
    """The nudge the implementation declared in its handshake."""
    declared = ctx.handshake.durable_resume
    if declared is None:
        raise Untested("the handshake declares no durable_resume nudge")
    return declared.nudge


def continuations(trace: Trace, turn: str = "t1", *causes: str) -> list[RunRecord]:
    """The runs of ``turn`` that resumed it after an interruption (by ``causes``)."""
    wanted = causes or ("auto_continue", "continue")
    return [run for run in trace.runs() if run.turn == turn and run.cause in wanted]


def resume_message(run: RunRecord, nudge_text: str) -> str | None:
    """The content of the resume prompt in ``run``'s first model input: the last message
    whose content starts with the nudge."""
    if not run.model_inputs:
        return None
    found = [mapping(m).get("content") for m in run.model_inputs[0].messages]
    prompts = [text for text in found if isinstance(text, str) and text.startswith(nudge_text)]
    return prompts[-1] if prompts else None
