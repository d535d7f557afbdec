"""Shapes of tool results and their artifacts: where a runtime keeps them, what it
attaches, what its tool node emits (RT-TOOL-1 … RT-TOOL-5)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

from reference_impl.artifacts import RESERVED_KEY, ArtifactPolicy
from reference_impl.behaviour import Behaviour, Components
from reference_impl.passes import Call, PassContext, PassResult, ToolNode
from reference_impl.records import MessageRow, TurnRow
from reference_impl.shapes._model import Shape
from reference_impl.shapes._ports import pass_without
from reference_impl.wire import Wire
from reference_impl.workflow import ToolSpec

__all__ = ["SHAPES"]


class _ArtifactsOnTheTurnOnly(Wire):
    """Keeps a run's artifacts on the turn's result and shows them there only: no message
    row carries them (the runtime stores them with the run's output)."""

    def message_row(self, message: MessageRow) -> dict[str, object]:
        row = super().message_row(message)
        row.pop("toolArtifacts", None)
        return row

    def turn(
        self, turn: TurnRow, messages: Sequence[MessageRow], *, continue_offered: bool
    ) -> dict[str, object]:
        view = super().turn(turn, messages, continue_offered=continue_offered)
        view["toolArtifacts"] = [item for m in messages for item in m.tool_artifacts or []]
        return view


class _EmptyKeyKept(ArtifactPolicy):
    """Keeps the ``artifacts`` key on a result whose output carried the reserved key, even
    when nothing well-formed was on it."""

    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if success and isinstance(output, Mapping) and RESERVED_KEY in output:
            result.setdefault(RESERVED_KEY, [])
        return result


class _KeepsEveryEntry(ArtifactPolicy):
    """Keeps every entry of the reserved list, well formed or not, all the way to the
    port and the message (a port entry is still built key by key)."""

    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        data, _ = super().lift(output)  # the data without the reserved key, as always
        raw = output.get(RESERVED_KEY) if isinstance(output, Mapping) else None
        kept: list[object] = list(raw) if isinstance(raw, list) else []
        return data, kept  # type: ignore[return-value]  # entries are kept as they came

    def port_entries(
        self, result: Mapping[str, object], tool_call_id: str | None
    ) -> list[dict[str, object]]:
        attached = result.get(RESERVED_KEY)
        if not isinstance(attached, list):
            return []
        return [
            {"type": e.get("type"), "payload": e.get("payload"), "tool_call_id": tool_call_id}
            if isinstance(e, Mapping)
            else {"type": None, "payload": e, "tool_call_id": tool_call_id}
            for e in attached
        ]


class _FailedCallKeepsArtifacts(ArtifactPolicy):
    """Keeps what a failing call emitted before it failed on its result (and so collects
    and delivers it)."""

    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        result = super().tool_result(success=success, output=output, error=error)
        if not success:
            _, lifted = self.lift(output)
            if lifted:
                result[RESERVED_KEY] = lifted
        return result


class _WrapsBareValues(ArtifactPolicy):
    """Wraps a tool's return value that is not a map as ``{"result": value}``."""

    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        wrapped = output if not success or isinstance(output, Mapping) else {"result": output}
        return super().tool_result(success=success, output=wrapped, error=error)


class _NoArtifactsPort(ToolNode):
    """Emits no ``tool_artifacts`` port: the artifacts still reach the tool result and the
    run's collection, but the node pairs none of them with its call on a port."""

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        return pass_without(
            ("tool_artifacts",), lambda: super(_NoArtifactsPort, self).run_pass(ctx, batch)
        )


class _SurfacesWithoutCollecting(ToolNode):
    """Surfaces each call's artifacts on ``tool_artifacts`` and hands nothing to a
    collection: they stay on the tool results and the port, and never reach a message."""

    def __init__(self) -> None:
        super().__init__()
        self._surfaced = threading.local()  # per thread: two clients may run passes at once

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        self._surfaced.entries = []
        try:
            done = super().run_pass(ctx, batch)
        except BaseException as cut:
            partial = getattr(cut, "partial_pass", None)
            if isinstance(partial, dict):
                partial["ports"] = {**partial["ports"], "tool_artifacts": self._surfaced.entries}
            raise
        ports = {**done.record["ports"], "tool_artifacts": self._surfaced.entries}  # type: ignore[dict-item]
        return PassResult({**done.record, "ports": ports}, done.tool_messages, [], done.paused_on)

    def collect(
        self, ctx: PassContext, call: Call, tool: ToolSpec, result: Mapping[str, object]
    ) -> None:
        self._surfaced.entries.extend(self.policy.port_entries(result, call.id))


class _CollectsNothing(Behaviour):
    def collects_artifacts(self) -> bool:
        return False

    def opens_collection(self, entry_point: str) -> bool:
        return False


def _policy(policy: type[ArtifactPolicy]) -> Components:
    return Components(node=ToolNode(policy=policy()))


_RT4_LAST = (
    '"The artifacts a run collected are persisted on the last assistant message that run '
    'wrote, once per run" (RT-TOOL-4 ¶1)'
)

SHAPES: tuple[Shape, ...] = (
    Shape(
        "artifacts-on-the-turn-result-only",
        "gap",
        "a run's artifacts are kept with the run and shown on the turn's result "
        "(toolArtifacts of the turn read), never on an assistant message",
        ("Agno (RunOutput.files: files a run produced, on the run's output)",),
        ("RT-TOOL-4#c1", "RT-TOOL-7#c2"),
        f"breaks {_RT4_LAST}: no message carries them; and, on its own words, RT-TOOL-7 ¶2 "
        '("delivers the merged list on the resumed turn\'s assistant message"): what a pause '
        "held is delivered on the turn's result instead. The turn's result still lists every "
        "artifact once (RT-TOOL-4 ¶2), and no message puts them in its metadata (¶3)",
        lambda: Components(wire=_ArtifactsOnTheTurnOnly()),
    ),
    Shape(
        "empty-artifacts-key-kept",
        "gap",
        "a result whose output carried the reserved key keeps an `artifacts` key even when "
        "nothing was attached (an empty list, a value that is not a list, only malformed "
        "entries)",
        (
            "LangGraph (ToolMessage.artifact)",
            "PydanticAI (ToolReturn.metadata)",
        ),
        ("RT-TOOL-1#c2",),
        'breaks "carries an additional `artifacts` key, present only when at least one '
        'artifact was attached, so an artifact-free result keeps the plain three-key shape" '
        "(RT-TOOL-1 ¶2)",
        lambda: _policy(_EmptyKeyKept),
    ),
    Shape(
        "malformed-entries-kept",
        "gap",
        "every entry of the reserved list is kept on the result, the port and the message, "
        "well formed or not (a port entry is still exactly type, payload and tool_call_id)",
        ("LangGraph (ToolNode)", "PydanticAI (ToolReturn.metadata)", "ADK (artifacts)"),
        ("RT-TOOL-2#c3",),
        'breaks "an entry with a string `type` and a map `payload` is kept, and any other '
        'entry is dropped without failing the call" (RT-TOOL-2 ¶3); what the port, the '
        "collection and the message then carry follows from the entries kept",
        lambda: _policy(_KeepsEveryEntry),
    ),
    Shape(
        "failed-call-keeps-artifacts",
        "gap",
        "a call that fails keeps the artifacts it emitted before it failed, on its result, "
        "its port and its turn's message",
        ("ADK (artifacts saved before a tool answered with an error stay saved)",),
        ("RT-TOOL-2#c5",),
        'breaks "A call that failed or was declined carries no artifacts" (RT-TOOL-2 ¶5)',
        lambda: _policy(_FailedCallKeepsArtifacts),
    ),
    Shape(
        "bare-values-wrapped-as-result",
        "legal",
        "a tool's return value that is not a map becomes the result's data as {\"result\": "
        "value}; a map is its data as it is",
        ("ADK (a non-map return value is wrapped as {'result': value})",),
        ("RT-TOOL-1#c1", "RT-TOOL-1#c3"),
        'RT-TOOL-1 ¶1 fixes the result\'s keys ("A tool result is `{success, data, error}`"), '
        "not that data is the tool's bare value, and the rules' own example wraps one so: "
        'RT-TOOL-3\'s result carries "data": { "result": "Created node 5 (draft)." }. A '
        "value that is not a map carries no reserved key, so nothing is folded into data "
        "(RT-TOOL-1 ¶3)",
        lambda: _policy(_WrapsBareValues),
    ),
    Shape(
        "no-tool-artifacts-port",
        "gap",
        "the tool node emits no tool_artifacts port; artifacts still reach the tool result "
        "and the turn's message",
        ("LangGraph (ToolNode)", "PydanticAI", "ADK"),
        ("RT-TOOL-3#c1",),
        "breaks \"A node that invokes tools surfaces every call's artifacts on a dedicated "
        '`tool_artifacts` output port" (RT-TOOL-3 ¶1); its exposure (¶2) cannot be judged '
        "without it, and delivery (¶4) does not depend on it",
        lambda: Components(node=_NoArtifactsPort()),
    ),
    Shape(
        "collects-no-artifacts",
        "legal",
        "the runtime keeps no per-run collection (and declares collects_artifacts: false): "
        "artifacts stay on the tool results and the tool_artifacts port, and no message or "
        "turn result carries them",
        ("LangGraph", "PydanticAI", "ADK (each harness declares collects_artifacts: false)"),
        ("RT-TOOL-5#c1", "RT-TOOL-4#c1", "RT-TOOL-3#c4"),
        '"An implementation need not collect tool artifacts at all" (RT-TOOL-5 ¶1); RT-TOOL-4 '
        'persists "The artifacts a run collected", none here; the port still carries every '
        "call's artifacts whether or not it is exposed (RT-TOOL-3 ¶1, ¶4)",
        lambda: Components(behaviour=_CollectsNothing(), node=_SurfacesWithoutCollecting()),
    ),
)
