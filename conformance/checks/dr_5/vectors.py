"""DR-5's examples as vectors: repeated time limits, and how many automatic continuations
the turn makes before it waits for Continue."""

from __future__ import annotations

from adapters.scenario import Interrupt, StartTurn, Wait
from conformance.toolkit import (
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    located_continuations,
    mapping,
    one_turn,
    say,
    show,
    stopped_with_continue,
    turn,
    turn_pointer,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of DR-5's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("DR-5", "cut"): "input",
    ("DR-5", "capped"): "outcome",
}


def _capped(ctx: CheckContext, run: VectorRun) -> None:
    """DR-5: repeated time limits -> how many automatic continuations, and Continue."""
    cuts = int(str(mapping(run.value("cut")).get("time_limits")))
    trace = one_turn(
        ctx,
        "vector-cut-capped",
        tools=[],
        model=[say("done")],
        steps=[
            *(Interrupt("during_model_call", "time_limit") for _ in range(cuts)),
            StartTurn("t1"),
            Wait(),
        ],
    )
    final = turn(trace, "t1")
    got = {
        "automatic_continuations": len(located_continuations(trace, "t1", ("auto_continue",))),
        "continue_available": stopped_with_continue(ctx.handshake, final),
    }
    ctx.expect(
        got == run.value("capped"),
        f"the turn shows {show(got)}, the example says {show(run.value('capped'))} (DR-5 ¶3, ¶5)",
        at=turn_pointer(trace, "t1"),
        reading="stopped-with-continue",
    )


BINDINGS = (Binding("DR-5", ("cut", "capped"), ("DR-5#c3", "DR-5#c5"), _capped),)
