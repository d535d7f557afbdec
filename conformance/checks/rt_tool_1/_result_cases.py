"""The scenarios RT-TOOL-1's checks play: every kind of tool result, and node outputs
whose artifacts must be attached beside their data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adapters.scenario import Decline, Reply, Return, StartTurn, Step, Tool
from adapters.trace import Trace
from conformance.toolkit import (
    CheckContext,
    artifact,
    call,
    calls,
    canary,
    failure,
    link,
    one_turn,
    output,
    say,
    tool,
)

__all__ = [
    "ANY",
    "ATTACHING",
    "DISJOINT",
    "FALSY",
    "NESTED_MARK",
    "ODD_KEYS",
    "RESULT_KINDS",
    "SCALARS",
    "STRICT",
    "Disjoint",
    "Expected",
    "Results",
]

#: ``Expected.data`` when the result's data is not judged.
ANY = object()


@dataclass(frozen=True)
class Expected:
    """What one call's result must show: ``success`` (``None``: any boolean), ``data``
    (``ANY``: not judged), how many artifacts the call attached."""

    call_id: str
    success: bool | None = True
    data: object = ANY
    attached: int = 0


@dataclass(frozen=True)
class Results:
    """A scenario whose calls produce the results ``expected``."""

    tools: tuple[Tool, ...]
    batches: tuple[tuple[object, ...], ...]
    expected: tuple[Expected, ...]
    steps: tuple[Step, ...] = (StartTurn("t1"),)

    def run(self, ctx: CheckContext, name: str) -> Trace:
        model: list[Reply] = [calls(*batch) for batch in self.batches]
        return one_turn(
            ctx, name, tools=self.tools, model=[*model, say("done")], steps=list(self.steps)
        )


def _returns(name: str, value: object) -> Tool:
    """A tool whose node output is exactly ``value`` (any JSON)."""
    return tool(name, Return(output=value))


def _outputs(prefix: str, values: Mapping[str, object]) -> Results:
    """One call per value, in one batch, each tool returning its value as it is."""
    names = [f"{prefix}_{key}" for key in values]
    return Results(
        tuple(_returns(n, v) for n, v in zip(names, values.values(), strict=True)),
        (tuple(call(n, {}, f"c_{key}") for n, key in zip(names, values, strict=True)),),
        tuple(Expected(f"c_{key}", True, value) for key, value in values.items()),
    )


FALSY: dict[str, object] = {
    "null": None,
    "false": False,
    "zero": 0,
    "empty_string": "",
    "empty_list": [],
    "empty_map": {},
}


SCALARS: dict[str, object] = {
    "string": "Créé: le nœud 5 😀",
    "number": 42,
    "true": True,
    "list": [1, "a", [None, {"k": []}]],
    "escapes": 'tab\there "quoted" back\\slash',
}


ODD_KEYS = {"zeta": 1, "Ähnlich": "ü", "alpha": {"nested": [0, False]}, "": "empty key"}


STRICT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


RESULT_KINDS: dict[str, Results] = {
    "success": Results(
        (tool("make", output(ODD_KEYS)),),
        ((call("make", {}, "c1"),),),
        (Expected("c1", True, ODD_KEYS),),
    ),
    "falsy-data": _outputs("falsy", FALSY),
    "scalar-and-list-data": _outputs("scalar", SCALARS),
    "recoverable-failure": Results(
        (tool("flaky", failure("upstream refused")),),
        ((call("flaky", {}, "c1"),),),
        (Expected("c1", False),),
    ),
    "unwired-tool": Results(
        (tool("make", output({"ok": True})),),
        ((call("no_such_tool", {}, "c1"),),),
        (Expected("c1", None),),
    ),
    "invalid-arguments": Results(
        (tool("strict", output({"ok": True}), schema=STRICT),),
        ((call("strict", {"n": "not a number"}, "c1"),),),
        (Expected("c1", None),),
    ),
    "declined-call": Results(
        (tool("send", output({"sent": True}), gate=True),),
        ((call("send", {}, "c1"),),),
        (Expected("c1", None),),
        steps=(StartTurn("t1"), Decline("t1")),
    ),
    "re-emitted-repeat": Results(
        (tool("make", output({"ok": True})),),
        ((call("make", {}, "c1"),), (call("make", {}, "c1"),)),
        (Expected("c1", True, {"ok": True}),),
    ),
}


def _entry(tag: str) -> dict[str, object]:
    return artifact("note", {"ref": canary(tag)})


ATTACHING: dict[str, Results] = {
    "plain-result": Results(
        (tool("plain", output({"ok": True})),), ((call("plain", {}, "c1"),),), (Expected("c1"),)
    ),
    "empty-reserved-list": Results(
        (_returns("empty_list", {"ok": True, "artifacts": []}),),
        ((call("empty_list", {}, "c1"),),),
        (Expected("c1"),),
    ),
    "nothing-valid-on-it": Results(
        (tool("junk", output({"ok": True}, "junk", {"type": 7}, {"payload": {}})),),
        ((call("junk", {}, "c1"),),),
        (Expected("c1"),),
    ),
    "reserved-key-not-a-list": Results(
        tuple(
            _returns(f"not_list_{i}", {"ok": True, "artifacts": value})
            for i, value in enumerate(["junk", None, 7])
        ),
        (tuple(call(f"not_list_{i}", {}, f"c{i}") for i in range(3)),),
        tuple(Expected(f"c{i}") for i in range(3)),
    ),
    "falsy-data": _outputs("falsy", {k: v for k, v in FALSY.items() if k != "empty_map"}),
    "nested-artifacts-in-data": Results(
        (tool("nested", output({"report": {"artifacts": [_entry("rt1-c2-nested")]}})),),
        ((call("nested", {}, "c1"),),),
        (Expected("c1"),),
    ),
    "one-attached": Results(
        (tool("one", output({"ok": True}, _entry("rt1-c2-one"))),),
        ((call("one", {}, "c1"),),),
        (Expected("c1", attached=1),),
    ),
    "repeat-of-an-attaching-call": Results(
        (tool("make", output({"ok": True}, _entry("rt1-c2-repeat"))),),
        ((call("make", {}, "c1"),), (call("make", {}, "c1"),)),
        (Expected("c1", attached=1),),
    ),
    "several-attached": Results(
        (tool("many", output({"ok": True}, link("https://e.x/1"), _entry("a"), _entry("a"))),),
        ((call("many", {}, "c1"),),),
        (Expected("c1", attached=3),),
    ),
}


@dataclass(frozen=True)
class Disjoint:
    """Calls whose outputs carry ``data`` beside reserved-key artifacts marked by canaries."""

    outputs: tuple[tuple[dict[str, object], tuple[dict[str, object], ...]], ...]
    #: canaries that live in ``data`` itself (a nested map's own ``artifacts`` key)
    in_data: tuple[str, ...] = ()
    #: where the reserved key sits among the output's keys (``None``: after every key of
    #: ``data``); key order means nothing (docs/interpretations.md#key-order), so `data`
    #: must come out whole wherever the tool wrote it
    reserved_at: int | None = None


def _marked(tag: str, **extra: object) -> dict[str, object]:
    return artifact("link", {"url": f"https://e.x/{canary(tag)}", **extra})


NESTED_MARK = canary("rt1-c3-nested-in-data")


DISJOINT: dict[str, Disjoint] = {
    "one-artifact": Disjoint((({"title": "Report"}, (_marked("rt1-c3-one"),)),)),
    "several-artifacts": Disjoint(
        (
            (
                {"title": "Report", "pages": 3},
                (_marked("rt1-c3-a"), _marked("rt1-c3-b", deep={"x": [1]}), _marked("rt1-c3-c")),
            ),
        )
    ),
    "several-calls": Disjoint(
        (
            ({"title": "First"}, (_marked("rt1-c3-first"),)),
            ({"title": "Second"}, (_marked("rt1-c3-second"),)),
        )
    ),
    "non-ascii-and-escapes": Disjoint(
        (
            (
                {"titre": "Rapport — été 😀", "q": 'say "hi"\n'},
                (_marked("rt1-c3-ü", label='naïve 😀 "x" \\'),),
            ),
        )
    ),
    "data-keys-sorting-around-the-reserved-one": Disjoint(
        (({"answer": 42, "Name": "x", "art": True, "zeta": 1}, (_marked("rt1-c3-sorted"),)),)
    ),
    "data-keys-written-after-the-reserved-one": Disjoint(
        (({"title": "Report", "pages": 3}, (_marked("rt1-c3-written-first"),)),), reserved_at=0
    ),
    "reserved-key-written-between-data-keys": Disjoint(
        (({"before": 1, "after": [2]}, (_marked("rt1-c3-written-between"),)),), reserved_at=1
    ),
    "nested-artifacts-key-in-data": Disjoint(
        (
            (
                {"report": {"artifacts": [link(NESTED_MARK)]}},
                (_marked("rt1-c3-reserved"),),
            ),
        ),
        in_data=(NESTED_MARK,),
    ),
}
