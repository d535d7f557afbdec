"""DR-3's examples as vectors: completed calls, a cut, and the resumed chunk's calls, and
the calls that really run (counted, not ordered)."""

from __future__ import annotations

import json

from adapters.scenario import Interrupt, StartTurn, Wait
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
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
    ctx.expect(
        ran == expected,
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
        through=(CONTINUES_ON_ITS_OWN,),
    ),
)
