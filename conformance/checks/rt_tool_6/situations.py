"""The situations RT-TOOL-6's clauses name, and why the others name none."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import UNENCODABLE, Scenario
from adapters.trace import RunRecord, Trace
from conformance.checks.rt_tool_6._kept import (
    PAYLOAD_FLOOR,
    RUN_ARTIFACT_FLOOR,
    RUN_BYTES_FLOOR,
)
from conformance.checks.rt_tool_6._sizes import largest_size
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    delivered_steps,
    mapping,
    read_from_the_implementation,
    scripted_entries,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

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


def _produced(run: RunRecord) -> list[object]:
    """Every artifact the calls of ``run`` ran and returned, in order; one with an empty
    type is refused outright (¶5), never measured against a bound."""
    return [
        entry
        for one in run.passes
        for result in one.results
        if result.disposition == "executed" and mapping(result.result).get("success") is True
        for entry in scripted_entries(result.result)
        if mapping(entry).get("type") != ""
    ]


def _compact_size(entry: object) -> int:
    """Bytes of a payload's smallest encoding (compact UTF-8): over a bound in it, it is
    over in every encoding; one that does not encode measures nothing."""
    try:
        text = json.dumps(mapping(entry).get("payload"), separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return 0
    return len(text.encode("utf-8"))


def _bound(scenario: Scenario, handshake: Handshake, name: str) -> int | None:
    """The bound ``name`` a scenario ran under: its own, else the declared default."""
    own = None if scenario.bounds is None else getattr(scenario.bounds, name)
    found = own if own is not None else getattr(handshake.limits, name)
    return found if isinstance(found, int) else None


def _at_defaults(scenario: Scenario, name: str) -> bool:
    """Whether the scenario left bound ``name`` at the implementation's default: the
    floors bind the defaults, not a bound a scenario scaled down."""
    return scenario.bounds is None or getattr(scenario.bounds, name) is None


RunTest = Callable[[Scenario, Handshake, list[object]], bool]


def _some_run(test: RunTest) -> Situation:
    """Reached where ``test`` holds of what some run of the trace produced."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(test(scenario, handshake, _produced(run)) for run in trace.runs())

    return reached


def _payload_floor(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """A payload of 512 KB in its largest encoding, at the default payload bound."""
    return _at_defaults(scenario, "payload_bytes") and any(
        largest_size(mapping(entry).get("payload")) >= PAYLOAD_FLOOR for entry in made
    )


def _count_floor(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """50 artifacts in one run, at the default count bound."""
    return _at_defaults(scenario, "run_artifacts") and len(made) >= RUN_ARTIFACT_FLOOR


def _aggregate_floor(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """2 MB of payload across one run in its largest encoding, at the default bound."""
    return (
        _at_defaults(scenario, "run_bytes")
        and sum(largest_size(mapping(entry).get("payload")) for entry in made) >= RUN_BYTES_FLOOR
    )


def _over_payload(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """A payload over the payload bound in every encoding."""
    bound = _bound(scenario, handshake, "payload_bytes")
    return bound is not None and any(_compact_size(entry) > bound for entry in made)


def _over_count(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """More artifacts in one run than its count bound."""
    bound = _bound(scenario, handshake, "run_artifacts")
    return bound is not None and len(made) > bound


def _over_aggregate(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """One run's payloads together over its aggregate bound in every encoding, each of
    them within the payload bound (one over it is dropped for that bound alone)."""
    bound = _bound(scenario, handshake, "run_bytes")
    each = _bound(scenario, handshake, "payload_bytes")
    within = [e for e in made if each is None or _compact_size(e) <= each]
    return bound is not None and sum(_compact_size(entry) for entry in within) > bound


def _unencodable(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call ran and returned an artifact whose payload holds a value the harness made
    unencodable (``unencodable_payloads``): a harness that cannot reaches none."""
    if not handshake.capabilities.unencodable_payloads:
        return False
    return any(
        _marked(mapping(entry).get("payload")) for run in trace.runs() for entry in _produced(run)
    )


#: Deeper than any scenario of the suite nests a payload.
_DEPTH = 32


def _marked(value: object, depth: int = 0) -> bool:
    """Whether ``value`` holds the unencodable marker anywhere (where the harness put a
    value JSON cannot encode, its record shows the marker back); past a depth no
    scenario of the suite reaches, it says not."""
    if value == UNENCODABLE:
        return True
    if depth > _DEPTH:
        return False
    if isinstance(value, Mapping):
        return any(_marked(item, depth + 1) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_marked(item, depth + 1) for item in value)
    return False


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "a payload of at least 512 KB once JSON-encoded, at least 50 artifacts in a run,
    # and at least 2 MB of encoded payload across a run in aggregate"
    situation("RT-TOOL-6#c2", "a payload of 512 KB", _some_run(_payload_floor)),
    situation("RT-TOOL-6#c2", "50 artifacts in a run", _some_run(_count_floor)),
    situation("RT-TOOL-6#c2", "2 MB of payload across a run", _some_run(_aggregate_floor)),
    # ¶3: "an artifact whose payload does not encode, or which exceeds a bound" (the
    # bounds of ¶1 and ¶2: a payload's, a run's count, a run's aggregate)
    situation("RT-TOOL-6#c3", "a payload that does not encode", _unencodable),
    situation("RT-TOOL-6#c3", "an artifact over the payload bound", _some_run(_over_payload)),
    situation("RT-TOOL-6#c3", "an artifact over the run's count bound", _some_run(_over_count)),
    situation(
        "RT-TOOL-6#c3", "an artifact over the run's aggregate bound", _some_run(_over_aggregate)
    ),
    # ¶6: "treat every value in it as plain text and escape it on output"
    situation("RT-TOOL-6#c6", "a payload value reading as markup delivered", _markup_delivered),
    situation("RT-TOOL-6#c6", "such a payload output by the implementation", _markup_output),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-6#c1": "one behaviour: a run's bound is enforced where the run collects, and "
    "nothing downstream re-checks what it kept; the text enumerates no circumstances",
    "RT-TOOL-6#c4": "one behaviour in one circumstance: after a drop, a later, smaller "
    "artifact that fits what remains is kept, and every case of it plays that drop",
    "RT-TOOL-6#c5": "one behaviour in one circumstance: an artifact with an empty type is "
    "refused outright",
}
