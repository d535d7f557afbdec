"""The situations RT-TOOL-1's clauses name."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import ClauseSituation, Situation, node_outputs, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _call_attaching(some: bool) -> Situation:
    """An executed call whose node attached at least one artifact (a successful call with
    a well-formed entry on the reserved key), or attached none."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(bool(made.attached) is some for made in node_outputs(scenario, trace))

    return reached


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "an additional `artifacts` key, present only when at least one artifact was
    # attached, so an artifact-free result keeps the plain three-key shape"
    situation("RT-TOOL-1#c2", "a call that attached an artifact", _call_attaching(True)),
    situation("RT-TOOL-1#c2", "a call that attached no artifact", _call_attaching(False)),
)


WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-1#c1": (
        "a definition of a tool result's shape, the same for every result: the text names "
        "no circumstance to tell apart"
    ),
    "RT-TOOL-1#c3": (
        "one behaviour (artifacts beside `data`, the two disjoint) of one circumstance, a "
        "call that attached artifacts"
    ),
}
