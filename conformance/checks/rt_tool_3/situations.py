"""The situations RT-TOOL-3's clauses name."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import ClauseSituation, NodeOutput, Situation, node_outputs, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

#: The keys a port entry is built of (RT-TOOL-3 ¶1).
_PORT_KEYS = frozenset({"type", "payload", "tool_call_id"})


def _several_calls_in_a_pass(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """One pass of the tool-invoking node in which two or more calls attached artifacts."""
    attaching: dict[int, int] = {}
    for made in node_outputs(scenario, trace):
        if made.attached:
            attaching[id(made.one)] = attaching.get(id(made.one), 0) + 1
    return any(count > 1 for count in attaching.values())


def _attached_entry(test: Callable[[Mapping[str, object]], bool]) -> Situation:
    """A successful call attached an entry of which ``test`` holds."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(
            isinstance(entry, Mapping) and test(entry)
            for made in node_outputs(scenario, trace)
            for entry in made.attached
        )

    return reached


def _delivered_with_port(exposed: bool) -> Situation:
    """A run collected artifacts in a pass that reports ``tool_artifacts`` exposed (or not),
    on a harness that applies the author's exposure choices (``port_exposure``): a harness
    that ignores them leaves the port at its default whatever the author chose."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if not handshake.capabilities.port_exposure:
            return False
        return any(
            made.attached and _reported_exposed(made) is exposed
            for made in node_outputs(scenario, trace)
        )

    return reached


def _reported_exposed(made: NodeOutput) -> bool | None:
    """Whether the pass of ``made`` reports ``tool_artifacts`` exposed (``None``: it says
    nothing of it)."""
    exposed = made.one.exposed
    said = exposed.get("tool_artifacts") if isinstance(exposed, Mapping) else None
    return said if isinstance(said, bool) else None


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "surfaces every call's artifacts on a dedicated `tool_artifacts` output port"
    situation("RT-TOOL-3#c1", "several calls' artifacts from one pass", _several_calls_in_a_pass),
    # ¶1: "so a tool can neither override the real `tool_call_id` nor smuggle keys of its
    # own through"
    situation(
        "RT-TOOL-3#c1",
        "an entry carrying a tool_call_id of its own",
        _attached_entry(lambda entry: "tool_call_id" in entry),
    ),
    situation(
        "RT-TOOL-3#c1",
        "an entry carrying keys of its own",
        _attached_entry(lambda entry: not set(entry) <= _PORT_KEYS),
    ),
    # ¶4: "must not depend on whether the author exposed the port"
    situation(
        "RT-TOOL-3#c4", "a run's artifacts with the port exposed", _delivered_with_port(True)
    ),
    situation(
        "RT-TOOL-3#c4",
        "a run's artifacts with the port not exposed",
        _delivered_with_port(False),
    ),
)


WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-3#c2": (
        "one behaviour (the port not exposed) in one circumstance, an author who made no "
        "choice for it"
    ),
    "RT-TOOL-3#c3": (
        "one behaviour (prose from `data` alone) in one circumstance, a result carrying "
        "artifacts fed back to the model"
    ),
}
