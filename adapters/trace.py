"""Traces: what an implementation did with a scenario, step by step.

A trace is the suite's only window on an implementation.  Its frame (steps, runs,
passes) is typed; everything a check judges (tool results, port values, message rows,
artifacts, model inputs) is kept as raw JSON, exactly as the implementation produced
it.  The JSON form is published as ``schemas/trace.json``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from adapters._codec import Json

__all__ = [
    "ModelInput",
    "Note",
    "PassRecord",
    "ResumeRecord",
    "RunRecord",
    "StepError",
    "StepRecord",
    "ToolResultRecord",
    "Trace",
    "TurnWire",
    "WarningRecord",
]

Disposition = Literal[
    "executed",  # the tool body was invoked
    "skipped",  # RT-TOOL-9: a repeat of a recorded call id; the stored result re-emitted
    "unknown_tool",  # RT-TOOL-10: names a tool that is not wired; recoverable result
    "declined",  # a gated call the operator declined; recoverable result
    "reused",  # durable resume: a completed write's journaled result returned, not re-run
    "refused",  # durable resume: an identical retry of an interrupted write refused
    "invalid",  # arguments failed the tool's input schema; recoverable result
]


@dataclass(frozen=True)
class ToolResultRecord:
    """One call's tool result, as the tool-invoking node received it.

    ``arguments`` are the call's arguments after reconciliation with the tool's schema
    (RT-TOOL-8), whether or not the tool then ran; absent where the call never got that
    far (a skipped repeat, an unwired tool).  ``generated_id`` is true when
    ``tool_call_id`` is an identifier the runtime made up for a call the model sent
    without one (RT-TOOL-9 ¶5: such a call is unguarded, whatever id it then carries).
    """

    tool: Json
    tool_call_id: str | None
    disposition: Disposition
    result: Json
    arguments: Json = None
    generated_id: bool | None = None

    @property
    def model_call_id(self) -> str | None:
        """The identifier the model sent the call with: ``None`` for a call it sent
        without one, whether or not the runtime then gave it an id of its own."""
        return None if self.generated_id else self.tool_call_id


@dataclass(frozen=True)
class PassRecord:
    """One pass of the tool-invoking node over a batch of calls."""

    batch: tuple[Json, ...]
    ports: Json
    exposed: Json
    results: tuple[ToolResultRecord, ...]
    tool_messages: tuple[Json, ...]
    outcome: Json
    paused: bool = False
    #: the run was cut off during this pass: ``results`` are the calls that returned before
    cut: bool = False


@dataclass(frozen=True)
class ModelInput:
    """What the model was given on one call: its messages, as the implementation built them."""

    messages: tuple[Json, ...]


@dataclass(frozen=True)
class Note:
    """A structured journal note: completed calls (``tool``, ``input``, ``result``) and
    interrupted calls (``tool``, ``input``)."""

    completed: tuple[Json, ...]
    interrupted: tuple[Json, ...]


@dataclass(frozen=True)
class ResumeRecord:
    """How a resumed run was prompted: the nudge text and the journal note (or none)."""

    nudge: str
    note: Note | None = None


@dataclass(frozen=True)
class RunRecord:
    """One run of a turn."""

    id: str
    turn: str
    conversation: str
    cause: Literal["start", "answer", "approve", "decline", "auto_continue", "continue"]
    end: Literal["completed", "paused", "interrupted", "failed", "crashed"]
    model_inputs: tuple[ModelInput, ...]
    passes: tuple[PassRecord, ...]
    side_effects: tuple[Json, ...]
    interruption: Json = None
    resume: ResumeRecord | None = None
    prior_turn_note: Note | None = None


@dataclass(frozen=True)
class TurnWire:
    """A turn as the implementation's wire reports it (the turn read of the protocol)."""

    status: str
    continueOffered: bool
    messages: tuple[Json, ...]
    toolArtifacts: Json
    pending: Json = None
    id: str | None = None


@dataclass(frozen=True)
class WarningRecord:
    """A warning the implementation raised (an artifact dropped at a bound, ...)."""

    code: str
    message: str
    tool: str | None = None
    run: str | None = None
    type: str | None = None
    tool_call_id: str | None = None


@dataclass(frozen=True)
class StepError:
    """Why a step was refused or failed: a message, and a stable code when the harness
    gives one (the protocol's one error object, ``trace.json#/$defs/error``, which an
    error reply carries too)."""

    # Keyword-only so that it may default while keeping its place first in the JSON form.
    code: str | None = field(default=None, kw_only=True)
    message: str
    #: more than the message: for a fault of the harness's own, its traceback
    detail: str | None = None


@dataclass(frozen=True)
class StepRecord:
    """What one driver step did, and the wire as it stood afterwards.

    ``wire`` maps conversation label -> turn label -> :class:`TurnWire`.
    ``held`` (turn label -> artifacts) and ``open_collections`` (run ids) are
    observations of implementations that offer them; ``poll`` and ``journal`` answer
    the ``poll`` and ``classify_ledger`` steps.
    """

    index: int
    op: str
    outcome: Literal["ok", "refused", "failed", "crashed"]
    runs: tuple[RunRecord, ...]
    warnings: tuple[WarningRecord, ...]
    wire: Mapping[str, Mapping[str, TurnWire]]
    error: StepError | None = None
    held: Mapping[str, Json] | None = None
    open_collections: tuple[str, ...] | None = None
    poll: Json = None
    journal: Json = None
    ids: Json = None


@dataclass(frozen=True)
class Trace:
    """The whole trace of one scenario."""

    scenario: str
    steps: tuple[StepRecord, ...]
    ledger: tuple[Json, ...] | None = None

    def runs(self) -> Iterator[RunRecord]:
        """Every run, in order."""
        for step in self.steps:
            yield from step.runs

    def passes(self) -> Iterator[tuple[RunRecord, PassRecord]]:
        """Every tool pass with the run it belongs to, in order."""
        for run in self.runs():
            for one in run.passes:
                yield run, one

    def warnings(self) -> Iterator[WarningRecord]:
        """Every warning, in order."""
        for step in self.steps:
            yield from step.warnings

    def final_wire(self) -> Mapping[str, Mapping[str, TurnWire]]:
        """The wire after the last step."""
        return self.steps[-1].wire if self.steps else {}
