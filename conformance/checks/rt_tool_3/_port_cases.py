"""The scenarios RT-TOOL-3's checks play: calls whose artifacts travel on tool_artifacts,
exposure choices, and results whose prose is fed back to the model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adapters.scenario import Answer, Reply, Return, StartTurn, Step, Tool
from conformance.toolkit import (
    artifact,
    ask,
    call,
    calls,
    canary,
    failure,
    link,
    output,
    projection,
    tool,
)

__all__ = [
    "CREATED",
    "DEFAULTS",
    "EXPOSURES",
    "ODD_ID",
    "PAIRINGS",
    "PROSES",
    "Defaults",
    "Exposure",
    "Made",
    "Pairing",
    "Prose",
    "marked_artifact",
]


@dataclass(frozen=True)
class Made:
    """One call: its tool, its identifier, and the entries its node emits."""

    tool: str
    call_id: str
    emitted: tuple[dict[str, object], ...]

    @property
    def expected(self) -> list[dict[str, object]]:
        """What the port must show for it: each entry's type and payload."""
        return [projection(entry) for entry in self.emitted]


@dataclass(frozen=True)
class Pairing:
    """Batches of calls, one pass each."""

    passes: tuple[tuple[Made, ...], ...]

    def tools(self) -> list[Tool]:
        returns: dict[str, list[Return]] = {}
        for batch in self.passes:
            for made in batch:
                returns.setdefault(made.tool, []).append(output({"ok": True}, *made.emitted))
        return [tool(name, *listed) for name, listed in returns.items()]


ODD_ID = '调用/"1"~0 ' + "x" * 200


PAIRINGS: dict[str, Pairing] = {
    "several-calls": Pairing(
        (
            (
                Made("make", "c1", (link("https://e.x/1"),)),
                Made("cite", ODD_ID, (artifact("citation", {"ref": "r"}), link("https://e.x/2"))),
                Made("note", "c3", (artifact("note", {"text": "n"}),)),
            ),
        )
    ),
    "two-calls-of-one-tool": Pairing(
        (
            (
                Made("make", "c1", (link("https://e.x/first"),)),
                Made("make", "c2", (link("https://e.x/second"), artifact("note", {}))),
            ),
        )
    ),
    "forged-call-id": Pairing(
        (
            (
                Made("forger", "c1", ({**link("https://e.x/f"), "tool_call_id": "forged-id"},)),
                Made("honest", "c2", (artifact("citation", {"ref": "r"}),)),
            ),
        )
    ),
    "forges-its-siblings-id": Pairing(
        (
            (
                Made("forger", "c1", ({**link("https://e.x/f"), "tool_call_id": "c2"},)),
                Made("honest", "c2", (artifact("citation", {"ref": "r"}),)),
            ),
        )
    ),
    "keys-of-their-own": Pairing(
        (
            (
                Made(
                    "smuggler",
                    "c1",
                    (
                        {**link("https://e.x/s"), "smuggled": "extra", "metadata": {"a": 1}},
                        artifact(
                            "wrap", {"type": "inner", "payload": {"x": 1}, "tool_call_id": "in"}
                        ),
                    ),
                ),
            ),
        )
    ),
    "later-pass": Pairing(
        (
            (Made("make", "c1", (link("https://e.x/p1"),)),),
            (Made("other", "c2", (link("https://e.x/p2"),)),),
        )
    ),
}


@dataclass(frozen=True)
class Defaults:
    """``expose``: the author's exposure choices (``None``: none at all); ``pause``: the
    turn pauses on a question between two passes, so that a later run reports too."""

    expose: Mapping[str, bool] | None = None
    pause: bool = False


DEFAULTS: dict[str, Defaults] = {
    "no-choice": Defaults(),
    "other-ports-exposed": Defaults(expose={"executed": True, "skipped": True}),
    "every-pass": Defaults(pause=True),
}


@dataclass(frozen=True)
class Prose:
    """Calls whose artifacts are marked; ``data`` strings that must reach the model."""

    tools: tuple[Tool, ...]
    model: tuple[Reply, ...]
    marks: tuple[str, ...]
    data: tuple[tuple[str, str], ...] = ()  # (call id, a string of its data)
    steps: tuple[Step, ...] = (StartTurn("t1"),)


def marked_artifact(tag: str) -> dict[str, object]:
    mark = canary(f"rt3-c3-{tag}")
    return artifact("link", {"url": f"https://example.com/{mark}", "title": mark})


def _mark(tag: str) -> str:
    return canary(f"rt3-c3-{tag}")


CREATED = "Created node 5 (draft)."


PROSES: dict[str, Prose] = {
    "one-call": Prose(
        (tool("create_node", output({"result": CREATED}, marked_artifact("one"))),),
        (calls(call("create_node", {}, "c1")),),
        (_mark("one"),),
        (("c1", CREATED),),
    ),
    "several-calls": Prose(
        (
            tool("a", output({"result": "Alpha done."}, marked_artifact("a"))),
            tool(
                "b",
                output(
                    {"summary": "Beta done.", "n": 2},
                    marked_artifact("b-one"),
                    marked_artifact("b-two"),
                ),
            ),
            tool("c", output({"result": "Gamma done."})),
        ),
        (calls(call("a", {}, "c1"), call("b", {}, "c2"), call("c", {}, "c3")),),
        (_mark("a"), _mark("b-one"), _mark("b-two")),
        (("c1", "Alpha done."), ("c2", "Beta done."), ("c3", "Gamma done.")),
    ),
    "two-calls-of-one-tool": Prose(
        (
            tool(
                "make",
                output({"result": "First made."}, marked_artifact("first")),
                output({"result": "Second made."}),
            ),
        ),
        (calls(call("make", {}, "c1"), call("make", {}, "c2")),),
        (_mark("first"),),
        (("c1", "First made."), ("c2", "Second made.")),
    ),
    "failed-call": Prose(
        (tool("flaky", failure("upstream refused", marked_artifact("failed"))),),
        (calls(call("flaky", {}, "c1")),),
        (_mark("failed"),),
    ),
    "re-emitted-repeat": Prose(
        (tool("make", output({"result": CREATED}, marked_artifact("repeat"))),),
        (calls(call("make", {}, "c1")), calls(call("make", {}, "c1"))),
        (_mark("repeat"),),
        (("c1", CREATED),),
    ),
    "after-a-pause": Prose(
        (tool("make", output({"result": CREATED}, marked_artifact("paused"))),),
        (calls(call("make", {}, "c1")), ask("Which format?")),
        (_mark("paused"),),
        (("c1", CREATED),),
        steps=(StartTurn("t1"), Answer("t1")),
    ),
    "artifact-type-and-non-ascii": Prose(
        (
            tool(
                "make",
                output(
                    {"result": CREATED},
                    artifact(_mark("type"), {"t": f"été 😀 {_mark('ü')}"}),
                ),
            ),
        ),
        (calls(call("make", {}, "c1")),),
        (_mark("type"), _mark("ü")),
        (("c1", CREATED),),
    ),
}


@dataclass(frozen=True)
class Exposure:
    """The author's choice for ``tool_artifacts``; ``calls`` calls in one batch;
    ``pause``: a question after the batch, so that the artifacts are held, then delivered."""

    choice: bool
    calls: int = 1
    pause: bool = False


EXPOSURES: dict[str, Exposure] = {
    "exposed": Exposure(True),
    "explicitly-not-exposed": Exposure(False),
    "several-calls-exposed": Exposure(True, calls=3),
    "held-through-a-pause-exposed": Exposure(True, pause=True),
}
