"""Hypothesis strategies for rttool scenarios (a public module: import it in your tests).

``scenarios(handshake)`` draws complete scenarios that stay within what the handshake
says the implementation can do: tools with random read-only flags and gates, artifacts
whose payloads carry unique canary strings (``cn-...``), batches with repeated and
missing call ids and malformed calls, pauses by question and by gate, answers and
declines, write-back failures, restarts, interruptions at every named point, time
limits, Continue and new messages, and bounds small enough to be crossed.

Every tool invocation that produces artifacts gets its own scripted return, so each
canary is produced at most once: any canary seen twice was delivered twice.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hypothesis import strategies as st

from adapters.handshake import Handshake
from adapters.scenario import (
    Answer,
    Approve,
    Bounds,
    Continue,
    Decline,
    FailLedgerRead,
    FailWriteBack,
    Interrupt,
    Poll,
    Reply,
    Restart,
    Return,
    Scenario,
    StartTurn,
    Step,
    Stop,
    Tool,
    Wait,
)
from conformance.hunt._stories import story

__all__ = ["CANARY_PREFIX", "batches", "calls", "replies", "scenarios", "steps", "tool_specs"]

CANARY_PREFIX = "cn-"
TOOL_NAMES = ("alpha", "beta", "gamma")
ARGS: tuple[dict[str, str], ...] = ({}, {"to": "ana"}, {"to": "bo"})
TURNS = ("t1", "t2")
# Strategies are immutable; building them once keeps generation cheap.
_KINDS = st.sampled_from(("link", "note"))
_ARTIFACT_COUNTS = st.integers(0, 2)
_ONE_IN_TEN = st.integers(0, 9)
_ONE_IN_FIVE = st.integers(0, 4)
# Now and then a tool tries to forge the call id or smuggle a key of its own through.
_SMUGGLED = st.sampled_from(({},) * 8 + ({"tool_call_id": "forged"}, {"smuggled": 1}))


@functools.cache
def calls(names: tuple[str, ...]) -> st.SearchStrategy[object]:
    """One tool call: usually well formed, from a small id space (so repeats happen),
    sometimes without an id, sometimes malformed."""
    well_formed = st.builds(
        lambda name, args, n: {"name": name, "args": dict(args), "tool_call_id": f"c{n}"},
        st.sampled_from(names),
        st.sampled_from(ARGS),
        st.integers(1, 6),
    )
    no_id = st.builds(
        lambda name, args: {"name": name, "args": dict(args)},
        st.sampled_from(names),
        st.sampled_from(ARGS),
    )
    malformed = st.sampled_from(("not a call", 7, {"name": ""}, {"args": {}}))
    return st.one_of(well_formed, well_formed, well_formed, well_formed, no_id, malformed)


@functools.cache
def batches(names: tuple[str, ...]) -> st.SearchStrategy[tuple[object, ...]]:
    """Batches of up to three calls (sometimes empty)."""
    return st.lists(calls(names), min_size=0, max_size=3).map(tuple)


@functools.cache
def replies(names: tuple[str, ...]) -> st.SearchStrategy[Reply]:
    """A model reply: a batch (sometimes with text), a question, or a final text."""
    batch = batches(names)
    return st.one_of(
        batch.map(lambda b: Reply(tool_calls=b)),
        batch.map(lambda b: Reply(tool_calls=b)),
        st.just(Reply(question="Go on?")),
        st.just(Reply(text="Here you are.")),
        batch.map(lambda b: Reply(text="Working.", tool_calls=b)),
    )


def _invocations(model: Sequence[Reply], name: str) -> int:
    count = 0
    for reply in model:
        for call in reply.tool_calls or ():
            if isinstance(call, dict) and call.get("name") == name:
                count += 1
    return count


@st.composite
def tool_specs(draw: st.DrawFn, model: Sequence[Reply], gates: bool) -> tuple[Tool, ...]:
    """One tool per name the model uses, with a fresh canary per artifact per invocation.

    Each tool's returns cover every call naming it; a last, artifact-free return stands
    in for any further invocation (an id-less call re-run, a re-issued batch).
    """
    tools = []
    for index, name in enumerate(TOOL_NAMES):
        count = _invocations(model, name)
        returns = []
        for invocation in range(count):
            artifacts = [
                {
                    "type": draw(_KINDS),
                    "payload": {"canary": f"{CANARY_PREFIX}{index}-{invocation}-{k}."},
                    **draw(_SMUGGLED),
                }
                for k in range(draw(_ARTIFACT_COUNTS))
            ]
            if draw(_ONE_IN_TEN) == 0:
                returns.append(Return(output={"artifacts": artifacts}, fail="refused"))
            else:
                returns.append(Return(output={"n": invocation, "artifacts": artifacts}))
        returns.append(Return(output={"n": "again"}))
        tools.append(
            Tool(
                name=name,
                returns=tuple(returns),
                read_only=draw(st.booleans()),
                input_schema={},
                gate=gates and draw(_ONE_IN_FIVE) == 0,
            )
        )
    return tuple(tools)


def steps(handshake: Handshake, max_steps: int) -> st.SearchStrategy[tuple[Step, ...]]:
    """A first user message, then driver steps the handshake allows."""
    caps = handshake.capabilities
    durable = "durable-resume" in handshake.profiles
    options: list[st.SearchStrategy[Step]] = [
        st.builds(Answer, turn=st.sampled_from(TURNS)),
        st.builds(Answer, turn=st.just("t1")),
        st.builds(StartTurn, turn=st.just("t2"), message=st.just("Another thing")),
        st.just(Poll()),
    ]
    if caps.gates:
        options += [
            st.builds(Approve, turn=st.sampled_from(TURNS)),
            st.builds(Decline, turn=st.sampled_from(TURNS)),
        ]
    if caps.restart:
        options.append(st.just(Restart()))
    if caps.write_back_failure:
        options.append(st.just(FailWriteBack()))
    points = [p for p in caps.interrupt_points if p]
    causes = [c for c in caps.interrupt_causes if c != "crash" or caps.restart]
    if points and causes:
        options.append(
            st.builds(Interrupt, point=st.sampled_from(points), cause=st.sampled_from(causes))
        )
    if durable:
        options += [
            st.just(Wait()),
            st.builds(Continue, turn=st.sampled_from(TURNS)),
            st.builds(Stop, turn=st.sampled_from(TURNS)),
        ]
        if caps.ledger_read_failure:
            options.append(st.just(FailLedgerRead()))
    if "chat" in caps.entry_points:
        options.append(st.just(StartTurn(turn="t3", conversation="other", message="Hi")))
    return st.lists(st.one_of(options), max_size=max(0, max_steps - 1)).map(_first_message)


def _first_message(later: list[Step]) -> tuple[Step, ...]:
    """Start with t1; a label names one turn, so a later start of a used label is dropped."""
    used = {"t1"}
    kept: list[Step] = [StartTurn(turn="t1")]
    for step in later:
        if isinstance(step, StartTurn):
            if step.turn in used:
                continue
            used.add(step.turn)
        kept.append(step)
    return tuple(kept)


def scenarios(
    handshake: Handshake, *, max_steps: int = 8, max_replies: int = 6
) -> st.SearchStrategy[Scenario]:
    """Complete scenarios within what ``handshake`` says the implementation can do."""
    caps = handshake.capabilities
    driver_steps = steps(handshake, max_steps)
    model_replies = st.lists(replies(TOOL_NAMES), min_size=1, max_size=max_replies)
    no_bounds: st.SearchStrategy[Bounds | None] = st.none()
    bounds = (
        no_bounds
        | st.builds(Bounds, held_artifacts=st.integers(1, 4), run_artifacts=st.integers(1, 6))
        if caps.configurable_bounds
        else no_bounds
    )

    @st.composite
    def random(draw: st.DrawFn) -> Scenario:
        model = tuple(draw(model_replies))
        return Scenario(
            id="hunt",
            steps=draw(driver_steps),
            tools=draw(tool_specs(model, caps.gates)),
            model=model,
            bounds=draw(bounds),
        )

    told = story(handshake, TOOL_NAMES[:2], TOOL_NAMES[2])

    @st.composite
    def coherent(draw: st.DrawFn) -> Scenario:
        model, driver = draw(told)
        tools = draw(tool_specs(model, False))
        if caps.gates:  # the story's gate endings call the last tool, which is gated
            tools = (
                *tools[:2],
                Tool(
                    name=tools[2].name,
                    returns=tools[2].returns,
                    read_only=tools[2].read_only,
                    input_schema={},
                    gate=True,
                ),
            )
        return Scenario(id="hunt", steps=driver, tools=tools, model=model, bounds=draw(bounds))

    return st.one_of(coherent(), coherent(), coherent(), random())
