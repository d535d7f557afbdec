"""RT-TOOL-10 ¶4: a malformed call is dropped on its own, wherever it sits in the batch;
the well-formed calls before and after it are handled as if it were not there."""

from __future__ import annotations

from conformance.checks.rt_tool_10._malformed import THROUGH, Unguarded, _unguarded
from conformance.checks.rt_tool_10._work import CALL_A, CALL_B
from conformance.toolkit import CheckContext, check

__all__ = ["check_malformed_call_leaves_the_rest_of_the_batch"]

#: The calls around the malformed one reach the guard, each answered; the work they are,
#: and the list each is on, are ¶2's and ¶1's words.
_BOTH = frozenset({"call_a", "call_b"})
AROUND: dict[str, Unguarded] = {
    "malformed-first": Unguarded(("not a call", CALL_A, CALL_B), None, _BOTH),
    "malformed-between": Unguarded(
        (CALL_A, {"name": "  ", "tool_call_id": "m1"}, CALL_B), None, _BOTH
    ),
    "several-between": Unguarded(
        (CALL_A, 42, {"name": None, "tool_call_id": "m2"}, {"args": {}}, CALL_B), None, _BOTH
    ),
}


@check("RT-TOOL-10#c4", variants=AROUND, through=THROUGH)
def check_malformed_call_leaves_the_rest_of_the_batch(
    ctx: CheckContext, variant: Unguarded
) -> None:
    """A malformed call is dropped before the guard and nothing else is: the well-formed
    calls before and after it in the batch reach the guard and are answered."""
    _unguarded(
        ctx,
        "rt10-c4-mid-batch",
        variant,
        "RT-TOOL-10 ¶4: a malformed call is dropped before the guard; the batch's other "
        "calls are handled as ever",
    )
