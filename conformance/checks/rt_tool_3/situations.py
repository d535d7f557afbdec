"""The situations RT-TOOL-3's clauses name."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, Trace
from conformance.toolkit import (
    ClauseSituation,
    NodeOutput,
    Situation,
    kept_entry,
    node_outputs,
    situation,
)

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


def _authors_choice(scenario: Scenario, port: str) -> bool | None:
    """What the author chose for ``port`` on the tool-invoking node: exposed, not
    exposed, or nothing (``None``)."""
    expose = scenario.node.expose if scenario.node is not None else None
    chosen = expose.get(port) if isinstance(expose, Mapping) else None
    return chosen if isinstance(chosen, bool) else None


def _delivered_with_port(exposed: bool) -> Situation:
    """A run collected artifacts in a pass that reports ``tool_artifacts`` exposed (or not),
    on a harness that applies the author's exposure choices (``port_exposure``): a harness
    that ignores them leaves the port at its default whatever the author chose.  The
    pass's own report says which circumstance the node was in (the author's choice as it
    reached the node), as its batch says which calls it was sent."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if not handshake.capabilities.port_exposure:
            return False
        return any(
            made.attached and _reported_exposed(made.one) is exposed
            for made in node_outputs(scenario, trace)
        )

    return reached


def _reported_exposed(one: PassRecord) -> bool | None:
    """Whether the pass reports ``tool_artifacts`` exposed (``None``: it says nothing of
    it)."""
    said = one.exposed.get("tool_artifacts") if isinstance(one.exposed, Mapping) else None
    return said if isinstance(said, bool) else None


def _left_at_default(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A pass of a node whose author made no choice for ``tool_artifacts``."""
    return _authors_choice(scenario, "tool_artifacts") is None and any(True for _ in trace.passes())


def _fed_back(trace: Trace, made: NodeOutput) -> bool:
    """Whether the model was called after the pass of ``made``: a later pass of its run
    came from its reply, the run's last model call came after its passes (it did not end
    on a pass that paused midway), or a later run of the turn called the model."""
    run, one = made.run, made.one
    position = next((i for i, other in enumerate(run.passes) if other is one), None)
    if position is None:
        return False
    if position < len(run.passes) - 1:
        return True
    if run.model_inputs and run.end in ("completed", "paused") and not one.paused:
        return True
    runs = list(trace.runs())
    after = next(i for i, other in enumerate(runs) if other is run) + 1
    return any(
        other.model_inputs and (other.conversation, other.turn) == (run.conversation, run.turn)
        for other in runs[after:]
    )


def _emitted_then_fed_back(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call whose node emitted a well-formed entry on the reserved key (whether the call
    then succeeded or failed), with the model called after its pass."""
    return any(
        any(kept_entry(entry) for entry in made.entries) and _fed_back(trace, made)
        for made in node_outputs(scenario, trace)
    )


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "surfaces every call's artifacts on a dedicated `tool_artifacts` output port"
    situation(
        "RT-TOOL-3#c1",
        "a call that attached an artifact",
        _attached_entry(lambda entry: True),
    ),
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
    # ¶2: "That port is not exposed by default": a node whose author chose nothing for it
    situation("RT-TOOL-3#c2", "the port left at its default", _left_at_default),
    # ¶3: "The prose fed back to the model is built from a result's `data` alone and never
    # from its artifacts"
    situation(
        "RT-TOOL-3#c3",
        "a result of a call that emitted artifacts, fed back to the model",
        _emitted_then_fed_back,
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


WITHOUT_SITUATIONS: dict[str, str] = {}
