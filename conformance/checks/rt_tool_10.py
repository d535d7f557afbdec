"""RT-TOOL-10: a tool-calling pass reports whether it did any work.

Every pass of a scenario is judged, against the calls its batch sent and those the turn
already recorded.  What the clauses quantify over, and how the checks vary it:

* ¶1 (``executed_any`` a boolean; ``executed`` the complement of ``skipped``): a repeat
  before and after a new call; every kind of first-time result (success, failure, an
  unwired tool, arguments that fail the schema); after an answer; unusual identifiers.
* ¶2 (first-time handling is work, a repeat is not): a batch of only an unwired call, a
  declined call, invalid arguments, a failing tool, a retry refused on resume; an
  all-repeat pass a second and a third time, after an answer, of a stored failure, of two
  calls.
* ¶3 (an empty batch reports false): first, after a pass that did work, after an answer.
* ¶4 (a call without an identifier is in neither list and sets ``executed_any``; a
  malformed call is in neither and leaves it false): no identifier, ``null``, beside a
  repeat, sent again, after an answer; calls that are not maps, blank names (spaces,
  tabs, newlines), names that are maps, lists, absent or ``null``, beside a repeat; a
  numeric name, a scalar, reaches the guard.
* ¶5 (``executed_any`` exposed by default, ``executed`` not): in every pass, and with the
  author's choices made for other ports.

Left unjudged, because the text allows either reading (docs/interpretations.md): the
order of ``executed`` and ``skipped`` (executed-order); whether a boolean name is a
scalar, whether a name of non-breaking or other Unicode spaces is blank, whether a numeric
or empty-string call id is an identifier (malformed-calls): the checks never send those.
Whether a result reused from the journal on resume is work done for the first time is
not judged either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.scenario import Answer, Decline, Interrupt, Reply, StartTurn, Step, Wait
from adapters.trace import PassRecord, Trace
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn, port, ports, show
from conformance.scenarios import ask, call, calls, failure, output, say, tool
from conformance.traces import located_passes

Batch = tuple[object, ...]
TOOLS = [
    tool("do_thing", output({"result": "did"}), schema={}),
    tool("other_thing", output({"result": "other"}), schema={}),
    tool("failing_thing", failure("no such record"), schema={}),
    tool(
        "strict_thing",
        schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    ),
    tool("write_thing", output({"result": "written"}), schema={}),
]
#: Only the scenario that declines a call has it: a gated tool needs the `gates` capability.
GATED = tool("gated_thing", output({"result": "sent"}), schema={}, gate=True)


@dataclass(frozen=True)
class Judged:
    """What one pass must report: the ids on ``executed`` and ``skipped`` (as sets), and
    ``executed_any``."""

    executed: frozenset[str] = frozenset()
    skipped: frozenset[str] = frozenset()
    work: bool = False


def _play(
    ctx: CheckContext, name: str, batches: Sequence[Batch], *, pause_after: int | None = None
) -> tuple[Trace, list[tuple[str, PassRecord]]]:
    """The batches as passes of one turn (a question, answered, after batch
    ``pause_after``); every pass with its pointer."""
    model: list[Reply] = []
    steps: list[Step] = [StartTurn("t1")]
    for index, batch in enumerate(batches):
        model.append(calls(*batch))
        if index == pause_after:
            model.append(ask())
            steps.append(Answer("t1"))
    trace = one_turn(ctx, name, tools=TOOLS, model=[*model, say("done")], steps=steps)
    found = [(at, one) for at, _, one in located_passes(trace)]
    ctx.need(
        len(found) == len(batches),
        f"{len(batches)} batches were sent, {len(found)} tool passes reported",
        at="/steps",
    )
    return trace, found


def _judge(ctx: CheckContext, at: str, one: PassRecord, want: Judged, clause: str) -> None:
    """Hold one pass to ``want``, each port on its own, naming what it reported."""
    reported = ports(one)
    any_ = reported.get("executed_any")
    if ctx.expect(
        isinstance(any_, bool),
        f"the pass reports executed_any {show(any_)}"
        + (f" (its ports: {show(sorted(reported))})" if any_ is None else "")
        + "; RT-TOOL-10 ¶1: a boolean (a missing port is not false)",
        at=f"{at}/ports/executed_any",
    ):
        ctx.expect(
            any_ is want.work,
            f"the pass reports executed_any {show(any_)}, expected {show(want.work)}; {clause}",
            at=f"{at}/ports/executed_any",
        )
    for name, expected in (("executed", want.executed), ("skipped", want.skipped)):
        value = port(one, name)
        listed = value if isinstance(value, list) else None
        ctx.expect(
            listed is not None
            and len(listed) == len(set(map(str, listed)))
            and set(listed) == set(expected),
            f"the pass reports {name} {show(value)}, expected {show(sorted(expected))} in any "
            f"order; {clause}",
            at=f"{at}/ports/{name}",
            reading="executed-order",
        )


@dataclass(frozen=True)
class Partition:
    """A batch recorded first, then the judged batch (after a question, with ``pause``)."""

    first: Batch
    second: Batch
    expected: Judged
    pause: bool = False


_A, _B = call("do_thing", [], "call_a"), call("other_thing", [], "call_b")
_ODD = '调用-ä/"1"\\~' + "x" * 300
PARTITIONS = {
    "repeat-then-new": Partition(
        (_A,), (_A, _B), Judged(frozenset({"call_b"}), frozenset({"call_a"}), True)
    ),
    "new-around-a-repeat": Partition(
        (_A,),
        (call("other_thing", [], "call_b"), _A, call("do_thing", [], "call_c")),
        Judged(frozenset({"call_b", "call_c"}), frozenset({"call_a"}), True),
    ),
    "every-kind-of-result": Partition(
        (_A,),
        (
            _A,
            call("failing_thing", {}, "call_f"),
            call("no_such_tool", {}, "call_u"),
            call("strict_thing", {"n": {"not": "a number"}}, "call_i"),
        ),
        Judged(frozenset({"call_f", "call_u", "call_i"}), frozenset({"call_a"}), True),
    ),
    "after-an-answer": Partition(
        (_A,), (_A, _B), Judged(frozenset({"call_b"}), frozenset({"call_a"}), True), pause=True
    ),
    "unusual-identifiers": Partition(
        (call("do_thing", [], _ODD),),
        (call("do_thing", [], _ODD), call("other_thing", [], "b/~1 ü")),
        Judged(frozenset({"b/~1 ü"}), frozenset({_ODD}), True),
    ),
}


def _ids(batch: Batch) -> frozenset[str]:
    return frozenset(str(mapping(c).get("tool_call_id")) for c in batch)


@check("RT-TOOL-10#c1", variants=PARTITIONS)
def check_executed_complements_skipped(ctx: CheckContext, variant: Partition) -> None:
    """`executed_any` is a boolean, and `executed` lists exactly the calls that reached the
    guard and were not skipped."""
    _, found = _play(
        ctx,
        "rt10-c1-complement",
        [variant.first, variant.second],
        pause_after=0 if variant.pause else None,
    )
    clause = "RT-TOOL-10 ¶1: executed is the complement of skipped"
    _judge(ctx, found[0][0], found[0][1], Judged(_ids(variant.first), frozenset(), True), clause)
    _judge(ctx, found[1][0], found[1][1], variant.expected, clause)


FIRST_TIME: dict[str, Batch] = {
    "unwired-tool": (call("no_such_tool", {}, "call_x"),),
    "declined-call": (call("gated_thing", {}, "call_x"),),
    "invalid-arguments": (call("strict_thing", {"n": {"not": "a number"}}, "call_x"),),
    "failing-tool": (call("failing_thing", {}, "call_x"),),
    "refused-retry-on-resume": (call("write_thing", {"to": "a"}, "call_x"),),
}


@check("RT-TOOL-10#c2", variants=FIRST_TIME)
def check_first_time_handling_is_work(ctx: CheckContext, variant: Batch) -> None:
    """A call handled for the first time is work, though no tool ran or it failed: a batch
    of only such a call reports `executed_any` true, and the call on `executed`."""
    name = str(mapping(variant[0]).get("name"))
    steps: list[Step] = [StartTurn("t1")]
    model: list[Reply] = [calls(*variant)]
    tools = TOOLS
    if name == "gated_thing":
        steps.append(Decline("t1"))
        tools = [*TOOLS, GATED]
    elif name == "write_thing":
        # The identical retry, under a new id, of a write cut after its body ran is refused
        # on resume by the durable-resume rules (DR-4): only they make such a resume.
        ctx.require_profile("durable-resume")
        first = call("write_thing", {"to": "a"}, "call_w")
        model = [calls(first), *model]
        steps = [Interrupt("after_tool_body", "time_limit", "write_thing"), StartTurn("t1"), Wait()]
    trace = one_turn(
        ctx, "rt10-c2-first-time", tools=tools, model=[*model, say("done")], steps=steps
    )
    judged = [
        (at, one)
        for at, _, one in located_passes(trace)
        if "call_x" in _ids(one.batch) and not one.paused
    ]
    ctx.need(bool(judged), "no tool pass handled call_x to the end", at="/steps")
    at, one = judged[-1]
    _judge(
        ctx,
        at,
        one,
        Judged(frozenset({"call_x"}), frozenset(), True),
        "RT-TOOL-10 ¶2: a call handled for the first time is work",
    )


@dataclass(frozen=True)
class Repeats:
    """A batch sent ``times`` times (a question answered after the first, with ``pause``)."""

    batch: Batch = (_A,)
    times: int = 2
    pause: bool = False


REPEATS = {
    "second-pass": Repeats(),
    "third-pass": Repeats(times=3),
    "after-an-answer": Repeats(pause=True),
    "of-a-stored-failure": Repeats(batch=(call("failing_thing", {}, "call_a"),)),
    "of-two-calls": Repeats(batch=(_A, _B)),
}


@check("RT-TOOL-10#c2", variants=REPEATS, name="all-repeat-pass-is-idle")
def check_all_repeat_pass_is_idle(ctx: CheckContext, variant: Repeats) -> None:
    """A pass whose every call was already handled in the run reports `executed_any`
    false, although it re-emits results: only first-time handling is work."""
    _, found = _play(
        ctx,
        "rt10-c2-all-repeat",
        [variant.batch] * variant.times,
        pause_after=0 if variant.pause else None,
    )
    ids = _ids(variant.batch)
    first = "RT-TOOL-10 ¶2: a call handled for the first time is work"
    _judge(ctx, found[0][0], found[0][1], Judged(ids, frozenset(), True), first)
    for at, one in found[1:]:
        _judge(
            ctx,
            at,
            one,
            Judged(frozenset(), ids, False),
            "RT-TOOL-10 ¶2: a pass of nothing but repeats did no work",
        )


EMPTY: dict[str, tuple[tuple[Batch, ...], int | None]] = {
    "first-pass": (((),), None),
    "after-a-pass-that-worked": (((_A,), ()), None),
    "after-an-answer": (((_A,), ()), 0),
}


@check("RT-TOOL-10#c3", variants=EMPTY)
def check_empty_batch_reports_false(
    ctx: CheckContext, variant: tuple[tuple[Batch, ...], int | None]
) -> None:
    """An empty batch reports `executed_any` false."""
    batches, pause_after = variant
    _, found = _play(ctx, "rt10-c3-empty", batches, pause_after=pause_after)
    at, one = found[-1]
    _judge(ctx, at, one, Judged(), "RT-TOOL-10 ¶3: an empty batch reports false")


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
        (_A, _BARE), Judged(skipped=frozenset({"call_a"}), work=True), first=(_A,)
    ),
    "sent-again": Unguarded(
        (_BARE,), Judged(work=True), first=(_BARE,), also_first=Judged(work=True)
    ),
    "after-an-answer": Unguarded(
        (_BARE,), Judged(work=True), first=(_BARE,), pause=True, also_first=Judged(work=True)
    ),
}


def _unguarded(
    ctx: CheckContext, name: str, variant: Unguarded, clause: str
) -> list[tuple[str, PassRecord]]:
    batches = [variant.judged] if variant.first is None else [variant.first, variant.judged]
    _, found = _play(ctx, name, batches, pause_after=0 if variant.pause else None)
    if variant.also_first is not None:
        _judge(ctx, found[0][0], found[0][1], variant.also_first, clause)
    _judge(ctx, found[-1][0], found[-1][1], variant.expected, clause)
    return found


@check("RT-TOOL-10#c4", variants=WITHOUT_IDS)
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
        (_A, *_BLANK, *_NOT_SCALAR), Judged(skipped=frozenset({"call_a"})), first=(_A,)
    ),
    "numeric-name-is-a-scalar": Unguarded(
        ({"name": 42, "args": {}, "tool_call_id": "call_n"}, *_BLANK[:1]),
        Judged(executed=frozenset({"call_n"}), work=True),
    ),
}


@check("RT-TOOL-10#c4", variants=MALFORMED)
def check_malformed_call_dropped_before_the_guard(ctx: CheckContext, variant: Unguarded) -> None:
    """A call that is not a map, or whose name is blank or not a scalar, is dropped before
    the guard: no result, on neither list, and it leaves `executed_any` false."""
    found = _unguarded(
        ctx,
        "rt10-c4-malformed",
        variant,
        "RT-TOOL-10 ¶4: a call that is not a map, or whose name is blank or not a scalar, is "
        "dropped before the guard, appears in neither list and leaves executed_any false (a "
        "numeric name is a scalar)",
    )
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


EXPOSURES: dict[str, dict[str, bool] | None] = {
    "no-choices": None,
    "other-ports-chosen": {"tool_artifacts": True, "skipped": True},
}


@check("RT-TOOL-10#c5", variants=EXPOSURES)
def check_default_exposure(ctx: CheckContext, variant: dict[str, bool] | None) -> None:
    """`executed_any` is exposed by default, in every pass; `executed` is not."""
    trace = one_turn(
        ctx,
        "rt10-c5-exposure",
        expose=variant,
        tools=TOOLS,
        model=[calls(_A), calls(_A, _B), say("done")],
    )
    for at, _, one in located_passes(trace):
        exposed = mapping(one.exposed)
        ctx.expect(
            exposed.get("executed_any") is True,
            f"the pass reports executed_any exposed {show(exposed.get('executed_any'))}; "
            "RT-TOOL-10 ¶5 exposes it by default",
            at=f"{at}/exposed/executed_any",
        )
        ctx.expect(
            exposed.get("executed") is False,
            f"the pass reports executed exposed {show(exposed.get('executed'))}; RT-TOOL-10 ¶5 "
            "does not expose it by default",
            at=f"{at}/exposed/executed",
        )
