"""The situations RT-TOOL-4's clauses name."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    ClauseSituation,
    delivered_steps,
    read_from_the_implementation,
    situation,
)

__all__ = ["SITUATIONS"]


def _after_a_reload(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Artifacts read back on the wire after a restart step."""
    restarts = [index for index, step in enumerate(trace.steps) if step.op == "restart"]
    return bool(restarts) and any(index >= restarts[0] for index, _ in delivered_steps(trace))


def _from_the_turn_api(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Artifacts read back on the wire as the implementation itself reports its turns."""
    return any(
        read_from_the_implementation(trace.steps[index], handshake)
        for index, _ in delivered_steps(trace)
    )


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "so they survive a reload, and the turn API reports the same list"
    situation("RT-TOOL-4#c2", "a turn's artifacts read after a reload", _after_a_reload),
    situation("RT-TOOL-4#c2", "a turn's artifacts read from its turn API", _from_the_turn_api),
)
