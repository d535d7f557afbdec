"""RT-TOOL-10 ¶4: calls without an identifier, and malformed calls.  The rule's overview
(:mod:`conformance.checks.rt_tool_10`) lists what the checks vary.

¶4 says which calls reach the guard, and so which the two lists may name: "The two lists
partition only the calls that reach the guard: a call with no identifier always runs and
appears in neither while setting `executed_any`, and a malformed call ... is dropped
before the guard, appears in neither, and leaves `executed_any` false."  Its checks hold
a pass to that: the lists name no call but the identified, well-formed ones the batch
sent; a malformed call gets no result; a call ¶4 says reaches the guard (a numeric name,
the calls around a malformed one) gets one; and ``executed_any`` is what the call
without an identifier, or the malformed one, leaves it.  On which of the two lists an
identified call sits is ¶1's word, judged by its own check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adapters.trace import PassRecord
from conformance.checks.rt_tool_10._work import (
    CALL_A,
    REPEATS_NO_WORK,
    Batch,
    failed_in,
    judge_work,
    play,
)
from conformance.toolkit import (
    GUARD_HOLDS,
    UNIDENTIFIED_CALLS_RUN,
    UNWIRED_CALLS_ANSWERED,
    WORK_PORTS,
    CheckContext,
    Untested,
    check,
    identifier,
    port,
    show,
    well_formed,
)

__all__ = ["MALFORMED", "THROUGH", "WITHOUT_IDS", "Unguarded"]


@dataclass(frozen=True)
class Unguarded:
    """A judged batch, after the batches ``first`` (a question answered after the first
    of them, with ``pause``): the ``executed_any`` its pass must report (``None``: not
    this clause's to say), the calls of it that must be answered (they reach the guard),
    and what the first pass must report of its own work (``also_first``)."""

    judged: Batch
    work: bool | None
    answered: frozenset[str] = frozenset()
    first: tuple[Batch, ...] = ()
    pause: bool = False
    also_first: bool | None = None


_BARE = {"name": "do_thing", "args": {}}
WITHOUT_IDS = {
    "absent": Unguarded((_BARE,), True),
    "null": Unguarded(({**_BARE, "tool_call_id": None},), True),
    "beside-a-repeat": Unguarded((CALL_A, _BARE), True, first=((CALL_A,),)),
    "sent-again": Unguarded((_BARE,), True, first=((_BARE,),), also_first=True),
    "after-an-answer": Unguarded((_BARE,), True, first=((_BARE,),), pause=True, also_first=True),
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
    batches = [*variant.first, variant.judged]
    trace, found = play(
        ctx, name, batches, pause_after=0 if variant.pause else None, every_pass=False
    )
    failed = failed_in(trace)
    ctx.need(
        failed is None,
        f"the run ended failed in the pass at {failed}, never finishing it ({len(batches)} "
        f"batches were to be sent, {len(found)} tool passes reported); {clause}",
        at=None if failed is None else f"{failed}/results",
        # how the run ended is its own report: the ports cannot have made it fail (a call
        # naming an unwired tool, or one without an identifier run as a repeat, can)
        through=tuple(channel for channel in THROUGH if channel is not WORK_PORTS),
    )
    if len(found) == len(batches) - 1 and variant.work is False and not variant.answered:
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
        judge_work(ctx, found[0][0], found[0][1], variant.also_first, clause)
    at, one = found[-1]
    _neither(ctx, at, one, clause)
    _answered(ctx, at, one, variant.answered, clause)
    if variant.work is not None:
        judge_work(ctx, at, one, variant.work, clause)


def _neither(ctx: CheckContext, at: str, one: PassRecord, clause: str) -> None:
    """The lists name no call but the identified, well-formed ones the batch sent: not a
    call without an identifier (under an id the runtime made up), not a malformed one."""
    sent = {identifier(call) for call in well_formed(one.batch)}
    for name in ("executed", "skipped"):
        listed = port(one, name)
        stray = [i for i in listed if i not in sent] if isinstance(listed, list) else []
        ctx.expect(
            not stray,
            f"the pass lists {show(stray)} on {name} (at {at}/ports/{name}), which no "
            f"identified, well-formed call of the batch carries; {clause}",
            at=f"{at}/ports/{name}",
        )


def _answered(
    ctx: CheckContext, at: str, one: PassRecord, ids: frozenset[str], clause: str
) -> None:
    """The calls ``ids`` reach the guard: each is answered by a result."""
    answered = {result.model_call_id for result in one.results}
    missing = sorted(ids - answered)
    ctx.expect(
        not missing,
        f"the pass reports no result for calls {show(missing)} (at {at}/results), which "
        f"reach the guard; {clause}",
        at=f"{at}/results",
    )


#: What ¶4's checks observe through: the ports (¶1), the guard that skips the repeat some
#: variants send beside the call (RT-TOOL-9 ¶1), a call without an identifier run every
#: time it is sent (RT-TOOL-9 ¶5: one skipped as a repeat did no work), the result a call
#: naming an unwired tool gets (¶2), and a pass of nothing but a repeat reporting no work
#: (¶2).
THROUGH = (
    WORK_PORTS,
    GUARD_HOLDS,
    UNIDENTIFIED_CALLS_RUN,
    UNWIRED_CALLS_ANSWERED,
    REPEATS_NO_WORK,
)


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
    "not-a-map": Unguarded(("not a call", 42, None, True, ["do_thing", {}, "m0"]), False),
    "blank-name": Unguarded(_BLANK, False),
    "name-not-a-scalar": Unguarded(_NOT_SCALAR, False),
    # Beside a repeat, executed_any stays false only where a repeat is no work (¶2): a
    # pass of the repeat alone comes first, and shows it.
    "beside-a-repeat": Unguarded(
        (CALL_A, *_BLANK, *_NOT_SCALAR), False, first=((CALL_A,), (CALL_A,))
    ),
    # A numeric name is a scalar: the call reaches the guard, where it names a tool that
    # is not wired (whose result, and the work it is, are ¶2's).  Beside it, a call naming
    # an unwired tool by a string shows whether the runtime answers such calls at all: one
    # that drops them all breaks ¶2 (the channel UNWIRED_CALLS_ANSWERED), one that drops
    # only the number breaks ¶4.
    "numeric-name-is-a-scalar": Unguarded(
        (
            {"name": 42, "args": {}, "tool_call_id": "call_n"},
            *_BLANK[:1],
            {"name": "no_such_tool", "args": {}, "tool_call_id": "call_u"},
        ),
        None,
        frozenset({"call_n"}),
    ),
}


@check("RT-TOOL-10#c4", variants=MALFORMED, through=THROUGH)
def check_malformed_call_dropped_before_the_guard(ctx: CheckContext, variant: Unguarded) -> None:
    """A call that is not a map, or whose name is blank or not a scalar, is dropped before
    the guard: no result, on neither list, and it leaves `executed_any` false."""

    def no_stray_result(found: list[tuple[str, PassRecord]]) -> None:
        at, one = found[-1]
        reached = {identifier(call) for call in well_formed(one.batch)}
        stray = [r.tool_call_id for r in one.results if r.model_call_id not in reached]
        ctx.expect(
            not stray,
            f"the pass reports results for calls {show(stray)}, dropped before the guard as "
            "malformed; RT-TOOL-10 ¶4",
            at=f"{at}/results",
            reading="malformed-calls",
            # read off the pass's own results: neither its ports nor the guard made it
            through=(),
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
