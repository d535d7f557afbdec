"""Builders for a run and for one pass of the tool-invoking node.

Each fills in the protocol's frame (every required list starts empty, a run ends
``completed`` unless told otherwise) and checks every value as it is set; see
:mod:`adapters.kit._frame`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from adapters.kit._frame import Frame, as_list

__all__ = ["Cause", "Disposition", "End", "Pass", "Run", "note"]

Cause = Literal["start", "answer", "approve", "decline", "auto_continue", "continue"]
End = Literal["completed", "paused", "interrupted", "failed", "crashed"]
Disposition = Literal[
    "executed", "skipped", "unknown_tool", "declined", "reused", "refused", "invalid"
]

_MISSING = object()


def note(
    completed: Iterable[object] = (), interrupted: Iterable[object] = ()
) -> dict[str, list[object]]:
    """A journal note: completed calls ``{tool, input, result}`` and interrupted calls
    ``{tool, input}``."""
    return {"completed": list(completed), "interrupted": list(interrupted)}


class Pass(Frame):
    """One pass of the tool-invoking node over a batch of calls, as the node saw it.

    ``batch`` is the calls exactly as the model emitted them, malformed ones included;
    ``exposed`` maps each port to whether it is exposed after the author's choices.
    Ports, results and tool messages are added as the runtime produces them.
    """

    ref = "trace#/$defs/pass"

    def __init__(self, batch: Iterable[object], *, exposed: Mapping[str, object]) -> None:
        super().__init__()
        self._set("batch", as_list(batch, "/batch"))
        self._set("exposed", dict(exposed))
        self._ports: dict[str, object] = {}
        self._set("ports", {})
        self._set("results", [])
        self._set("tool_messages", [])
        self._set("outcome", {})

    def port(self, name: str, value: object) -> Pass:
        """Record what the node emitted on port ``name`` in this pass."""
        self._ports[name] = value
        self._set("ports", self._ports)
        return self

    def result(
        self,
        tool: object,
        tool_call_id: str | None,
        disposition: Disposition,
        result: object,
        *,
        arguments: object = _MISSING,
        generated_id: bool = False,
    ) -> Pass:
        """One call that reached the guard, with its tool result exactly as the node got
        it (and, where reconciled, its arguments after reconciliation).  ``generated_id``
        says that ``tool_call_id`` is one the runtime made up for a call the model sent
        without an identifier."""
        entry: dict[str, object] = {
            "tool": tool,
            "tool_call_id": tool_call_id,
            "disposition": disposition,
            "result": result,
        }
        if arguments is not _MISSING:
            entry["arguments"] = arguments
        if generated_id:
            entry["generated_id"] = True
        self._append("results", entry)
        return self

    def tool_message(self, message: object) -> Pass:
        """A tool-role message the pass fed back towards the model."""
        self._append("tool_messages", message)
        return self

    def outcome(self, value: object) -> Pass:
        """The batch's outcome as the node reports it (for example ``{succeeded, failed}``)."""
        self._set("outcome", value)
        return self

    def mark_paused(self) -> Pass:
        """The pass stopped early because a gated call paused the node."""
        self._set("paused", True)
        return self

    def mark_cut(self) -> Pass:
        """The run was cut off during this pass; the results are what returned before."""
        self._set("cut", True)
        return self

    def to_json(self) -> dict[str, object]:
        """The pass as the protocol carries it."""
        return self._render()


class Run(Frame):
    """One run of a turn: model calls, tool passes and side effects, in order."""

    ref = "trace#/$defs/run"

    def __init__(
        self, id: str, *, turn: str, conversation: str, cause: Cause, end: End = "completed"
    ) -> None:
        super().__init__()
        self._set("id", id)
        self._set("turn", turn)
        self._set("conversation", conversation)
        self._set("cause", cause)
        self._set("end", end)
        self._set("model_inputs", [])
        self._set("side_effects", [])
        self._passes: list[Pass] = []

    def ended(self, end: End, *, interruption: object = _MISSING) -> Run:
        """How the run ended (and, for an interrupted run, ``{point, cause}``)."""
        self._set("end", end)
        if interruption is not _MISSING:
            self._set("interruption", interruption)
        return self

    def model_input(self, messages: Iterable[object]) -> Run:
        """One model call: the messages the model was given, as the runtime built them."""
        given = self._data["model_inputs"]
        assert isinstance(given, list)
        at = f"{self.at}/model_inputs/{len(given)}/messages"
        self._append("model_inputs", {"messages": as_list(messages, at)})
        return self

    def add_pass(self, one: Pass) -> Pass:
        """Add a pass (it may still be filled in afterwards); returns it."""
        one.place(f"{self.at}/passes/{len(self._passes)}")
        self._passes.append(one)
        return one

    def side_effect(self, tool: object, input: object, tool_call_id: str | None) -> Run:
        """A tool body really ran."""
        self._append("side_effects", {"tool": tool, "input": input, "tool_call_id": tool_call_id})
        return self

    def resumed(self, nudge: str, journal_note: Mapping[str, object] | None = None) -> Run:
        """How a resumed run was prompted: the nudge, and the note appended to it."""
        value: dict[str, object] = {"nudge": nudge}
        if journal_note is not None:
            value["note"] = dict(journal_note)
        self._set("resume", value)
        return self

    def prior_turn_note(self, journal_note: Mapping[str, object]) -> Run:
        """The note telling a new turn's model what an unfinished turn already did."""
        self._set("prior_turn_note", dict(journal_note))
        return self

    def place(self, at: str) -> None:
        """Say where this run sits in its step record (and so its passes)."""
        super().place(at)
        for index, one in enumerate(self._passes):
            one.place(f"{at}/passes/{index}")

    @property
    def passes(self) -> tuple[Pass, ...]:
        """The passes added so far."""
        return tuple(self._passes)

    def to_json(self) -> dict[str, object]:
        """The run as the protocol carries it."""
        return self._render({"passes": [one.to_json() for one in self._passes]})
