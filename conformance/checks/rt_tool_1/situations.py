"""The situations RT-TOOL-1's clauses name.  What a call's node attached is read from the
scenario (:func:`conformance.toolkit.node_outputs`), never from the result the
implementation made of it: a situation is the circumstance, not the verdict."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import ClauseSituation, Situation, node_outputs, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _result_reported(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A pass reported a tool result for some call, whatever became of the call."""
    return any(one.results for _, one in trace.passes())


def _call_attaching(some: bool) -> Situation:
    """An executed call whose node attached at least one artifact (a successful call with
    a well-formed entry on the reserved key), or attached none."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(bool(made.attached) is some for made in node_outputs(scenario, trace))

    return reached


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "A tool result is `{success, data, error}`": every result, whatever its call did
    situation("RT-TOOL-1#c1", "a call whose result is reported", _result_reported),
    # ¶2: "an additional `artifacts` key, present only when at least one artifact was
    # attached, so an artifact-free result keeps the plain three-key shape"
    situation("RT-TOOL-1#c2", "a call that attached an artifact", _call_attaching(True)),
    situation("RT-TOOL-1#c2", "a call that attached no artifact", _call_attaching(False)),
    # ¶3: "Artifacts are attached additively, and are never folded into `data`"
    situation("RT-TOOL-1#c3", "a call that attached an artifact", _call_attaching(True)),
)


WITHOUT_SITUATIONS: dict[str, str] = {}
