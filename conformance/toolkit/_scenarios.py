"""Short-hands for building scenarios (used by the checks, the vectors and the hunt).

The protocol's own types live in :mod:`adapters.scenario`; these helpers only make the
common shapes short to write::

    scenario("held-survives", tools=[tool("make", output({"ok": True}, link("u")))],
             model=[calls(call("make", {}, "c1")), ask("Which one?")],
             steps=[StartTurn("t1"), Restart(), Answer("t1")])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from adapters.scenario import (
    Bounds,
    NodeConfig,
    Reply,
    Return,
    Scenario,
    Step,
    Tool,
    call,
)

__all__ = [
    "artifact",
    "ask",
    "call",
    "calls",
    "canary",
    "failure",
    "link",
    "output",
    "say",
    "scenario",
    "tool",
]

PERMISSIVE: Mapping[str, object] = {}


def canary(tag: str) -> str:
    """A string unique to one artifact, so that any leak can be traced back to it."""
    return f"rttool-canary-{tag}"


def artifact(kind: str, payload: object) -> dict[str, object]:
    """A reserved-key entry ``{type, payload}`` as a tool node emits it."""
    return {"type": kind, "payload": payload}


def link(url: str) -> dict[str, object]:
    """A ``link`` artifact entry."""
    return artifact("link", {"url": url})


def output(data: object = None, *artifacts: object) -> Return:
    """A successful invocation: ``data`` (a map, or any JSON value), plus reserved-key
    ``artifacts`` when any are given (then ``data`` must be a map or ``None``)."""
    if not artifacts:
        return Return(output={"ok": True} if data is None else data)
    base = {} if data is None else data
    if not isinstance(base, Mapping):
        raise TypeError("artifacts ride on a map output")
    return Return(output={**base, "artifacts": list(artifacts)})


def failure(message: str, *artifacts: object) -> Return:
    """A recoverable failure; ``artifacts`` are what the node emitted before failing."""
    return Return(output={"artifacts": list(artifacts)} if artifacts else None, fail=message)


def tool(
    name: str,
    *returns: Return,
    read_only: bool = False,
    schema: object = None,
    gate: bool = False,
    expose_artifacts_port: bool = False,
) -> Tool:
    """A tool node; ``schema=None`` accepts any arguments."""
    return Tool(
        name=name,
        returns=returns or (output(),),
        read_only=read_only,
        input_schema=dict(PERMISSIVE) if schema is None else schema,
        gate=gate,
        expose_artifacts_port=expose_artifacts_port,
    )


def calls(*batch: object, text: str | None = None) -> Reply:
    """A model reply that calls tools (``batch`` items are raw: malformed calls allowed)."""
    return Reply(text=text, tool_calls=tuple(batch))


def say(text: str) -> Reply:
    """A model reply that answers with text and ends the run."""
    return Reply(text=text)


def ask(question: str = "Shall I go on?") -> Reply:
    """A model reply that asks the user a question: the run pauses."""
    return Reply(question=question)


def scenario(
    id: str,
    *,
    steps: Iterable[Step],
    tools: Iterable[Tool] = (),
    model: Iterable[Reply] = (),
    expose: Mapping[str, bool] | None = None,
    bounds: Bounds | None = None,
    description: str | None = None,
) -> Scenario:
    """A scenario."""
    return Scenario(
        id=id,
        steps=tuple(steps),
        tools=tuple(tools),
        model=tuple(model),
        node=None if expose is None else NodeConfig(expose=dict(expose)),
        bounds=bounds,
        description=description,
    )
