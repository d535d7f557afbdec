"""Builders for a step record and for a turn as the implementation's wire reports it.

A :class:`StepRecord` starts as the frame of an ``ok`` step with no runs, no warnings
and an empty wire; the harness adds what its runtime did.  Every value is checked as it
is set (see :mod:`adapters.kit._frame`), and the whole record once more when it is
rendered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from adapters.kit._frame import Frame, as_list, escape_pointer
from adapters.kit._runs import Run

__all__ = ["MAX_FAILURE_CHARS", "Outcome", "StepRecord", "WireTurn"]

Outcome = Literal["ok", "refused", "failed", "crashed"]
#: How much of a runtime's own account of a failed run a step record keeps.
MAX_FAILURE_CHARS = 500


class WireTurn(Frame):
    """One turn exactly as the implementation's own turn read serves it.

    ``messages`` are the turn's message rows and ``tool_artifacts`` the turn result's
    aggregated artifacts, both as the wire has them: never tidied up.
    """

    ref = "trace#/$defs/turn_wire"

    def __init__(
        self,
        status: str,
        *,
        messages: Iterable[object] = (),
        tool_artifacts: object = (),
        continue_offered: bool = False,
        pending: object = None,
        id: str | None = None,
    ) -> None:
        super().__init__()
        self._set("status", status)
        self._set("continueOffered", continue_offered)
        self._set("pending", pending)
        self._set("messages", as_list(messages, "/messages"))
        artifacts = list(tool_artifacts) if isinstance(tool_artifacts, tuple) else tool_artifacts
        self._set("toolArtifacts", artifacts)
        if id is not None:
            self._set("id", id)

    def to_json(self) -> dict[str, object]:
        """The turn as the protocol carries it."""
        return self._render()


class StepRecord(Frame):
    """The reply to one ``step``: what the step set off, and the wire afterwards."""

    ref = "trace#/$defs/step_record"

    def __init__(self, index: int, op: str) -> None:
        super().__init__()
        self._set("index", index)
        self._set("op", op)
        self._set("outcome", "ok")
        self._set("warnings", [])
        self._runs: list[Run] = []
        self._wire: dict[str, dict[str, WireTurn]] = {}

    # ---------------------------------------------------------------- the outcome

    def refused(self, code: str, message: str) -> StepRecord:
        """The implementation refused the action (behaviour for the checks to judge)."""
        return self._outcome("refused", code, message)

    def failed(self, code: str, message: str) -> StepRecord:
        """The action failed inside the implementation."""
        return self._outcome("failed", code, message)

    def crashed(self, code: str, message: str) -> StepRecord:
        """The process died during the step and was restarted from its storage."""
        return self._outcome("crashed", code, message)

    def run_failed(self, run: Run, code: str, failure: BaseException | str) -> StepRecord:
        """A run that failed inside the runtime: the run ends ``failed``, and the step
        fails with ``code`` and what went wrong (an exception as ``Type: text``), cut to
        :data:`MAX_FAILURE_CHARS` characters."""
        run.ended("failed")
        said = failure if isinstance(failure, str) else f"{type(failure).__name__}: {failure}"
        return self.failed(code, said[:MAX_FAILURE_CHARS])

    def _outcome(self, outcome: Outcome, code: str, message: str) -> StepRecord:
        self._set("outcome", outcome)
        self._set("error", {"code": code, "message": message})
        return self

    @property
    def outcome(self) -> str:
        """The outcome so far (``ok`` unless refused, failed or crashed)."""
        return str(self._data["outcome"])

    # ---------------------------------------------------------------- what happened

    def add_run(self, run: Run) -> Run:
        """Add a run that took place (or went on) during this step; returns it."""
        run.place(f"/runs/{len(self._runs)}")
        self._runs.append(run)
        return run

    @property
    def runs(self) -> tuple[Run, ...]:
        """The runs added so far."""
        return tuple(self._runs)

    def warn(
        self,
        code: str,
        message: str,
        *,
        tool: str | None = None,
        run: str | None = None,
        type: str | None = None,
        tool_call_id: str | None = None,
    ) -> StepRecord:
        """A warning the implementation raised during the step."""
        entry: dict[str, object] = {"code": code, "message": message}
        extra = {"tool": tool, "run": run, "type": type, "tool_call_id": tool_call_id}
        entry.update({key: value for key, value in extra.items() if value is not None})
        self._append("warnings", entry)
        return self

    # ---------------------------------------------------------------- observations

    def wire(self, conversation: str, turn: str, value: WireTurn) -> StepRecord:
        """The turn labelled ``turn`` of ``conversation`` as the wire reports it now."""
        value.place(f"/wire{escape_pointer(conversation)}{escape_pointer(turn)}")
        self._wire.setdefault(conversation, {})[turn] = value
        return self

    def held(self, held: Mapping[str, object]) -> StepRecord:
        """Turn label -> the artifacts held against that turn (``held_observation``)."""
        self._set("held", dict(held))
        return self

    def open_collections(self, run_ids: Iterable[str]) -> StepRecord:
        """The runs whose artifact collection is open (``collection_observation``)."""
        self._set("open_collections", as_list(run_ids, "/open_collections"))
        return self

    def poll(self, envelope: object) -> StepRecord:
        """The answer to a ``poll`` step, exactly as the message poll served it."""
        self._set("poll", envelope)
        return self

    def journal(self, answer: object) -> StepRecord:
        """The answer to a ``classify_ledger`` step."""
        self._set("journal", answer)
        return self

    def ids(self, *, conversations: Mapping[str, str], turns: Mapping[str, str]) -> StepRecord:
        """Scenario labels -> the implementation's own ids (needed with a turn API)."""
        self._set("ids", {"conversations": dict(conversations), "turns": dict(turns)})
        return self

    def to_json(self) -> dict[str, object]:
        """The step record as the protocol carries it, checked whole."""
        wire = {
            conversation: {label: turn.to_json() for label, turn in turns.items()}
            for conversation, turns in self._wire.items()
        }
        return self._render({"runs": [run.to_json() for run in self._runs], "wire": wire})
