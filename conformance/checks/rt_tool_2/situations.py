"""The situations RT-TOOL-2's clauses name."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import ClauseSituation, Situation, situation

__all__ = ["SITUATIONS"]


def _ran_with_port(exposed: bool) -> Situation:
    """A call ran of a tool whose author made this exposure choice, on a harness that
    applies the author's exposure choices (``port_exposure``): a harness that ignores
    them runs every tool the same way, and reaches neither choice."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if not handshake.capabilities.port_exposure:
            return False
        chosen = {t.name for t in scenario.tools if t.expose_artifacts_port is exposed}
        return any(
            result.tool in chosen and result.disposition == "executed"
            for _, one in trace.passes()
            for result in one.results
        )

    return reached


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "survives whether or not the author exposed the port"
    situation("RT-TOOL-2#c2", "the tool's artifacts port exposed", _ran_with_port(True)),
    situation("RT-TOOL-2#c2", "the tool's artifacts port not exposed", _ran_with_port(False)),
)
