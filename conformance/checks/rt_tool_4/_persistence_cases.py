"""The scenarios RT-TOOL-4's checks play: runs whose artifacts are persisted on their
messages, turns whose results aggregate them, and the wire forms that carry them."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import (
    Answer,
    Interrupt,
    Reply,
    Restart,
    StartTurn,
    Step,
    Tool,
)
from conformance.toolkit import artifact, ask, call, calls, canary, link, output, say, tool

__all__ = [
    "AGGREGATING",
    "MARK3",
    "PERSISTING",
    "SHAPES",
    "WIRE_FORMS",
    "A",
    "Aggregating",
    "B",
    "Persisting",
    "WireForm",
]


@dataclass(frozen=True)
class Persisting:
    """A scenario whose runs collect marked artifacts: ``collected`` lists, per mark, the
    turn and the index of the step whose run collected it; ``cut`` says that run was cut,
    so that the run of the next step (which completes the turn) may deliver it instead."""

    tools: tuple[Tool, ...]
    model: tuple[Reply, ...]
    steps: tuple[Step, ...]
    collected: tuple[tuple[str, str, int], ...]
    cut: bool = False
    #: the run that resumes the cut turn asks a question, answered in one more step
    then_a_question: bool = False


def _mark(tag: str) -> str:
    return canary(f"rt4-c1-{tag}")


def _cut(cause: str, *, then_a_question: bool = False) -> Persisting:
    tag = f"{cause}-{'asked' if then_a_question else 'done'}"
    question: tuple[Reply, ...] = (ask("Which format?"),) if then_a_question else ()
    return Persisting(
        (tool("make", output({"ok": True}, link(_mark(f"{tag}-a")), link(_mark(f"{tag}-b")))),),
        (
            calls(call("make", {}, "c1"), text="Working on it."),
            *question,
            say("Here is your report."),
        ),
        (Interrupt("after_tool_done", cause, "make"), StartTurn("t1")),  # type: ignore[arg-type]
        ((_mark(f"{tag}-a"), "t1", 1), (_mark(f"{tag}-b"), "t1", 1)),
        cut=True,
        then_a_question=then_a_question,
    )


PERSISTING: dict[str, Persisting] = {
    "two-messages": Persisting(
        (tool("make", output({"ok": True}, link(_mark("two")))),),
        (calls(call("make", {}, "c1"), text="Working on it."), say("Here is your report.")),
        (StartTurn("t1"),),
        ((_mark("two"), "t1", 0),),
    ),
    "three-messages-two-passes": Persisting(
        (
            tool(
                "make",
                output({"ok": True}, link(_mark("p1"))),
                output({"ok": True}, link(_mark("p2"))),
            ),
        ),
        (
            calls(call("make", {}, "c1"), text="Step one."),
            calls(call("make", {}, "c2"), text="Step two."),
            say("All done."),
        ),
        (StartTurn("t1"),),
        ((_mark("p1"), "t1", 0), (_mark("p2"), "t1", 0)),
    ),
    "several-calls": Persisting(
        (
            tool(
                "a",
                output(
                    {"ok": True}, link(_mark("a-link")), artifact("note", {"m": _mark("a-note")})
                ),
            ),
            tool("b", output({"ok": True}, link(_mark("b-link")))),
        ),
        (calls(call("a", {}, "c1"), call("b", {}, "c2"), text="Working."), say("Done.")),
        (StartTurn("t1"),),
        ((_mark("a-link"), "t1", 0), (_mark("a-note"), "t1", 0), (_mark("b-link"), "t1", 0)),
    ),
    "later-run-of-the-turn": Persisting(
        (tool("make", output({"ok": True}, link(_mark("later")))),),
        (
            Reply(text="Let me check.", question="Which format?"),
            calls(call("make", {}, "c1"), text="Making it."),
            say("Done."),
        ),
        (StartTurn("t1"), Answer("t1")),
        ((_mark("later"), "t1", 1),),
    ),
    "second-turn": Persisting(
        (
            tool(
                "make",
                output({"ok": True}, link(_mark("turn-1"))),
                output({"ok": True}, link(_mark("turn-2"))),
            ),
        ),
        (
            calls(call("make", {}, "c1"), text="First."),
            say("First done."),
            calls(call("make", {}, "c2"), text="Again."),
            say("Second done."),
        ),
        (StartTurn("t1"), StartTurn("t2", message="Once more")),
        ((_mark("turn-1"), "t1", 0), (_mark("turn-2"), "t2", 1)),
    ),
    "cut-by-time-limit": _cut("time_limit"),
    "cut-by-error": _cut("error"),
    "cut-then-a-question": _cut("time_limit", then_a_question=True),
}


@dataclass(frozen=True)
class Aggregating:
    """A scenario whose turns ``labels`` are judged after every step from ``judged`` on;
    ``produced`` are the entries (type and payload) each turn's runs produced."""

    tools: tuple[Tool, ...]
    model: tuple[Reply, ...]
    steps: tuple[Step, ...]
    produced: tuple[tuple[str, tuple[dict[str, object], ...]], ...]
    judged: int


def _payloads() -> tuple[dict[str, object], ...]:
    return (
        artifact("link", {"url": canary("rt4-c2-shape"), "titre": "été — 😀", "q": '"\\\n'}),
        artifact("data", {"nested": {"list": [1, [2, {"k": None}]], "falsy": [0, False, ""]}}),
        artifact("long", {"text": "ü" * 5_000}),
    )


SHAPES = _payloads()


A, B = link(canary("rt4-c2-a")), link(canary("rt4-c2-b"))


AGGREGATING: dict[str, Aggregating] = {
    "two-passes": Aggregating(
        (tool("make", output({"ok": True}, A), output({"ok": True}, B)),),
        (calls(call("make", {}, "c1")), calls(call("make", {}, "c2")), say("done")),
        (StartTurn("t1"), Restart()),
        (("t1", (A, B)),),
        0,
    ),
    "held-through-a-pause": Aggregating(
        (tool("make", output({"ok": True}, A), output({"ok": True}, B)),),
        (calls(call("make", {}, "c1")), ask(), calls(call("make", {}, "c2")), say("done")),
        (StartTurn("t1"), Answer("t1"), Restart()),
        (("t1", (A, B)),),
        1,
    ),
    "two-turns": Aggregating(
        (tool("make", output({"ok": True}, A), output({"ok": True}, B)),),
        (calls(call("make", {}, "c1")), say("one"), calls(call("make", {}, "c2")), say("two")),
        (StartTurn("t1"), StartTurn("t2", message="Again"), Restart()),
        (("t1", (A,)), ("t2", (B,))),
        1,
    ),
    "payloads-of-every-shape": Aggregating(
        (tool("make", output({"ok": True}, *SHAPES)),),
        (calls(call("make", {}, "c1")), say("done")),
        (StartTurn("t1"), Restart()),
        (("t1", SHAPES),),
        0,
    ),
}


@dataclass(frozen=True)
class WireForm:
    """Where the message rows are read: the turn read after ``restart`` or not, or the
    message poll; ``payload`` is the artifact's payload."""

    poll: bool = False
    restart: bool = False
    payload: tuple[tuple[str, object], ...] = ()


MARK3 = canary("rt4-c3")


WIRE_FORMS: dict[str, WireForm] = {
    "turn-read": WireForm(),
    "after-a-reload": WireForm(restart=True),
    "message-poll": WireForm(poll=True),
    "payload-naming-metadata": WireForm(
        payload=(("metadata", {"toolArtifacts": [MARK3]}), ("toolArtifacts", MARK3))
    ),
}
