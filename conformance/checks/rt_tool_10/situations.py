"""The situations RT-TOOL-10's clauses name, read from the batches the passes received
and the results they report: a call a harness never lets reach the runtime's tool node
(a malformed one its framework cannot even represent, say) reaches nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, Trace
from conformance.toolkit import ClauseSituation, Situation, identifier, paired, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

#: What a pass reports of a call it handled in neither way ¶2 speaks of: a repeat (RT-TOOL-9),
#: or a result reused from the durable-resume journal, which is not judged.
_NOT_NEW = frozenset({"skipped", "reused"})


def _pass(holds: Callable[[Scenario, PassRecord], bool]) -> Situation:
    """Reached where ``holds`` of some pass of the trace that ran to its end."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(not one.cut and holds(scenario, one) for _, one in trace.passes())

    return reached


def _first_time(scenario: Scenario, one: PassRecord) -> bool:
    """A call handled for the first time in the run."""
    return any(result.disposition not in _NOT_NEW for result in one.results)


def _unwired(scenario: Scenario, one: PassRecord) -> bool:
    """A call naming a tool the scenario does not wire, answered by a result."""
    wired = {tool.name for tool in scenario.tools}
    return any(str(call.get("name")) not in wired for _, call in paired(one))


def _only_repeats(scenario: Scenario, one: PassRecord) -> bool:
    """A pass with results, every one a repeat's."""
    return bool(one.results) and all(r.disposition == "skipped" for r in one.results)


def _without_identifier(scenario: Scenario, one: PassRecord) -> bool:
    """A well-formed call without an identifier, answered by a result."""
    return any(identifier(call) is None for _, call in paired(one))


def _name(call: object) -> tuple[bool, object]:
    """Whether ``call`` is a map, and its name."""
    return isinstance(call, Mapping), call.get("name") if isinstance(call, Mapping) else None


def _not_a_map(scenario: Scenario, one: PassRecord) -> bool:
    return any(not _name(call)[0] for call in one.batch)


def _blank_name(scenario: Scenario, one: PassRecord) -> bool:
    return any(
        is_map and isinstance(name, str) and not name.strip()
        for is_map, name in map(_name, one.batch)
    )


def _name_not_a_scalar(scenario: Scenario, one: PassRecord) -> bool:
    # A boolean name is left open (docs/interpretations.md, malformed-calls): not counted.
    return any(
        is_map and (name is None or isinstance(name, Mapping | list))
        for is_map, name in map(_name, one.batch)
    )


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "true when at least one call was handled for the first time in this run"
    situation("RT-TOOL-10#c2", "a pass with a call handled for the first time", _pass(_first_time)),
    situation(
        "RT-TOOL-10#c2", "a pass with no call handled for the first time", _pass(_only_repeats)
    ),
    # ¶2: "which includes a call naming a tool that is not wired"
    situation("RT-TOOL-10#c2", "a call naming a tool that is not wired", _pass(_unwired)),
    # ¶4: "a call with no identifier always runs and appears in neither"
    situation("RT-TOOL-10#c4", "a call with no identifier", _pass(_without_identifier)),
    # ¶4: "a malformed call (one that is not a map, or whose name is blank or not a scalar)"
    situation("RT-TOOL-10#c4", "a call that is not a map", _pass(_not_a_map)),
    situation("RT-TOOL-10#c4", "a call whose name is blank", _pass(_blank_name)),
    situation("RT-TOOL-10#c4", "a call whose name is not a scalar", _pass(_name_not_a_scalar)),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-10#c1": (
        "a definition: the two outputs every tool-invoking pass reports and how they relate "
        "to skipped; which calls count as executed in which circumstance is named by ¶2 to ¶4"
    ),
    "RT-TOOL-10#c3": (
        "one behaviour in one circumstance, an empty batch; its checks are untested where no "
        "pass over an empty batch is reported"
    ),
    "RT-TOOL-10#c5": (
        "one behaviour in one circumstance: what is exposed where the author chose nothing "
        "for these ports"
    ),
}
