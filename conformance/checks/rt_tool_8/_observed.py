"""What a runtime made of a model's arguments, as a trace shows it, and whose words a
wrong reconciliation breaks.

A call's reconciled arguments show in two places: the ``arguments`` its result reports
(the harness's word, the reconciliation itself) and what its tool body received.  Each
is held to the oracle (:func:`~conformance.checks.rt_tool_8._reconcile.readings`), and
a difference is charged argument by argument (:func:`broken_clauses`): a JSON text left
undecoded is ¶2's, a string decoded where it had to pass through ¶3's, a character
reference left in ¶4's, a key or a reference-free text changed ¶5's.  ¶1 ("before a
tool is invoked, the arguments ... are reconciled") is broken where the body received
something other than the reconciliation the runtime reports, or where nothing at all was
reconciled although both repairs had work to do; where only one repair had work, the
missing repair is that repair's clause, the narrower words.

The same reading makes RT-TOOL-8's channels (:data:`JSON_DECODED`,
:data:`REFERENCES_DECODED`, :data:`KEYS_KEPT`): a check of one clause that sends an
argument another repair works on observes through that repair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._reconcile import declared_types, readings
from conformance.toolkit import Channel, mapping, paired, same_json, seen_passes, show, well_formed

__all__ = [
    "ALL_CLAUSES",
    "JSON_DECODED",
    "KEYS_KEPT",
    "REFERENCES_DECODED",
    "Reconciled",
    "broken_clauses",
    "reconciled_calls",
]

ALL_CLAUSES = ("RT-TOOL-8#c1", "RT-TOOL-8#c2", "RT-TOOL-8#c3", "RT-TOOL-8#c4", "RT-TOOL-8#c5")


@dataclass(frozen=True)
class Reconciled:
    """One call whose reconciled arguments a trace shows: the tool, what the model sent,
    what the tool declares, the readings of the oracle, what its result reported
    (``None``: nothing) and what its body received (``None``: no body ran for it alone),
    and where."""

    tool: str
    sent: object
    schema: object
    expected: list[object]
    reported: object
    received: object
    at: str

    @property
    def observed(self) -> object:
        """The reconciliation itself: the reported arguments, else what the body got."""
        return self.reported if self.reported is not None else self.received

    def broken(self, got: object) -> tuple[str, ...]:
        """The clauses ``got`` (one of the two observations) breaks."""
        return broken_clauses(self.sent, self.schema, got, self.expected[0])


def reconciled_calls(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> Iterator[Reconciled]:
    """Every call of a declared tool that was executed or refused by validation, with
    what the trace shows of its reconciled arguments.  A body is read where one body ran
    for the id and the batch sent the id once (which body got which arguments is not
    known otherwise)."""
    schemas = {tool.name: tool.input_schema for tool in scenario.tools}
    bound = handshake.limits.normalize_passes
    for seen in seen_passes(trace):
        bodies = Counter(mapping(e).get("tool_call_id") for e in seen.run.side_effects)
        received = {
            mapping(e).get("tool_call_id"): mapping(e).get("input")
            for e in seen.run.side_effects
            if bodies[mapping(e).get("tool_call_id")] == 1
        }
        for index, (result, call) in enumerate(paired(seen.one)):
            name = str(result.tool)
            # Reported arguments are judged even where validation then refused the call.
            if result.disposition not in ("executed", "invalid") or name not in schemas:
                continue
            call_id = result.tool_call_id
            sent = sum(1 for c in well_formed(seen.one.batch) if c.get("tool_call_id") == call_id)
            body = received.get(call_id) if call_id is not None and sent == 1 else None
            yield Reconciled(
                name,
                call.get("args"),
                schemas[name],
                readings(call.get("args"), schemas[name], bound),
                result.arguments,
                body,
                f"{seen.at}/results/{index}",
            )


def broken_clauses(sent: object, schema: object, got: object, expected: object) -> tuple[str, ...]:
    """The clauses of RT-TOOL-8 whose words ``got`` breaks, argument by argument: a JSON
    string left undecoded breaks ¶2, a string decoded or a parse substituted where one
    of the three conditions fails ¶3, a character reference left in ¶4, a key changed or
    reference-free text changed ¶5.  Arguments that come back exactly as sent, where both
    repairs had work to do, were not reconciled at all: ¶1.  Every clause, when none can
    be told."""
    if not (
        isinstance(sent, Mapping) and isinstance(got, Mapping) and isinstance(expected, Mapping)
    ):
        return ALL_CLAUSES
    declared = declared_types(schema)
    found: set[str] = set()
    if set(map(str, got)) != set(map(str, sent)):
        found.add("RT-TOOL-8#c5")
    for key, value in sent.items():
        if key not in got or key not in expected:
            continue
        mine, want = got[key], expected[key]
        if same_json(mine, want):
            continue
        decodable = declared.get(str(key)) in ("array", "object") and isinstance(value, str)
        if isinstance(value, str) and not isinstance(mine, str) and isinstance(want, str):
            found.add("RT-TOOL-8#c3")  # decoded where it had to pass through
        elif decodable and isinstance(mine, str) and not isinstance(want, str):
            found.add("RT-TOOL-8#c2")  # a JSON string left undecoded
        elif same_json(value, want):
            found.add("RT-TOOL-8#c5")  # text without a reference came back changed
        else:
            found.add("RT-TOOL-8#c4")  # references not decoded to stable
    if {"RT-TOOL-8#c2", "RT-TOOL-8#c4"} <= found and same_json(got, sent):
        return ("RT-TOOL-8#c1",)  # nothing was reconciled, though both repairs had work
    return tuple(clause for clause in ALL_CLAUSES if clause in found) or ALL_CLAUSES


def _repair_undone(clause: str) -> Callable[[Scenario, Trace, Handshake], str | None]:
    """A channel broken where a call's reconciliation, as the trace shows it, breaks
    ``clause``'s words (and the call was reconciled at all)."""

    def broken(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
        for found in reconciled_calls(scenario, trace, handshake):
            value = found.observed
            if value is None or value in found.expected:
                continue
            if clause in found.broken(value):
                return (
                    f"{found.tool} was sent {show(found.sent, 120)} and its reconciled "
                    f"arguments are {show(value, 120)} (at {found.at})"
                )
        return None

    return broken


#: RT-TOOL-8 ¶2: a JSON text for a parameter declared array or object is decoded.
JSON_DECODED = Channel(
    "the decoding of JSON texts the schema declares array or object",
    "RT-TOOL-8#c2",
    _repair_undone("RT-TOOL-8#c2"),
)
#: RT-TOOL-8 ¶4: every string leaf has its character references decoded until stable.
REFERENCES_DECODED = Channel(
    "the decoding of character references in every string leaf",
    "RT-TOOL-8#c4",
    _repair_undone("RT-TOOL-8#c4"),
)


def _keys_changed(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for found in reconciled_calls(scenario, trace, handshake):
        value = found.observed
        if not isinstance(found.sent, Mapping) or not isinstance(value, Mapping):
            continue
        sent, kept = set(map(str, found.sent)), set(map(str, value))
        if sent != kept:
            return (
                f"{found.tool} was sent the arguments {show(sorted(sent), 120)} and its "
                f"reconciled arguments have {show(sorted(kept), 120)} (at {found.at})"
            )
    return None


#: RT-TOOL-8 ¶5: "Keys are never modified": an argument the runtime dropped (a closed
#: input that refuses what its schema does not declare) never reaches the tool at all.
KEYS_KEPT = Channel("the arguments' keys, never modified", "RT-TOOL-8#c5", _keys_changed)
