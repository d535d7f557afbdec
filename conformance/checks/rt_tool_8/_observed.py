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

The same reading makes RT-TOOL-8's channels (``_channels``): a check of one clause that
sends an argument another repair works on observes through that repair.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._reconcile import declared_types, readings
from conformance.toolkit import mapping, paired, same_json, seen_passes, well_formed

__all__ = [
    "ALL_CLAUSES",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "Reconciled",
    "broken_clauses",
    "reconciled_calls",
]

ALL_CLAUSES = ("RT-TOOL-8#c1", "RT-TOOL-8#c2", "RT-TOOL-8#c3", "RT-TOOL-8#c4", "RT-TOOL-8#c5")
C1, C2, C3, C4, C5 = ALL_CLAUSES


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
    # A declared bound on decoding passes is never below two: a doubly escaped value
    # resolves fully (docs/interpretations.md, decoding-pass-bound).
    declared = handshake.limits.normalize_passes
    bound = None if declared is None else max(2, declared)
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
    of the three conditions fails ¶3, a character reference left in ¶4 (or a text that
    held one, changed otherwise), a key changed or a text that held no reference changed
    ¶5.  Arguments that come back exactly as sent, where both repairs had work to do,
    were not reconciled at all: ¶1.  Every clause, when none can be told."""
    if not (
        isinstance(sent, Mapping) and isinstance(got, Mapping) and isinstance(expected, Mapping)
    ):
        return ALL_CLAUSES
    declared = declared_types(schema)
    found: set[str] = set()
    if set(map(str, got)) != set(map(str, sent)):
        found.add(C5)
    for key, value in sent.items():
        if key not in got or key not in expected:
            continue
        mine, want = got[key], expected[key]
        if same_json(mine, want):
            continue
        decodable = declared.get(str(key)) in ("array", "object") and isinstance(value, str)
        if isinstance(value, str) and not isinstance(mine, str) and isinstance(want, str):
            found.add(C3)  # decoded where it had to pass through
        elif decodable and isinstance(mine, str) and not isinstance(want, str):
            found.add(C2)  # a JSON string left undecoded
        else:
            found |= _differences(_as_sent(value, want), mine, want) or {C4}
    if {C2, C4} <= found and same_json(got, sent):
        return (C1,)  # nothing was reconciled, though both repairs had work
    return tuple(clause for clause in ALL_CLAUSES if clause in found) or ALL_CLAUSES


def _referenced(text: str) -> bool:
    """Whether ``text`` holds a character reference that decodes to something else."""
    return html.unescape(text) != text


def _as_sent(value: object, want: object) -> object:
    """What the model sent of a value, leaf by leaf beside ``want``: the value itself, or,
    for a JSON text decoded, what it parses to (``None`` where it does not parse)."""
    if isinstance(value, str) and not isinstance(want, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def _differences(sent: object, mine: object, want: object) -> set[str]:
    """The clauses a value's leaves break: a text left holding a reference, or one that
    held one and came back otherwise changed, ¶4's; a text that held none changed, or a
    map's keys changed, ¶5's.  A shape that differs otherwise is told by the caller."""
    if same_json(mine, want):
        return set()
    if isinstance(mine, str) and isinstance(want, str):
        if _referenced(mine) or not isinstance(sent, str) or _referenced(sent):
            return {C4}
        return {C5}
    if isinstance(mine, Mapping) and isinstance(want, Mapping):
        if set(map(str, mine)) != set(map(str, want)):
            return {C5}
        inner = sent if isinstance(sent, Mapping) else {}
        return {c for k in want for c in _differences(inner.get(k), mine[k], want[k])}
    if isinstance(mine, list) and isinstance(want, list) and len(mine) == len(want):
        items = sent if isinstance(sent, list) and len(sent) == len(want) else [None] * len(want)
        return {c for s, m, w in zip(items, mine, want, strict=True) for c in _differences(s, m, w)}
    return set()
