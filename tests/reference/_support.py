"""Test doubles for driving the reference runtime directly.

A :class:`Rig` owns one database file and the outside world of a runtime (the model,
the tool bodies, the observer, the seams), which survive a restart just as a model
provider and the systems tools touch survive a process death.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import settings

from reference_impl import records
from reference_impl.artifacts import Bounds
from reference_impl.behaviour import Components
from reference_impl.harness._recorder import Recorder
from reference_impl.runtime import Runtime
from reference_impl.seams import Seams
from reference_impl.workflow import Model, ModelReply, ToolOutcome, ToolSpec, Workflow

__all__ = [
    "PERMISSIVE",
    "FakeModel",
    "FakeWorld",
    "Invocation",
    "Record",
    "Rig",
    "assistant_rows",
    "call",
    "calls",
    "causes",
    "cut_model_calls",
    "done",
    "ending",
    "examples",
    "hypothesis_settings",
    "interrupted_after",
    "results",
    "resumed_runs",
    "say",
]

#: An input schema that accepts any arguments (RT-TOOL-9/10 examples send ``args: []``).
PERMISSIVE: dict[str, object] = {}

ToolBody = Callable[[object], ToolOutcome]

#: A run record, a pass record or a call result as the recorder reports them (JSON-like).
Record = dict[str, Any]

_RULES = Path(__file__).resolve().parents[2] / "rules"
_EXAMPLE = re.compile(r'```json title="([^"]*)" verdict="([^"]*)"\n(.*?)\n```', re.S)


def examples(rule: str) -> list[object]:
    """The JSON example blocks of a shipped rule page, in order, parsed."""
    text = (_RULES / f"{rule}.md").read_text(encoding="utf-8")
    return [json.loads(body) for _title, _verdict, body in _EXAMPLE.findall(text)]


def call(name: object, args: object = None, call_id: object = None) -> dict[str, object]:
    """A raw tool call as a model emits it (``args`` defaults to ``{}``)."""
    raw: dict[str, object] = {"name": name, "args": {} if args is None else args}
    if call_id is not None:
        raw["tool_call_id"] = call_id
    return raw


def calls(*batch: object, text: str | None = None) -> ModelReply:
    """A model reply dispatching ``batch``."""
    return ModelReply(text=text, tool_calls=tuple(batch))


def say(text: str) -> ModelReply:
    """A model reply that ends the run with ``text``."""
    return ModelReply(text=text)


def done() -> ModelReply:
    """The reply a model gives when it has nothing more to do."""
    return ModelReply(text="Done.")


class FakeModel:
    """Replies in order; ``Done.`` once the script runs out.  Records every input."""

    def __init__(self, replies: Iterable[ModelReply] = ()) -> None:
        self.replies: list[ModelReply] = list(replies)
        self.inputs: list[list[dict[str, object]]] = []

    def push(self, *replies: ModelReply) -> None:
        """Append replies to the script."""
        self.replies.extend(replies)

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        """The next scripted reply."""
        self.inputs.append([copy.deepcopy(dict(m)) for m in messages])
        return self.replies.pop(0) if self.replies else done()


@dataclass(frozen=True)
class Invocation:
    """One run of a tool body: a side effect that landed."""

    tool: str
    args: object
    call_id: str | None
    run_id: str


@dataclass
class FakeWorld:
    """Tool bodies: each tool's behaviour maps its arguments to an outcome; by default
    a tool succeeds with ``{"ok": true}``.  Every invocation is recorded."""

    behaviours: dict[str, ToolBody] = field(default_factory=dict)
    invocations: list[Invocation] = field(default_factory=list)

    def returns(self, tool: str, output: object = None, error: str | None = None) -> None:
        """Make ``tool`` always return ``output`` (or fail with ``error``)."""
        self.behaviours[tool] = lambda _args: ToolOutcome(output=output, error=error)

    def invoke(
        self, tool: str, args: object, tool_call_id: str | None, *, turn_id: str, run_id: str
    ) -> ToolOutcome:
        """Run the body of ``tool``."""
        self.invocations.append(Invocation(tool, copy.deepcopy(args), tool_call_id, run_id))
        behaviour = self.behaviours.get(tool)
        return behaviour(args) if behaviour else ToolOutcome(output={"ok": True})

    def of(self, tool: str) -> list[object]:
        """The arguments of every invocation of ``tool``, in order."""
        return [i.args for i in self.invocations if i.tool == tool]


class Rig:
    """One database file and the world around the runtime that uses it."""

    def __init__(
        self,
        path: Path,
        tools: Sequence[ToolSpec] = (),
        *,
        components: Components | None = None,
        model: Model | None = None,
        expose: Mapping[str, bool] | None = None,
        bounds: Bounds | None = None,
    ) -> None:
        self.components = components
        path.mkdir(parents=True, exist_ok=True)
        self.path = path / "runtime.db"
        self.model = FakeModel()
        #: what drives the runtime: the scripted model unless another one is given
        self.driver: Model = model or self.model
        self.world = FakeWorld()
        self.recorder = Recorder()
        self.seams = Seams()
        self._taken_warnings: list[dict[str, object]] = []
        #: the turn and conversation of the last :meth:`start`
        self.turn = ""
        self.conversation_id = ""
        self.workflow = Workflow(
            tools=tuple(tools), expose=dict(expose or {}), bounds=bounds or Bounds()
        )
        self.runtime = self.boot()

    def boot(self) -> Runtime:
        """A runtime on the rig's file (a restart when the file exists)."""
        return Runtime(
            self.path,
            model=self.driver,
            world=self.world,
            observer=self.recorder,
            seams=self.seams,
            components=self.components,
        )

    def restart(self) -> Runtime:
        """Drop the runtime as a dead process would, and boot a new one on the same file."""
        self.runtime.close()
        self.runtime = self.boot()
        return self.runtime

    def close(self) -> None:
        """Release the database."""
        self.runtime.close()

    def conversation(self) -> str:
        """A new conversation running the rig's workflow."""
        return self.runtime.create_conversation(self.workflow)

    def start(
        self, message: str = "go", conversation: str | None = None, entry_point: str = "chat"
    ) -> str:
        """Start a turn (in a new conversation unless one is given); returns its id."""
        self.conversation_id = conversation or self.conversation()
        try:
            self.runtime.start_turn(self.conversation_id, message, entry_point)
        finally:  # known even when the turn's run killed the process
            self.turn = self.runtime.turns(self.conversation_id)[-1]
        return self.turn

    def runs(self) -> list[Record]:
        """The run records observed since the last call (oldest first)."""
        runs, warnings = self.recorder.take()
        self._taken_warnings.extend(warnings)
        return runs

    @property
    def warnings(self) -> list[dict[str, object]]:
        """Every warning observed so far."""
        return [*self._taken_warnings, *self.recorder.warnings]

    def view(self, turn_id: str) -> Record:
        """The turn as the wire reports it."""
        return self.runtime.turn_view(turn_id)

    def poll(self) -> Record:
        """The poll of the conversation of the last :meth:`start`."""
        return self.runtime.poll(self.conversation_id)

    def status(self, turn_id: str) -> str:
        """The turn's status as the wire reports it."""
        return str(self.runtime.turn_view(turn_id)["status"])


