"""Shapes of how a runtime answers a call it cannot run: a tool that is not wired, a name
that is blank (RT-TOOL-10 ¶2, ¶4)."""

from __future__ import annotations

from reference_impl.behaviour import Components
from reference_impl.passes import Call, PassContext, ToolNode
from reference_impl.shapes._model import Shape

__all__ = ["SHAPES", "UnknownToolCalled"]


class UnknownToolCalled(Exception):
    """The model called a tool the runtime does not have, and the runtime fails the run."""


class _UnknownFirst(ToolNode):
    """Answers every call of the batch naming a tool that is not wired before any body
    runs (the batch's calls are validated as a whole first), then handles the rest in
    order; results come in the order they were made."""

    def _unwired(self, ctx: PassContext, raw: object) -> bool:
        call = self.parse_call(raw)
        return call is not None and ctx.workflow.tool(call.name) is None

    def _each_call(
        self,
        ctx: PassContext,
        batch: list[object],
        results: list[dict[str, object]],
        messages: list[dict[str, object]],
        executed: list[str],
        skipped: list[str],
    ) -> None:
        unwired = [raw for raw in batch if self._unwired(ctx, raw)]
        wired = [raw for raw in batch if not self._unwired(ctx, raw)]
        super()._each_call(ctx, unwired, results, messages, executed, skipped)
        super()._each_call(ctx, wired, results, messages, executed, skipped)


class _BlankNamesAnswered(ToolNode):
    """Takes a call whose name is blank for a call of a tool that does not exist, and
    answers it as one, instead of dropping it before the guard."""

    def call_name(self, value: object) -> str | None:
        if isinstance(value, str) and not value.strip():
            return value
        return super().call_name(value)


class _UnknownAndBlankFirst(_UnknownFirst, _BlankNamesAnswered):
    """Both: unwired and blank names are answered first, for the whole batch."""


class _UnknownDropped(ToolNode):
    """Drops a call naming a tool that is not wired, as a malformed call is dropped: no
    result, no tool message, not in executed."""

    def _each_call(
        self,
        ctx: PassContext,
        batch: list[object],
        results: list[dict[str, object]],
        messages: list[dict[str, object]],
        executed: list[str],
        skipped: list[str],
    ) -> None:
        wired = [
            raw
            for raw in batch
            if (call := self.parse_call(raw)) is None or ctx.workflow.tool(call.name) is not None
        ]
        super()._each_call(ctx, wired, results, messages, executed, skipped)


class _UnknownFailsTheRun(ToolNode):
    """Fails the whole run when the model calls a tool that is not wired."""

    def handle(self, ctx: PassContext, call: Call) -> tuple[str, dict[str, object], str, object]:
        if ctx.workflow.tool(call.name) is None:
            raise UnknownToolCalled(f"tool {call.name!r} not found")
        return super().handle(ctx, call)


class _UnknownInItsOwnWords(ToolNode):
    """Answers a call of a tool that is not wired with a recoverable error in words of its
    own, naming the tools that are available."""

    def handle(self, ctx: PassContext, call: Call) -> tuple[str, dict[str, object], str, object]:
        if ctx.workflow.tool(call.name) is not None:
            return super().handle(ctx, call)
        available = ", ".join(tool.name for tool in ctx.workflow.tools)
        result = self.policy.tool_result(
            success=False,
            output=None,
            error=f"Model tried to call unavailable tool '{call.name}'. "
            f"Available tools: {available}.",
        )
        return (*self.finish(ctx, call, "unknown_tool", result), None)


_RT10_4 = (
    '"a malformed call (one that is not a map, or whose name is blank or not a scalar) is '
    'dropped before the guard, appears in neither, and leaves `executed_any` false" '
    "(RT-TOOL-10 ¶4)"
)
_RT10_2 = (
    '"`executed_any` is true when at least one call was handled for the first time in this '
    "run, which includes a call naming a tool that is not wired: nothing was invoked, but "
    'the recoverable "not an available tool" result is new and the model must re-plan '
    'against it" (RT-TOOL-10 ¶2)'
)

SHAPES: tuple[Shape, ...] = (
    Shape(
        "unknown-tools-answered-first",
        "legal",
        "the calls of a batch that name no wired tool are answered, for the whole batch, "
        "before any body runs; the pass lists results in the order it made them",
        ("Vercel AI SDK (tool calls are parsed and checked before any is executed)",),
        ("RT-TOOL-10#c1", "RT-TOOL-10#c2"),
        "every call still gets its recoverable result and counts as handled for the first "
        f"time ({_RT10_2}); no clause orders a pass's results or says which call of a batch "
        "is handled first",
        lambda: Components(node=_UnknownFirst()),
    ),
    Shape(
        "unknown-and-blank-names-answered-first",
        "gap",
        "as unknown-tools-answered-first, and a call whose name is blank is answered the "
        "same way, as a tool that does not exist, instead of being dropped",
        ("Vercel AI SDK",),
        ("RT-TOOL-10#c4",),
        f"breaks {_RT10_4}: the blank-named call is answered, listed in executed and sets "
        "executed_any; answering the others first is legal (see unknown-tools-answered-first)",
        lambda: Components(node=_UnknownAndBlankFirst()),
    ),
    Shape(
        "blank-names-answered",
        "gap",
        "a call whose name is blank is answered as a call of a tool that is not available, "
        "instead of being dropped before the guard",
        ("LangGraph (ToolNode)", "PydanticAI", "ADK (answered as <unnamed>)"),
        ("RT-TOOL-10#c4",),
        f"breaks {_RT10_4}",
        lambda: Components(node=_BlankNamesAnswered()),
    ),
    Shape(
        "unknown-tool-dropped",
        "gap",
        "a call naming a tool that is not wired is dropped like a malformed call: no "
        "result, no tool message, not in executed, executed_any untouched",
        (),
        ("RT-TOOL-10#c2",),
        f"breaks {_RT10_2}: the model gets no result to re-plan against and the pass says "
        "it did nothing",
        lambda: Components(node=_UnknownDropped()),
    ),
    Shape(
        "unknown-tool-fails-the-run",
        "gap",
        "a call naming a tool that is not wired fails the whole run (the step fails, the "
        "turn stops with Continue available)",
        (
            "OpenAI Agents SDK (ModelBehaviorError for a tool the agent does not have)",
            "Mastra (before it answered a hallucinated tool name with an error result)",
        ),
        ("RT-TOOL-10#c2",),
        f"breaks {_RT10_2}: no recoverable result is made, and no pass reports the call",
        lambda: Components(node=_UnknownFailsTheRun()),
    ),
    Shape(
        "unknown-tool-error-in-its-own-words",
        "legal",
        "a call naming a tool that is not wired gets a recoverable error in words of the "
        "runtime's own, listing the tools that are available",
        (
            "Vercel AI SDK (NoSuchToolError names the available tools)",
            "Mastra (the error result names the available tools)",
        ),
        ("RT-TOOL-10#c2",),
        'RT-TOOL-10 ¶2 quotes "not an available tool" as what the result means, a '
        "recoverable failure the model re-plans against; it fixes no wording, and the "
        "result is new, handled for the first time and listed in executed",
        lambda: Components(node=_UnknownInItsOwnWords()),
    ),
)
