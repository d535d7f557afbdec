"""The situations RT-TOOL-2's clauses name.

What a call's node emitted on the reserved key is read from the scenario, never from
what the implementation made of it (:func:`conformance.toolkit.node_outputs`): a
situation is the circumstance, not the verdict.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Decline, Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    kept_entry,
    mapping,
    node_outputs,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _reserved_key(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call's node output carried the reserved key, whatever it held."""
    return any(made.has_reserved_key for made in node_outputs(scenario, trace))


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


def _entry_on_a_successful_call(well_formed: bool) -> Situation:
    """A successful call whose node emitted an entry that is (or is not) a map with a
    string ``type`` and a map ``payload``."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(
            not made.failed and any(kept_entry(entry) is well_formed for entry in made.entries)
            for made in node_outputs(scenario, trace)
        )

    return reached


def _not_a_list(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A successful call whose node output carries the reserved key holding no list."""
    return any(
        made.has_reserved_key
        and not made.failed
        and not isinstance(mapping(made.returned.output).get("artifacts"), list)
        for made in node_outputs(scenario, trace)
    )


def _reserved_key_on(failed: bool, kept: bool) -> Situation:
    """A call whose node output carries the reserved key: a failed call, or a successful
    one on which some entry is (or no entry is) kept."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(
            made.has_reserved_key
            and made.failed is failed
            and (failed or bool(made.attached) is kept)
            for made in node_outputs(scenario, trace)
        )

    return reached


def _failed_after_emitting(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call failed whose node had emitted well-formed entries before failing: the
    artifacts the clause says it must not carry existed."""
    return any(
        made.failed and any(kept_entry(entry) for entry in made.entries)
        for made in node_outputs(scenario, trace)
    )


def _declined(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """The operator declined a gated call: a decline the implementation accepted, for a
    turn an earlier pass of which was sent a call of a gated tool (whatever the pass then
    reported of it)."""
    gated = {tool.name for tool in scenario.tools if tool.gate}
    sent: set[tuple[str, str]] = set()
    for played, record in zip(scenario.steps, trace.steps, strict=False):
        if (
            isinstance(played, Decline)
            and record.outcome == "ok"
            and any(label == played.turn for _, label in sent)
        ):
            return True
        for run in record.runs:
            if any(
                isinstance(call, Mapping) and call.get("name") in gated
                for one in run.passes
                for call in one.batch
            ):
                sent.add((run.conversation, run.turn))
    return False


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "A tool node's output may carry the reserved `artifacts` key"
    situation("RT-TOOL-2#c1", "a node output carrying the reserved key", _reserved_key),
    # ¶2: "survives whether or not the author exposed the port"
    situation("RT-TOOL-2#c2", "the tool's artifacts port exposed", _ran_with_port(True)),
    situation("RT-TOOL-2#c2", "the tool's artifacts port not exposed", _ran_with_port(False)),
    # ¶3: "an entry with a string `type` and a map `payload` is kept, and any other entry
    # is dropped without failing the call"
    situation(
        "RT-TOOL-2#c3",
        "a well-formed entry on a successful call's output",
        _entry_on_a_successful_call(True),
    ),
    situation(
        "RT-TOOL-2#c3",
        "a malformed entry on a successful call's output",
        _entry_on_a_successful_call(False),
    ),
    # ¶3: "any other entry is dropped without failing the call": a key holding no list
    # has no entry to keep
    situation("RT-TOOL-2#c3", "the reserved key holding no list on a successful call", _not_a_list),
    # ¶4: "The reserved key is always removed from the result's `data`": whatever ¶3 made
    # of it ("On a successful call those entries are lifted"): entries kept, none kept
    # ("even a node that emitted nothing valid on it"), or a call that did not succeed
    situation(
        "RT-TOOL-2#c4",
        "the reserved key on a successful call, entries kept",
        _reserved_key_on(failed=False, kept=True),
    ),
    situation(
        "RT-TOOL-2#c4",
        "the reserved key on a successful call, nothing kept",
        _reserved_key_on(failed=False, kept=False),
    ),
    situation(
        "RT-TOOL-2#c4",
        "the reserved key on a failed call",
        _reserved_key_on(failed=True, kept=False),
    ),
    # ¶5: "A call that failed or was declined carries no artifacts"
    situation(
        "RT-TOOL-2#c5",
        "a call that failed after its node emitted artifacts",
        _failed_after_emitting,
    ),
    situation("RT-TOOL-2#c5", "a declined call", _declined),
)


WITHOUT_SITUATIONS: dict[str, str] = {}
