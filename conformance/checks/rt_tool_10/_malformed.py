"""RT-TOOL-10 ¶4: calls without an identifier, and malformed calls.  The rule's overview
(:mod:`conformance.checks.rt_tool_10`) lists what the checks vary."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adapters.trace import PassRecord
from conformance.checks.rt_tool_10._work import CALL_A, Batch, Judged, failed_in, judge, play
from conformance.toolkit import (
    GUARD_HOLDS,
    UNWIRED_CALLS_ANSWERED,
    WORK_PORTS,
    CheckContext,
    Untested,
    check,
    show,
)

__all__ = ["MALFORMED", "THROUGH", "WITHOUT_IDS", "Unguarded"]


@dataclass(frozen=True)
class Unguarded:
    """A judged batch (after ``first``, a question answered in between with ``pause``),
    and what it must report."""

    judged: Batch
    expected: Judged
    first: Batch | None = None
    pause: bool = False
    also_first: Judged | None = None


_BARE = {"name": "do_thing", "args": {}}
WITHOUT_IDS = {
    "absent": Unguarded((_BARE,), Judged(work=True)),
    "null": Unguarded(({**_BARE, "tool_call_id": None},), Judged(work=True)),
    "beside-a-repeat": Unguarded(
        (CALL_A, _BARE), Judged(skipped=frozenset({"call_a"}), work=True), first=(CALL_A,)
    ),
    "sent-again": Unguarded(
        (_BARE,), Judged(work=True), first=(_BARE,), also_first=Judged(work=True)
    ),
    "after-an-answer": Unguarded(
        (_BARE,), Judged(work=True), first=(_BARE,), pause=True, also_first=Judged(work=True)
    ),
}


def _unguarded(
    ctx: CheckContext,
    name: str,
    variant: Unguarded,
    clause: str,
    first: Callable[[list[tuple[str, PassRecord]]], None] | None = None,
) -> None:
    """Play ``variant``; judge ``first`` (what needs no port), then the ports, which are
    RT-TOOL-10 ¶1's: a pass without them blocks this clause's account of them (the
    checks declare :data:`~conformance.toolkit.WORK_PORTS`)."""
    batches = [variant.judged] if variant.first is None else [variant.first, variant.judged]
    trace, found = play(
        ctx, name, batches, pause_after=0 if variant.pause else None, every_pass=False
    )
    failed = failed_in(trace)
    ctx.need(
        failed is None,
        f"the run ended failed in the pass at {failed}, never finishing it ({len(batches)} "
        f"batches were to be sent, {len(found)} tool passes reported); {clause}",
        at=None if failed is None else f"{failed}/results",
    )
    if len(found) == len(batches) - 1 and variant.expected == Judged():
        # Once its malformed calls are dropped, the batch is empty: a runtime that never
        # runs its tool step for a reply without calls (RT-TOOL-10 ¶3's own situation)
        # reports no pass, and nothing shows where the calls were dropped or what
        # executed_any was left at.  A pass that answers them is still judged.
        raise Untested(
            f"no pass over the batch of only malformed calls was reported ({len(batches)} "
            f"batches were sent, {len(found)} tool passes reported): nothing shows the calls "
            "dropped before the guard"
        )
    ctx.need(
        len(found) == len(batches),
        f"{len(batches)} batches were sent, {len(found)} tool passes reported",
        at="/steps",
    )
    if first is not None:
        first(found)
    if variant.also_first is not None:
        judge(ctx, found[0][0], found[0][1], variant.also_first, clause)
    judge(ctx, found[-1][0], found[-1][1], variant.expected, clause)


#: What ¶4's checks observe through: the ports (¶1), the guard that skips the repeat some
#: variants send beside the call (RT-TOOL-9 ¶1), the result a call naming an unwired
#: tool gets (¶2).
THROUGH = (WORK_PORTS, GUARD_HOLDS, UNWIRED_CALLS_ANSWERED)


@check("RT-TOOL-10#c4", variants=WITHOUT_IDS, through=THROUGH)
def check_call_without_id_is_work_on_neither_list(ctx: CheckContext, variant: Unguarded) -> None:
    """A call with no identifier always runs: it appears on neither list and sets
    `executed_any`."""
    _unguarded(
        ctx,
        "rt10-c4-no-id",
        variant,
        "RT-TOOL-10 ¶4: a call without an identifier appears in neither list and sets executed_any",
    )


_BLANK = (
    {"name": "", "tool_call_id": "m1"},
    {"name": "   ", "tool_call_id": "m2"},
    {"name": "\t\n ", "tool_call_id": "m3"},
)
_NOT_SCALAR = (
    {"name": {"x": 1}, "tool_call_id": "m4"},
    {"name": ["do_thing"], "tool_call_id": "m5"},
    {"args": {}, "tool_call_id": "m6"},
    {"name": None, "tool_call_id": "m7"},
)
MALFORMED = {
    "not-a-map": Unguarded(("not a call", 42, None, True, ["do_thing", {}, "m0"]), Judged()),
    "blank-name": Unguarded(_BLANK, Judged()),
    "name-not-a-scalar": Unguarded(_NOT_SCALAR, Judged()),
    "beside-a-repeat": Unguarded(
        (CALL_A, *_BLANK, *_NOT_SCALAR), Judged(skipped=frozenset({"call_a"})), first=(CALL_A,)
    ),
    # A numeric name is a scalar: the call reaches the guard, where it names a tool that
    # is not wired (RT-TOOL-10 ¶2).  Beside it, a call naming an unwired tool by a string
    # shows whether the runtime answers such calls at all: one that drops them all breaks
    # ¶2 (the channel UNWIRED_CALLS_ANSWERED), one that drops only the number breaks ¶4.
    "numeric-name-is-a-scalar": Unguarded(
        (
            {"name": 42, "args": {}, "tool_call_id": "call_n"},
            *_BLANK[:1],
            {"name": "no_such_tool", "args": {}, "tool_call_id": "call_u"},
        ),
        Judged(executed=frozenset({"call_n", "call_u"}), work=True),
    ),
}


@check("RT-TOOL-10#c4", variants=MALFORMED, through=THROUGH)
def check_malformed_call_dropped_before_the_guard(ctx: CheckContext, variant: Unguarded) -> None:
    """A call that is not a map, or whose name is blank or not a scalar, is dropped before
    the guard: no result, on neither list, and it leaves `executed_any` false."""

    def no_stray_result(found: list[tuple[str, PassRecord]]) -> None:
        at, one = found[-1]
        reached = variant.expected.executed | variant.expected.skipped
        stray = [r.tool_call_id for r in one.results if r.tool_call_id not in reached]
        ctx.expect(
            not stray,
            f"the pass reports results for calls {show(stray)}, dropped before the guard as "
            "malformed; RT-TOOL-10 ¶4",
            at=f"{at}/results",
            reading="malformed-calls",
        )

    _unguarded(
        ctx,
        "rt10-c4-malformed",
        variant,
        "RT-TOOL-10 ¶4: a call that is not a map, or whose name is blank or not a scalar, is "
        "dropped before the guard, appears in neither list and leaves executed_any false (a "
        "numeric name is a scalar)",
        no_stray_result,
    )
