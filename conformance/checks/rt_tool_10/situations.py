"""The situations RT-TOOL-10's clauses name, read from the batches the passes received (what
the suite sent, not what the pass reported of it): a call a harness never lets reach the
runtime's tool node (a malformed one its framework cannot even represent, say) reaches
nothing.  A call is handled for the first time unless an earlier pass of its stretch of
the turn handled its identifier (:func:`conformance.toolkit.stretches`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, Trace
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    identifier,
    ran_unidentified,
    situation,
    stretches,
    well_formed,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

History = frozenset[str]


def _handled(one: PassRecord) -> set[str]:
    """The identifiers a pass handled: every call of its batch where it ran to its end,
    else those it reported a result for (a pass paused midway left the rest waiting)."""
    if not one.cut and not one.paused:
        return {
            call_id
            for call in well_formed(one.batch)
            if isinstance(call_id := identifier(call), str)
        }
    return {r.model_call_id for r in one.results if isinstance(r.model_call_id, str)}


def _pass(
    holds: Callable[[Scenario, PassRecord, History], bool], *, to_its_end: bool = False
) -> Situation:
    """Reached where ``holds`` of some pass of the trace (with ``to_its_end``, one that ran
    to its end: what it handled is judged), given the identifiers earlier passes of its
    stretch of the turn handled.  What a pass was sent is shown by its batch however the
    pass ended (a run the runtime failed on a call it was sent was sent that call)."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        stretch = stretches(trace)
        handled: dict[tuple[str, str, int], set[str]] = {}
        for run, one in trace.passes():
            before = handled.setdefault(stretch[run.id], set())
            if not (to_its_end and one.cut) and holds(scenario, one, frozenset(before)):
                return True
            before |= _handled(one)
        return False

    return reached


def _first_time(scenario: Scenario, one: PassRecord, before: History) -> bool:
    """A call sent without an identifier, or under one no earlier pass of the stretch
    handled."""
    return any(
        not isinstance(call_id := identifier(call), str) or call_id not in before
        for call in well_formed(one.batch)
    )


def _only_repeats(scenario: Scenario, one: PassRecord, before: History) -> bool:
    """A batch of calls every one of which an earlier pass of the stretch handled."""
    calls = well_formed(one.batch)
    return bool(calls) and all(identifier(call) in before for call in calls)


def _unwired(scenario: Scenario, one: PassRecord, before: History) -> bool:
    """A call naming a tool the scenario does not wire."""
    wired = {tool.name for tool in scenario.tools}
    return any(str(call.get("name")) not in wired for call in well_formed(one.batch))


def _without_identifier(scenario: Scenario, one: PassRecord, before: History) -> bool:
    """A well-formed call without an identifier."""
    return any(identifier(call) is None for call in well_formed(one.batch))


def _sent_without_identifier(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A well-formed call without an identifier, in a pass's batch or, where the run
    failed before reporting its pass, shown by its body that ran under no identifier."""
    return ran_unidentified(trace) or _pass(_without_identifier)(scenario, trace, handshake)


def _guarded(scenario: Scenario, one: PassRecord, before: History) -> bool:
    """A well-formed call with an identifier: one that reaches the guard."""
    return any(isinstance(identifier(call), str) for call in well_formed(one.batch))


def _empty(scenario: Scenario, one: PassRecord, before: History) -> bool:
    return not one.batch


def _at_default(scenario: Scenario, one: PassRecord, before: History) -> bool:
    """The author chose nothing for ``executed_any`` nor ``executed``."""
    expose = scenario.node.expose if scenario.node is not None else None
    chosen = expose if isinstance(expose, Mapping) else {}
    return "executed_any" not in chosen and "executed" not in chosen


def _name(call: object) -> tuple[bool, object]:
    """Whether ``call`` is a map, and its name."""
    return isinstance(call, Mapping), call.get("name") if isinstance(call, Mapping) else None


def _not_a_map(scenario: Scenario, one: PassRecord, before: History) -> bool:
    return any(not _name(call)[0] for call in one.batch)


def _blank_name(scenario: Scenario, one: PassRecord, before: History) -> bool:
    return any(
        is_map and isinstance(name, str) and not name.strip()
        for is_map, name in map(_name, one.batch)
    )


def _name_not_a_scalar(scenario: Scenario, one: PassRecord, before: History) -> bool:
    # A boolean name is left open (docs/interpretations.md, malformed-calls): not counted.
    return any(
        is_map and (name is None or isinstance(name, Mapping | list))
        for is_map, name in map(_name, one.batch)
    )


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "reports `executed_any` [...] and `executed`, the call identifiers behind it, the
    # complement of the `skipped` list": the calls that reach the guard
    situation("RT-TOOL-10#c1", "a pass over calls with identifiers", _pass(_guarded)),
    # ¶2: "true when at least one call was handled for the first time in this run"
    situation(
        "RT-TOOL-10#c2",
        "a pass with a call handled for the first time",
        _pass(_first_time, to_its_end=True),
    ),
    situation(
        "RT-TOOL-10#c2",
        "a pass with no call handled for the first time",
        _pass(_only_repeats, to_its_end=True),
    ),
    # ¶2: "which includes a call naming a tool that is not wired"
    situation("RT-TOOL-10#c2", "a call naming a tool that is not wired", _pass(_unwired)),
    # ¶3: "An empty batch reports false"
    situation("RT-TOOL-10#c3", "a pass over an empty batch", _pass(_empty)),
    # ¶4: "a call with no identifier always runs and appears in neither"
    situation("RT-TOOL-10#c4", "a call with no identifier", _sent_without_identifier),
    # ¶4: "a malformed call (one that is not a map, or whose name is blank or not a scalar)"
    situation("RT-TOOL-10#c4", "a call that is not a map", _pass(_not_a_map)),
    situation("RT-TOOL-10#c4", "a call whose name is blank", _pass(_blank_name)),
    situation("RT-TOOL-10#c4", "a call whose name is not a scalar", _pass(_name_not_a_scalar)),
    # ¶5: "`executed_any` is exposed by default; `executed` is not"
    situation("RT-TOOL-10#c5", "a pass with these ports left at their default", _pass(_at_default)),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
