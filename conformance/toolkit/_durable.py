"""Helpers for the durable-resume checks (DR-1 … DR-6): the tools, the calls, turns cut
and resumed, a pause in a resumed chunk, and where things are in a trace."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.scenario import (
    Answer,
    Approve,
    Continue,
    Interrupt,
    Reply,
    Return,
    Step,
    Tool,
    Wait,
)
from adapters.trace import RunRecord, Trace
from conformance.toolkit._context import CheckContext
from conformance.toolkit._outcomes import Untested
from conformance.toolkit._resuming import RESUMING
from conformance.toolkit._scenarios import ask, call, calls, output, tool
from conformance.toolkit._traces import located_results, located_runs, located_side_effects

__all__ = [
    "CHUNK_PAUSES",
    "ChunkPause",
    "cut",
    "located_continuations",
    "nudge",
    "plural",
    "ran",
    "resume",
    "resumes_by_itself",
    "runs_of",
    "send",
    "ticket",
    "tools",
]


def tools(
    *,
    sends: Sequence[Return] = (),
    tickets: Sequence[Return] = (),
    lookups: Sequence[Return] = (),
) -> list[Tool]:
    """Two write tools, ``send_email`` (answers ``"sent"``) and ``create_ticket``
    (``"T-1"``), and a read-only ``lookup`` (``{"result": "order 7: shipped"}``); each may
    be given other successive returns."""
    return [
        tool("send_email", *(sends or (output("sent"),)), schema={}),
        tool("create_ticket", *(tickets or (output("T-1"),)), schema={}),
        tool(
            "lookup",
            *(lookups or (output({"result": "order 7: shipped"}),)),
            schema={},
            read_only=True,
        ),
    ]


@dataclass(frozen=True)
class ChunkPause:
    """How a resumed chunk pauses between two identical writes: a question the operator
    answers, or a gated call (``approve_refund``, call ``g1``) the operator approves."""

    gate: bool = False

    def tools(self) -> list[Tool]:
        """The tools of :func:`tools`, and the gated ``approve_refund`` (``"refunded"``)."""
        return [*tools(), tool("approve_refund", output("refunded"), schema={}, gate=True)]

    def reply(self, question: str) -> Reply:
        """The model's reply that pauses the chunk: the gated call, or ``question``."""
        return calls(call("approve_refund", {"order": 7}, "g1")) if self.gate else ask(question)

    def answer(self, turn: str) -> Step:
        """The operator's step that ends the pause of ``turn``."""
        return Approve(turn) if self.gate else Answer(turn)


#: The two pauses, as the variants of a case.
CHUNK_PAUSES: dict[str, ChunkPause] = {
    "after-a-question": ChunkPause(),
    "after-an-approval": ChunkPause(gate=True),
}


def send(args: Mapping[str, object], call_id: str | None) -> dict[str, object]:
    """A ``send_email`` call."""
    return call("send_email", dict(args), call_id)


def ticket(args: Mapping[str, object], call_id: str | None) -> dict[str, object]:
    """A ``create_ticket`` call."""
    return call("create_ticket", dict(args), call_id)


def cut(point: str, cause: str = "time_limit", on: str | None = None, nth: int = 1) -> Interrupt:
    """An armed interruption (``on``: the tool it waits for; ``nth``: which time)."""
    return Interrupt(point, cause, on, nth)  # type: ignore[arg-type]


def nudge(ctx: CheckContext) -> str:
    """The nudge the implementation declared in its handshake."""
    declared = ctx.handshake.durable_resume
    if declared is None:
        raise Untested("the handshake declares no durable_resume nudge")
    return declared.nudge


def resumes_by_itself(ctx: CheckContext, cause: str) -> bool:
    """Whether the handshake says a cut by ``cause`` continues the turn by itself
    (docs/interpretations.md#resumable-causes; without a declaration, the guide's)."""
    declared = ctx.handshake.durable_resume
    return (
        cause in ("time_limit", "gateway_timeout", "transport_error")
        if declared is None
        else (cause in declared.resumes_on_its_own)
    )


def resume(ctx: CheckContext, cause: str, turn: str = "t1") -> Step:
    """What resumes a turn cut by ``cause``: waiting, when it continues by itself, else
    choosing Continue."""
    return Wait() if resumes_by_itself(ctx, cause) else Continue(turn)


def located_continuations(
    trace: Trace, turn: str = "t1", causes: Sequence[str] = RESUMING
) -> list[tuple[str, RunRecord]]:
    """The runs of ``turn`` that resumed it after an interruption, with their pointers."""
    return [
        (at, run) for at, run in located_runs(trace) if run.turn == turn and run.cause in causes
    ]


def ran(trace: Trace, call_id: str) -> list[str]:
    """Where the body of call ``call_id`` ran: the pointers of its side effects."""
    return [
        at for at, effect in located_side_effects(trace) if effect.get("tool_call_id") == call_id
    ]


def plural(count: int, noun: str) -> str:
    """``1 time``, ``2 times``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def runs_of(trace: Trace, call_id: str) -> tuple[str, str | None]:
    """How often call ``call_id``'s body ran, as a failure message says it (``did not run
    (reported reused)``, ``ran once (at ...)``, ``ran 2 times (at ..., ...)``), and the
    pointer that shows it: its first side effect, else its first result."""
    where = ran(trace, call_id)
    if where:
        times = "once" if len(where) == 1 else plural(len(where), "time")
        return f"ran {times} (at {', '.join(where[:3])})", where[0]
    found = located_results(trace, call_id)
    if not found:
        return "did not run, and got no result", None
    at, result = found[0]
    return f"did not run (its result is reported {result.disposition})", at
