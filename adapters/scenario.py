"""Scenarios: the complete, deterministic script the suite sends to an implementation.

A scenario names the tools (what each one does when invoked), the model's replies in
order, the tool-invoking node's port configuration, the collection bounds, and the
driver's steps over time.  Its JSON form is published as ``schemas/scenario.json``.

Vocabulary follows the specification: a *conversation* holds *turns*; a turn is one
user message and everything the agent does in reply, across one or more *runs* (a run
pauses; answering resumes the turn in a new run).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from adapters._codec import Json

__all__ = [
    "RESUMABLE_CAUSES",
    "UNENCODABLE",
    "Answer",
    "Approve",
    "Bounds",
    "ClassifyLedger",
    "Continue",
    "Decline",
    "EmitLateArtifact",
    "FailLedgerRead",
    "FailWriteBack",
    "Interrupt",
    "InterruptCause",
    "InterruptPoint",
    "NodeConfig",
    "Poll",
    "Reply",
    "Restart",
    "Return",
    "Scenario",
    "StartTurn",
    "Step",
    "Stop",
    "Tool",
    "Wait",
    "call",
]

#: A payload marker: the harness must substitute a value its runtime cannot JSON-encode.
UNENCODABLE = {"$rttool": "unencodable"}

InterruptPoint = Literal[
    "during_model_call",  # the model call is cut in flight: its partial output is abandoned
    "before_tool_body",  # tool_start is recorded, the tool body has not run
    "after_tool_body",  # the tool body ran (its side effect landed), tool_done not recorded
    "after_tool_done",  # tool_done is recorded, nothing after it has run
    "during_write_back",  # the write-back has taken the held list but not committed
]
InterruptCause = Literal[
    "time_limit",  # the run time limit: resumed automatically (at most three times)
    "gateway_timeout",  # resumable
    "transport_error",  # resumable
    "stop",  # the user pressed Stop
    "cancel",
    "error",
    "credential",
    "rate_limit",
    "crash",  # the process dies at that point; the harness restarts it from storage
]
RESUMABLE_CAUSES: frozenset[str] = frozenset({"time_limit", "gateway_timeout", "transport_error"})


@dataclass(frozen=True)
class Return:
    """What one invocation of a tool does.

    ``output`` is the tool node's output; a map may carry the reserved ``artifacts`` key.
    With ``fail`` set, the invocation is a recoverable failure with that message (its
    ``output``, if any, is what the node emitted before failing).
    """

    output: Json = None
    fail: str | None = None


@dataclass(frozen=True)
class Tool:
    """A tool node wired to the tool-invoking node.

    ``returns`` lists what successive invocations do; the last entry repeats.
    ``gate`` puts a consent gate in front of the tool (approve or decline).
    ``expose_artifacts_port`` is the author's exposure choice for the tool node's
    reserved ``artifacts`` output (RT-TOOL-2: the channel survives either way).
    """

    name: str
    returns: tuple[Return, ...] = (Return(output={"ok": True}),)
    read_only: bool = False
    input_schema: Json = field(default_factory=lambda: {"type": "object"})
    gate: bool = False
    expose_artifacts_port: bool = False


@dataclass(frozen=True)
class Reply:
    """One model reply, consumed in order across the whole scenario.

    ``text`` writes an assistant message; ``tool_calls`` (raw: a malformed call is any
    JSON value) starts a tool pass, after which the model is called again; ``question``
    pauses the run until it is answered.  A reply with neither ``tool_calls`` nor
    ``question`` ends the run.  When the replies run out the model answers
    ``{"text": "Done."}``.
    """

    text: str | None = None
    tool_calls: tuple[Json, ...] | None = None
    question: str | None = None


def call(name: str, args: object = None, tool_call_id: str | None = None) -> dict[str, object]:
    """A well-formed tool call as a model emits it (``tool_call_id`` omitted when ``None``)."""
    out: dict[str, object] = {"name": name, "args": {} if args is None else args}
    if tool_call_id is not None:
        out["tool_call_id"] = tool_call_id
    return out


@dataclass(frozen=True)
class NodeConfig:
    """The author's port exposure choices on the tool-invoking node (absent: defaults)."""

    expose: Json = None


