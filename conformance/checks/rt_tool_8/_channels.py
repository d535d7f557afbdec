"""What RT-TOOL-8's checks observe through: each clause's part of a reconciliation, read
off the trace as :mod:`conformance.checks.rt_tool_8._observed` reads it.

A check of one clause sends arguments another clause's repair also works on (¶1's
arguments need both repairs; ¶4's doubly escaped JSON text needs ¶2's decoding).  Where
the runtime's reconciliation, as its result reports it, breaks that other clause's
words, what the check sees is that clause's failure: the case is blocked by it.  (¶1's
own channel, the body handed the reconciliation, is the toolkit's
``BODY_GETS_THE_RECONCILIATION``: durable resume's identical retries read bodies too.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._observed import C2, C3, C4, C5, reconciled_calls
from conformance.checks.rt_tool_8._reconcile import declared_types
from conformance.toolkit import Channel, located_passes, paired, show, well_formed

__all__ = [
    "JSON_DECODED",
    "PASS_THROUGH_NEVER_FAILS",
    "REFERENCES_DECODED",
    "TEXT_KEPT",
]

Test = Callable[[Scenario, Trace, Handshake], str | None]


def _repair_undone(clause: str) -> Test:
    """Broken where a call's reconciliation, as the trace shows it (the arguments its
    result reports, else what its body received), breaks ``clause``'s words."""

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
    "the decoding of JSON texts the schema declares array or object", C2, _repair_undone(C2)
)
#: RT-TOOL-8 ¶4: every string leaf has its character references decoded until stable.
REFERENCES_DECODED = Channel(
    "the decoding of character references in every string leaf", C4, _repair_undone(C4)
)
#: RT-TOOL-8 ¶5: "Keys are never modified, and text containing no character reference is
#: returned unchanged": an argument dropped (a closed input refusing what its schema does
#: not declare) or a plain text trimmed.
TEXT_KEPT = Channel(
    "the arguments' keys and reference-free text, never modified", C5, _repair_undone(C5)
)


def _fails_a_condition(value: object, kind: object) -> bool:
    """Whether an argument declared ``kind`` (array or object) fails one of ¶2's three
    conditions: not a string, not JSON, or JSON of the other shape."""
    if kind not in ("array", "object"):
        return False
    if not isinstance(value, str):
        return True
    try:
        parsed = json.loads(value)
    except ValueError:
        return True
    return not isinstance(parsed, list if kind == "array" else dict)


def _failed_on_a_pass_through(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    schemas = {tool.name: tool.input_schema for tool in scenario.tools}
    for at, run, one in located_passes(trace):
        if run.end != "failed" or not (one.cut or one is run.passes[-1]):
            continue
        answered = {id(call) for _, call in paired(one)}
        for call in well_formed(one.batch):
            name, args = str(call.get("name")), call.get("args")
            if id(call) in answered or name not in schemas or not isinstance(args, Mapping):
                continue
            declared = declared_types(schemas[name])
            failing = [k for k, v in args.items() if _fails_a_condition(v, declared.get(str(k)))]
            if failing:
                return (
                    f"the run failed in the pass at {at}, and the call to {name} whose "
                    f"arguments {show(failing, 80)} fail a condition of ¶2 got no result"
                )
    return None


#: RT-TOOL-8 ¶3: "an argument that fails any of the three is passed through unmodified",
#: never a failed run.  A check of references whose argument is such a text (a JSON text
#: escaped, which does not parse until its references are decoded) sees through it.
PASS_THROUGH_NEVER_FAILS = Channel(
    "the arguments that fail a condition of ¶2, passed through", C3, _failed_on_a_pass_through
)
