"""The situations RT-TOOL-6's clauses name.  What a run produced is read from the scenario
(:func:`conformance.toolkit.node_outputs`), never from what the implementation kept."""

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
    node_outputs,
    read_from_the_implementation,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

#: What a renderer would take for markup or a character reference.
_ACTIVE = ("<", ">", "&")


def _active(entry: object) -> bool:
    text = json.dumps(mapping(entry).get("payload"), ensure_ascii=False)
    return any(char in text for char in _ACTIVE)


def _delivered(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Some payload was delivered on a turn's messages."""
    return bool(delivered_steps(trace))


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


def _produced_by_run(scenario: Scenario, trace: Trace) -> list[tuple[RunRecord, list[object]]]:
    """Every run of the trace with the artifacts its calls attached, in order (read from
    the scenario, whatever the implementation kept of them); one with an empty type is
    refused outright (¶5), never measured against a bound."""
    made: dict[int, list[object]] = {}
    for one in node_outputs(scenario, trace):
        made.setdefault(id(one.run), []).extend(
            entry for entry in one.attached if mapping(entry).get("type") != ""
        )
    return [(run, made.get(id(run), [])) for run in trace.runs()]


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
        return any(test(scenario, handshake, made) for _, made in _produced_by_run(scenario, trace))

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
    """A call ran whose node attached an artifact with a payload holding a value the
    harness made unencodable (``unencodable_payloads``): a harness that cannot reaches
    none."""
    if not handshake.capabilities.unencodable_payloads:
        return False
    return any(
        _marked(mapping(entry).get("payload"))
        for _, made in _produced_by_run(scenario, trace)
        for entry in made
    )


def _several_runs_over_one_bound(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn two or more of whose runs produced artifacts, together more than one run may
    collect (by count or by bytes): what a delivery merges, nothing re-checks."""
    count = _bound(scenario, handshake, "run_artifacts")
    size = _bound(scenario, handshake, "run_bytes")
    turns: dict[tuple[str, str], list[list[object]]] = {}
    for run, made in _produced_by_run(scenario, trace):
        if made:
            turns.setdefault((run.conversation, run.turn), []).append(made)
    for runs in turns.values():
        every = [entry for made in runs for entry in made]
        over_count = count is not None and len(every) > count
        over_size = size is not None and sum(map(_compact_size, every)) > size
        if len(runs) >= 2 and (over_count or over_size):
            return True
    return False


def _fits_after_a_drop(scenario: Scenario, handshake: Handshake, made: list[object]) -> bool:
    """In one run, an artifact over a bound (its payload's, or what remains of the run's
    count or bytes), then a later one that fits what remains."""
    each = _bound(scenario, handshake, "payload_bytes")
    count = _bound(scenario, handshake, "run_artifacts")
    size = _bound(scenario, handshake, "run_bytes")
    kept, used, dropped = 0, 0, False
    for entry in made:
        bytes_ = _compact_size(entry)
        fits = (
            (each is None or bytes_ <= each)
            and (count is None or kept < count)
            and (size is None or used + bytes_ <= size)
        )
        if fits and dropped:
            return True
        if fits:
            kept, used = kept + 1, used + bytes_
        else:
            dropped = True
    return False


def _empty_type(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call's node attached an artifact whose type is the empty string."""
    return any(
        mapping(entry).get("type") == ""
        for made in node_outputs(scenario, trace)
        for entry in made.attached
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
    # ¶1: "bounds the artifacts one run may collect and enforces that bound at the single
    # point of collection"
    situation(
        "RT-TOOL-6#c1",
        "a run producing more than its bound allows",
        _some_run(lambda s, h, made: _over_count(s, h, made) or _over_aggregate(s, h, made)),
    ),
    # ¶1: "nothing downstream re-checks what one run collected"
    situation(
        "RT-TOOL-6#c1",
        "a turn whose runs produced together more than one run may collect",
        _several_runs_over_one_bound,
    ),
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
    # ¶4: "a later, smaller artifact that fits the remaining budget is still kept"
    situation(
        "RT-TOOL-6#c4", "a later artifact that fits, after a drop", _some_run(_fits_after_a_drop)
    ),
    # ¶5: "An artifact with an empty `type` is refused outright"
    situation("RT-TOOL-6#c5", "an artifact with an empty type", _empty_type),
    # ¶6: "treat every value in it as plain text and escape it on output"
    situation("RT-TOOL-6#c6", "a payload delivered", _delivered),
    situation("RT-TOOL-6#c6", "a payload value reading as markup delivered", _markup_delivered),
    situation("RT-TOOL-6#c6", "such a payload output by the implementation", _markup_output),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