@dataclass(frozen=True)
class Bounds:
    """Collection bounds for this scenario (absent: the implementation's defaults)."""

    payload_bytes: int | None = None
    run_artifacts: int | None = None
    run_bytes: int | None = None
    held_artifacts: int | None = None


# ----------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class StartTurn:
    """Send a user message: starts a new turn (``turn`` is the scenario's label for it; a
    label names one turn, and starting a second turn with it is refused)."""

    turn: str
    message: str = "Hello"
    conversation: str = "main"
    entry_point: Literal["chat", "api", "trigger"] = "chat"
    op: Literal["start_turn"] = "start_turn"


@dataclass(frozen=True)
class Poll:
    """Read the conversation's message poll (PLAY-3 envelope)."""

    conversation: str = "main"
    limit: int | None = None
    op: Literal["poll"] = "poll"


@dataclass(frozen=True)
class Answer:
    """Answer a paused turn's question; resumes the turn in a new run."""

    turn: str
    value: str = "yes"
    op: Literal["answer"] = "answer"


@dataclass(frozen=True)
class Approve:
    """Approve the gated call a turn is paused on."""

    turn: str
    op: Literal["approve"] = "approve"


@dataclass(frozen=True)
class Decline:
    """Decline the gated call a turn is paused on."""

    turn: str
    reason: str = "declined by the operator"
    op: Literal["decline"] = "decline"


@dataclass(frozen=True)
class Wait:
    """Let the implementation do what it does on its own (automatic continuation)
    until every turn is quiescent, or for at most ``rounds`` automatic continuations.
    ``clients`` > 1 asks for that many concurrent waiters (two browser tabs)."""

    clients: int = 1
    rounds: int | None = None
    op: Literal["wait"] = "wait"


@dataclass(frozen=True)
class Continue:
    """Choose Continue on a stopped turn."""

    turn: str
    op: Literal["continue"] = "continue"


@dataclass(frozen=True)
class Stop:
    """Press Stop on a turn that is running or resuming."""

    turn: str
    op: Literal["stop"] = "stop"


@dataclass(frozen=True)
class Restart:
    """Restart the implementation from its storage (a reload)."""

    op: Literal["restart"] = "restart"


@dataclass(frozen=True)
class FailWriteBack:
    """Make the next ``count`` write-backs fail after they have taken the held list."""

    count: int = 1
    op: Literal["fail_write_back"] = "fail_write_back"


@dataclass(frozen=True)
class Interrupt:
    """Arm one interruption: it fires the ``occurrence``-th time from now that a run
    reaches ``point`` (for ``tool``, when given).  Where several armed interruptions
    match the same moment, the one armed first fires."""

    point: InterruptPoint
    cause: InterruptCause
    tool: str | None = None
    occurrence: int = 1
    op: Literal["interrupt"] = "interrupt"


@dataclass(frozen=True)
class FailLedgerRead:
    """Make the next ``count`` reads of the run-event ledger fail."""

    count: int = 1
    op: Literal["fail_ledger_read"] = "fail_ledger_read"


@dataclass(frozen=True)
class EmitLateArtifact:
    """Deliver an artifact into collection out of band, for a run of ``turn``:
    ``ended`` targets the turn's last run, which has released collection;
    ``unopened`` targets the turn's next run, which has not opened it yet."""

    turn: str
    target: Literal["ended", "unopened"]
    artifact: Json
    tool_call_id: str = "late_call"
    op: Literal["emit_late_artifact"] = "emit_late_artifact"


@dataclass(frozen=True)
class ClassifyLedger:
    """Ask the implementation's tool-call journal to classify these ledger events."""

    events: tuple[Json, ...]
    op: Literal["classify_ledger"] = "classify_ledger"


Step = (
    StartTurn
    | Poll
    | Answer
    | Approve
    | Decline
    | Wait
    | Continue
    | Stop
    | Restart
    | FailWriteBack
    | Interrupt
    | FailLedgerRead
    | EmitLateArtifact
    | ClassifyLedger
)


@dataclass(frozen=True)
class Scenario:
    """A complete, deterministic script; ``id`` is unique within a run of the suite."""

    id: str
    steps: tuple[Step, ...]
    tools: tuple[Tool, ...] = ()
    model: tuple[Reply, ...] = ()
    node: NodeConfig | None = None
    bounds: Bounds | None = None
    description: str | None = None
