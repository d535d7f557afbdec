"""RT-TOOL-10's examples as vectors: a batch sent again, and what its second pass reports."""

from __future__ import annotations

from conformance.toolkit import (
    GUARD_HOLDS,
    WORK_PORTS,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    calls,
    located_passes,
    mapping,
    one_turn,
    port,
    say,
    show,
    tool,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-10's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-10", "resent"): "input",
    ("RT-TOOL-10", "idle"): "outcome",
    ("RT-TOOL-10", "sent"): "input",
    ("RT-TOOL-10", "active"): "outcome",
}


def work(ctx: CheckContext, run: VectorRun, sent: str, outcome: str, port_name: str) -> None:
    """RT-TOOL-10: the calls the outcome does not name as new ran in an earlier pass; the
    second pass reports ``port_name``."""
    batch = array(mapping(run.value(sent)).get("tool_calls"))
    expected = run.value(outcome)
    fresh = {str(x) for x in array(expected)}
    earlier = [c for c in batch if str(mapping(c).get("tool_call_id")) not in fresh]
    names = {str(mapping(c).get("name")) for c in batch}
    trace = one_turn(
        ctx,
        f"vector-{sent}-{outcome}",
        tools=[tool(name, schema={}) for name in sorted(names)],
        model=[calls(*earlier), calls(*batch), say("done")],
    )
    passes = located_passes(trace)
    ctx.need(
        len(passes) == 2, f"two batches were sent, {len(passes)} tool passes reported", at="/steps"
    )
    at, _, second = passes[1]
    ctx.expect(
        port(second, port_name) == expected,
        f"the second pass reports {port_name} {show(port(second, port_name))}, the example says "
        f"{show(expected)}",
        at=f"{at}/ports/{port_name}",
        expected=expected,
        got=port(second, port_name),
    )


BINDINGS = (
    Binding(
        "RT-TOOL-10",
        ("resent", "idle"),
        ("RT-TOOL-10#c2",),
        lambda ctx, run: work(ctx, run, "resent", "idle", "executed_any"),
        # ¶1's port, read here by ¶2's example; the repeat is one only where the guard
        # skipped it (RT-TOOL-9 ¶1).
        through=(WORK_PORTS, GUARD_HOLDS),
    ),
    Binding(
        "RT-TOOL-10",
        ("sent", "active"),
        ("RT-TOOL-10#c1",),
        lambda ctx, run: work(ctx, run, "sent", "active", "executed"),
        through=(GUARD_HOLDS,),
    ),
)