def hypothesis_settings(max_examples: int) -> settings:
    """A modest budget; derandomized on CI so that a run there is reproducible."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=bool(os.environ.get("CI")),
        database=None,
    )


def results(runs: Sequence[Record]) -> list[Record]:
    """Every call result of every pass of ``runs``, in order."""
    return [result for run in runs for record in run["passes"] for result in record["results"]]


def assistant_rows(view: Mapping[str, object]) -> list[Record]:
    """The assistant message rows of a turn read."""
    rows = view["messages"]
    assert isinstance(rows, list)
    return [row for row in rows if row["role"] == "assistant"]


def interrupted_after(
    rig: Rig,
    first: ModelReply,
    point: str = "after_tool_done",
    cause: str = "time_limit",
    tool: str | None = None,
    occurrence: int = 1,
) -> str:
    """Start a turn whose first run, replying ``first``, is cut at ``point``; the runs
    recorded so far are consumed."""
    rig.model.push(first)
    rig.seams.arm(point, cause, tool, occurrence)
    turn = rig.start()
    rig.runs()
    return turn


def resumed_runs(rig: Rig) -> list[Record]:
    """The resumed chunks among the runs recorded since the last take."""
    return [run for run in rig.runs() if "resume" in run]


def cut_model_calls(rig: Rig, count: int, cause: str = "time_limit") -> None:
    """Cut each of the next ``count`` model calls."""
    for _ in range(count):
        rig.seams.arm("during_model_call", cause)


def causes(rig: Rig, turn: str) -> list[str]:
    """The causes of the turn's runs, oldest first, as stored."""
    return [run.cause for run in records.list_runs(rig.runtime.store.read(), turn)]


def ending(rig: Rig, turn: str) -> Record:
    """How a turn stands: its automatic continuations and whether Continue is offered."""
    return {
        "automatic_continuations": causes(rig, turn).count("auto_continue"),
        "continue_available": rig.view(turn)["continueOffered"],
    }
