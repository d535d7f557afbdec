"""DR-3's examples as vectors: completed calls, a cut, and the resumed chunk's calls, and
the calls that really run (counted, not ordered)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from adapters.scenario import Interrupt, StartTurn, Wait
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    HARD_BLOCK_ANSWERS,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    call,
    calls,
    located_continuations,
    located_side_effects,
    mapping,
    one_turn,
    output,
    say,
    show,
    tool,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of DR-3's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("DR-3", "completed"): "input",
    ("DR-3", "redispatched"): "input",
    ("DR-3", "ran"): "outcome",
}


def _key(name: object, args: object) -> str:
    return json.dumps([name, args], sort_keys=True, ensure_ascii=False, default=str)


def _owed(
    before: Sequence[Mapping[str, object]], after: Sequence[Mapping[str, object]]
) -> list[tuple[bool, str, str]]:
    """For each re-dispatched call, whether it runs and the clause (and paragraph) whose
    words say so: a read-only call runs (¶3); a write matching a completed entry not yet
    used up is answered from it, by ¶2 where the entry sits at the call's own position
    and by ¶4 where it sits at another; a write whose identical entry an earlier call used
    up runs (¶5), and one matching no entry runs (¶4)."""
    unused = [_key(c.get("name"), c.get("args")) for c in before]
    owed: list[tuple[bool, str, str]] = []
    for position, one in enumerate(after):
        key = _key(one.get("name"), one.get("args"))
        if one.get("read_only"):
            owed.append((True, "DR-3#c3", "¶3"))
        elif key in unused:
            place = unused.index(key)
            unused[place] = ""
            owed.append((False, *(("DR-3#c2", "¶2") if place == position else ("DR-3#c4", "¶4"))))
        elif any(_key(c.get("name"), c.get("args")) == key for c in before):
            owed.append((True, "DR-3#c5", "¶5"))
        else:
            owed.append((True, "DR-3#c4", "¶4"))
    return owed


def _expect_each(
    ctx: CheckContext,
    before: Sequence[Mapping[str, object]],
    after: Sequence[Mapping[str, object]],
    bodies: Sequence[Mapping[str, object]],
    example: list[str],
    at: str | None,
) -> bool:
    """Judge each re-dispatched call (``r0``, ``r1``, ... by its identifier) by the clause
    its fate is owed to (:func:`_owed`), so that a difference is charged to the clause
    whose words it breaks; ``False`` where a body that ran carries no identifier to tell
    the calls apart by, or the clauses' reading of the example runs other calls than the
    ``example`` says (the whole list is then judged against it)."""
    owed = _owed(before, after)
    runs = sorted(
        _key(c.get("name"), c.get("args")) for c, o in zip(after, owed, strict=True) if o[0]
    )
    if runs != example or any(not isinstance(b.get("tool_call_id"), str) for b in bodies):
        return False
    ran = [b.get("tool_call_id") for b in bodies]
    for position, (one, (to_run, clause, cited)) in enumerate(zip(after, owed, strict=True)):
        did, times = ran.count(f"r{position}"), 1 if to_run else 0
        ctx.expect(
            did == times,
            f"in the resumed chunk {one.get('name')} {show(one.get('args'))} (call "
            f"r{position}) ran {did} times, where the example runs it {times} times (DR-3 "
            f"{cited})",
            at=at,
            clause=clause,
        )
    return True


def _ran(ctx: CheckContext, run: VectorRun) -> None:
    """DR-3: completed calls, a cut, the resumed chunk's calls -> the calls that really run."""
    before = [mapping(c) for c in array(run.value("completed"))]
    after = [mapping(c) for c in array(run.value("redispatched"))]
    names = {str(c.get("name")): bool(c.get("read_only")) for c in [*before, *after]}
    tools = [tool(name, output("done"), schema={}, read_only=ro) for name, ro in names.items()]
    last = str(before[-1].get("name"))
    count = sum(1 for c in before if c.get("name") == last)
    trace = one_turn(
        ctx,
        "vector-completed-redispatched-ran",
        tools=tools,
        model=[
            calls(
                *(call(str(c.get("name")), c.get("args"), f"c{i}") for i, c in enumerate(before))
            ),
            calls(*(call(str(c.get("name")), c.get("args"), f"r{i}") for i, c in enumerate(after))),
            say("done"),
        ],
        steps=[Interrupt("after_tool_done", "time_limit", last, count), StartTurn("t1"), Wait()],
    )
    resumed = {at for at, _ in located_continuations(trace)}
    effects = located_side_effects(trace)
    ran = sorted(
        _key(e.get("tool"), e.get("input")) for at, e in effects if at.rsplit("/", 2)[0] in resumed
    )
    expected = sorted(
        _key(c.get("name"), c.get("args")) for c in (mapping(x) for x in array(run.value("ran")))
    )
    bodies = [e for at, e in effects if at.rsplit("/", 2)[0] in resumed]
    first = next(iter(sorted(resumed)), None)
    judged = _expect_each(ctx, before, after, bodies, expected, first)
    ctx.expect(
        judged or ran == expected,
        f"the resumed chunk ran {show([json.loads(k) for k in ran])}; the example says "
        f"{show([json.loads(k) for k in expected])} (DR-3 ¶2-¶5)",
        at=next(iter(sorted(resumed)), None),
        expected=[json.loads(k) for k in expected],
        got=[json.loads(k) for k in ran],
    )
    earlier = [at for at, _ in effects if at.rsplit("/", 2)[0] not in resumed]
    ctx.expect(
        len(earlier) == len(before),
        f"before the cut {len(earlier)} tool bodies ran, where the example completed "
        f"{len(before)} calls",
        at=earlier[0] if earlier else None,
    )


BINDINGS = (
    Binding(
        "DR-3",
        ("completed", "redispatched", "ran"),
        ("DR-3#c2", "DR-3#c3", "DR-3#c4", "DR-3#c5"),
        _ran,
        # how often a matched write ran, by position or consumption, reads through the
        # hard-block answering one at all (¶2)
        through=(CONTINUES_ON_ITS_OWN, HARD_BLOCK_ANSWERS.judging("DR-3#c4", "DR-3#c5")),
    ),
)
