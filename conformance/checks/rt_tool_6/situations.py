"""The situations RT-TOOL-6's clauses name."""

from __future__ import annotations

import json

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    ClauseSituation,
    delivered_steps,
    mapping,
    read_from_the_implementation,
    situation,
)

__all__ = ["SITUATIONS"]

#: What a renderer would take for markup or a character reference.
_ACTIVE = ("<", ">", "&")


def _active(entry: object) -> bool:
    text = json.dumps(mapping(entry).get("payload"), ensure_ascii=False)
    return any(char in text for char in _ACTIVE)


def _markup_delivered(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A payload value that reads as markup or a character reference was delivered."""
    return any(_active(entry) for _, carried in delivered_steps(trace) for entry in carried)


def _markup_output(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Such a payload was output by the implementation itself: read from its own turn
    API, not from a wire its harness assembled."""
    return any(
        read_from_the_implementation(trace.steps[index], handshake)
        and any(_active(entry) for entry in carried)
        for index, carried in delivered_steps(trace)
    )


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶6: "treat every value in it as plain text and escape it on output"
    situation("RT-TOOL-6#c6", "a payload value reading as markup delivered", _markup_delivered),
    situation("RT-TOOL-6#c6", "such a payload output by the implementation", _markup_output),
)
