"""Running a scenario from a check, and reading a pass's ports and a call's results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from adapters.scenario import Bounds, Reply, StartTurn, Step, Tool
from adapters.trace import PassRecord, ToolResultRecord, Trace
from conformance.toolkit._context import CheckContext
from conformance.toolkit._json import mapping
from conformance.toolkit._outcomes import Untested
from conformance.toolkit._scenarios import scenario
from conformance.toolkit._traces import results, side_effects

__all__ = ["has_port", "one_result", "one_turn", "port", "ports", "reconciled_arguments"]


def one_turn(
    ctx: CheckContext,
    name: str,
    *,
    tools: Iterable[Tool],
    model: Iterable[Reply],
    steps: Sequence[Step] | None = None,
    expose: Mapping[str, bool] | None = None,
    bounds: Bounds | None = None,
) -> Trace:
    """Run a scenario that, by default, starts one turn ``t1``."""
    return ctx.run(
        scenario(
            name,
            tools=tools,
            model=model,
            expose=expose,
            bounds=bounds,
            steps=steps if steps is not None else [StartTurn("t1")],
        )
    )


def ports(one: PassRecord) -> Mapping[str, object]:
    """A pass's port values."""
    return mapping(one.ports)


def port(one: PassRecord, name: str) -> object:
    """One port's value (``None`` when the implementation did not report it)."""
    return ports(one).get(name)


def has_port(trace: Trace, name: str) -> bool:
    """Whether any pass of ``trace`` has the output port ``name``: reports a value for it,
    or says whether it is exposed.  A port that no pass has does not exist, which is the
    failure of the clause that provides it, and blocks every case that reads it."""
    return any(name in ports(one) or name in mapping(one.exposed) for _, one in trace.passes())


def one_result(ctx: CheckContext, trace: Trace, tool_call_id: str) -> ToolResultRecord:
    """The first tool result for ``tool_call_id``; fails the check when there is none."""
    found = results(trace, tool_call_id)
    if not found:
        ctx.fail(f"no tool result was reported for call {tool_call_id}")
    return found[0]


def reconciled_arguments(
    ctx: CheckContext, trace: Trace, call_id: str, tool: str, *, body: bool = False
) -> object:
    """What call ``call_id``'s arguments became (RT-TOOL-8): what the tool body received
    when it ran, else the result's reported ``arguments`` (the body does not run when the
    reconciled arguments fail the tool's schema).  With ``body``, the body must have run."""
    effects = side_effects(trace, tool)
    ctx.need(
        len(effects) <= 1,
        f"the tool body ran {len(effects)} times, expected once",
        expected=1,
        got=len(effects),
    )
    if effects:
        return effects[0].get("input")
    if body:
        ctx.fail("the tool body did not run: were the arguments refused?")
    found = results(trace, call_id)
    if found and found[0].arguments is not None:
        return found[0].arguments
    raise Untested(
        "the tool body did not run (its arguments failed its schema) and the "
        "harness does not report results' reconciled `arguments`"
    )
