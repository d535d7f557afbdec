"""Hypothesis strategies for rttool scenarios (a public module: import it in your tests).

``scenarios(handshake)`` draws complete scenarios that stay within what the handshake
says the implementation can do, aimed at the inputs real runtimes get wrong:

* tools with random read-only flags and gates, batches mixing gated, read-only and write
  calls, repeated, missing and doubtful call ids (empty, blank, numeric), blank and
  numeric tool names, unwired tools and malformed calls;
* arguments that carry a ``tool_call_id`` of their own, several keys in varied order,
  long values, values of union types, JSON strings for special numbers, non-ASCII text
  and escapes, and, for the ``delta`` tool whose schema declares array, object and
  string parameters, JSON strings and character references to reconcile (RT-TOOL-8);
* tool outputs whose artifacts carry unique canary strings (``cn-...``) beside
  non-ASCII text and escapes, identical artifacts emitted twice, entries with an empty
  type or malformed shapes, a reserved key nested inside data (which is not the
  reserved key), empty and falsy data, outputs of nothing but artifacts, and payloads
  sized around a small payload bound, measured in UTF-8 bytes;
* pauses by question and by gate, answers and declines, write-back failures, restarts,
  interruptions at every named point, time limits, Continue and new messages, several
  conversations interleaved, artifacts arriving out of band, and bounds small enough to
  be crossed.

Every tool invocation that produces artifacts gets its own scripted return, so a canary
belongs to one invocation: seen more often than it was produced, it was delivered twice.
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
    EmitLateArtifact,
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
from conformance.hunt._batches import ARGUMENTS, RECONCILED, SCHEMA, SCHEMA_TOOL, batches, calls
from conformance.hunt._stable import fixed, one_of_values
from conformance.hunt._stories import story
from conformance.toolkit.machinery import CANARY_PREFIX

__all__ = [
    "ARGUMENTS",
    "CANARY_PREFIX",
    "RECONCILED",
    "SCHEMA_TOOL",
    "batches",
    "calls",
    "replies",
    "scenarios",
    "steps",
    "tool_specs",
]

TOOL_NAMES = ("alpha", "beta", "gamma")
# Strategies are immutable; building them once keeps generation cheap.
_KINDS = st.sampled_from(("link", "note"))
_ARTIFACT_COUNTS = st.integers(0, 2)
_ONE_IN_TEN = st.integers(0, 9)
_ONE_IN_FIVE = st.integers(0, 4)
# Now and then a tool tries to forge the call id or smuggle a key of its own through.
_SMUGGLED = st.sampled_from(({},) * 8 + ({"tool_call_id": "forged"}, {"smuggled": 1}))
# What rides beside the canary in a payload: text that escaping and encoding get wrong.
_EXTRAS = st.sampled_from(
    ({},) * 4
    + ({"text": "ünïcødé ✓ 😀"}, {"html": "<b>&amp;</b>"}, {"quote": '"\\\n'}, {"zero": 0})
)
# Data a tool may return beside its artifacts, falsy and nested shapes included; the
# nested ``artifacts`` key is data like any other (only the top-level key is reserved).
_NESTED = {"nested": {"artifacts": [{"type": "decoy", "payload": {"note": "not reserved"}}]}}
_DATA = one_of_values(
    (None, None, None, {}, {"ok": False}, {"empty": ""}, {"zero": 0, "none": None}, _NESTED)
)
# What a tool outputs when it produces no artifacts at all: any JSON value.
_BARE: st.SearchStrategy[object] = one_of_values(
    ({"ok": True}, "", 0, False, None, [], {"text": "plain"})
)
_MALFORMED_ENTRIES = st.sampled_from(
    ("junk", {"type": 3, "payload": {}}, {"type": "link", "payload": "not-a-map"}, {"type": "link"})
)


@functools.cache
def replies(names: tuple[str, ...]) -> st.SearchStrategy[Reply]:
    """A model reply: a batch (sometimes with text), a question, or a final text."""
    batch = batches(names)
    return st.one_of(
        batch.map(lambda b: Reply(tool_calls=b)),
        batch.map(lambda b: Reply(tool_calls=b)),
        fixed(Reply(question="Go on?")),
        fixed(Reply(text="Here you are.")),
        batch.map(lambda b: Reply(text="Working.", tool_calls=b)),
    )


def _invocations(model: Sequence[Reply], name: str) -> int:
    count = 0
    for reply in model:
        for call in reply.tool_calls or ():
            if isinstance(call, dict) and call.get("name") == name:
                count += 1
    return count


# The strategies drawn inside a scenario are made once per distinct argument and reused:
# making and validating a strategy costs more than drawing from it, and the same
# strategy draws exactly what a new one with the same arguments would.
@functools.lru_cache(maxsize=1024)
@st.composite
def _entries(
    draw: st.DrawFn, index: int, invocation: int, payload_bound: int | None
) -> list[object]:
    """The reserved-key entries of one invocation: canaried artifacts, sometimes a twin,
    an empty type, a malformed entry, or a payload sized around ``payload_bound``."""
    out: list[object] = []
    for k in range(draw(_ARTIFACT_COUNTS)):
        canary = f"{CANARY_PREFIX}{index}-{invocation}-{k}."
        payload: dict[str, object] = {"canary": canary, **draw(_EXTRAS)}
        roll = draw(_ONE_IN_TEN)
        if roll in (0, 3, 4) and payload_bound is not None:
            # Around the bound, in UTF-8 bytes of the compact encoding: two bytes a char.
            size = payload_bound + draw(st.integers(-12, 12))
            overhead = len(f'{{"canary":"{canary}","blob":""}}')
            payload = {"canary": canary, "blob": "é" * max(0, (size - overhead) // 2)}
        entry = {"type": "" if roll == 1 else draw(_KINDS), "payload": payload, **draw(_SMUGGLED)}
        out.append(entry)
        if roll == 2:
            out.append(dict(entry))  # the same artifact, emitted twice
    if draw(_ONE_IN_TEN) == 0:
        out.append(draw(_MALFORMED_ENTRIES))
    return out


def tool_specs(
    model: Sequence[Reply], gates: bool, payload_bound: int | None = None
) -> st.SearchStrategy[tuple[Tool, ...]]:
    """One tool per name the model uses (and ``delta``), with fresh canaries per artifact
    per invocation.

    Each tool's returns cover every call naming it; a last, artifact-free return stands
    in for any further invocation (an id-less call re-run, a re-issued batch).
    """
    invocations = tuple(_invocations(model, name) for name in (*TOOL_NAMES, SCHEMA_TOOL))
    return _tools(invocations, gates, payload_bound)


@functools.lru_cache(maxsize=1024)
@st.composite
def _tools(
    draw: st.DrawFn, invocations: tuple[int, ...], gates: bool, payload_bound: int | None
) -> tuple[Tool, ...]:
    """:func:`tool_specs` for tools invoked ``invocations`` times each, in name order."""
    tools = []
    for index, name in enumerate((*TOOL_NAMES, SCHEMA_TOOL)):
        returns = []
        for invocation in range(invocations[index]):
            artifacts = draw(_entries(index, invocation, payload_bound))
            if draw(_ONE_IN_TEN) == 0:
                returns.append(Return(output={"artifacts": artifacts}, fail="refused"))
            elif not artifacts:
                bare = draw(_BARE)
                # A receipt the journal note must pass on as the call's short result.
                receipt = {"receipt": f"rc-{index}-{invocation}"}
                returns.append(Return(output={**bare, **receipt} if bare == {"ok": True} else bare))
            else:
                data = draw(_DATA)
                base = {"n": invocation} if data is None else dict(data)
                returns.append(Return(output={**base, "artifacts": artifacts}))
        returns.append(Return(output={"n": "again"}))
        tools.append(
            Tool(
                name=name,
                returns=tuple(returns),
                read_only=draw(st.booleans()),
                input_schema=SCHEMA if name == SCHEMA_TOOL else {},
                gate=gates and name != SCHEMA_TOOL and draw(_ONE_IN_FIVE) == 0,
            )
        )
    return tuple(tools)


_LATE = st.builds(
    lambda turn, target, k: EmitLateArtifact(
        turn=turn,
        target=target,
        artifact={"type": "link", "payload": {"canary": f"{CANARY_PREFIX}9-{k}-0."}},
    ),
    st.sampled_from(("t1", "t2")),
    st.sampled_from(("ended", "unopened")),
    st.integers(0, 99),
)


def steps(handshake: Handshake, max_steps: int) -> st.SearchStrategy[tuple[Step, ...]]:
    """A first user message, then driver steps the handshake allows."""
    caps = handshake.capabilities
    durable = "durable-resume" in handshake.profiles
    options: list[st.SearchStrategy[Step]] = [
        st.builds(Answer, turn=st.sampled_from(("t1", "t2"))),
        st.builds(Answer, turn=st.just("t1")),
        st.builds(StartTurn, turn=st.just("t2"), message=st.just("Another thing")),
        fixed(Poll()),
    ]
    if caps.gates:
        options += [
            st.builds(Approve, turn=st.sampled_from(("t1", "t2"))),
            st.builds(Decline, turn=st.sampled_from(("t1", "t2"))),
        ]
    if caps.restart:
        options.append(fixed(Restart()))
    if caps.write_back_failure:
        options.append(fixed(FailWriteBack()))
    if caps.late_artifacts:
        options.append(_LATE)
    points = [p for p in caps.interrupt_points if p]
    causes = [c for c in caps.interrupt_causes if c != "crash" or caps.restart]
    if points and causes:
        options.append(
            st.builds(Interrupt, point=st.sampled_from(points), cause=st.sampled_from(causes))
        )
    if durable:
        options += [
            fixed(Wait()),
            st.builds(Continue, turn=st.sampled_from(("t1", "t2"))),
            st.builds(Stop, turn=st.sampled_from(("t1", "t2"))),
        ]
        if caps.ledger_read_failure:
            options.append(fixed(FailLedgerRead()))
    if "chat" in caps.entry_points:
        options += [
            fixed(StartTurn(turn="t3", conversation="other", message="Hi")),
            fixed(Answer(turn="t3")),
        ]
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


def _bounds(handshake: Handshake) -> st.SearchStrategy[Bounds | None]:
    no_bounds: st.SearchStrategy[Bounds | None] = fixed(None)
    if not handshake.capabilities.configurable_bounds:
        return no_bounds
    return no_bounds | st.builds(
        Bounds,
        held_artifacts=st.integers(1, 4),
        run_artifacts=st.integers(1, 6),
        payload_bytes=one_of_values((None, 160, 240)),
    )


def scenarios(
    handshake: Handshake, *, max_steps: int = 8, max_replies: int = 6
) -> st.SearchStrategy[Scenario]:
    """Complete scenarios within what ``handshake`` says the implementation can do."""
    caps = handshake.capabilities
    driver_steps = steps(handshake, max_steps)
    model_replies = st.lists(replies(TOOL_NAMES), min_size=1, max_size=max_replies)
    bounds = _bounds(handshake)

    @st.composite
    def random(draw: st.DrawFn) -> Scenario:
        model = tuple(draw(model_replies))
        chosen = draw(bounds)
        return Scenario(
            id="hunt",
            steps=draw(driver_steps),
            tools=draw(tool_specs(model, caps.gates, chosen.payload_bytes if chosen else None)),
            model=model,
            bounds=chosen,
        )

    told = story(handshake, TOOL_NAMES[:2], TOOL_NAMES[2])
    storms = _storm(handshake)

    @st.composite
    def coherent(draw: st.DrawFn) -> Scenario:
        model, driver = draw(told)
        chosen = draw(bounds)
        tools = draw(tool_specs(model, False, chosen.payload_bytes if chosen else None))
        if caps.gates:  # the story's gate endings call the third tool, which is gated
            gated = tools[2]
            tools = (
                *tools[:2],
                Tool(
                    name=gated.name,
                    returns=gated.returns,
                    read_only=gated.read_only,
                    input_schema={},
                    gate=True,
                ),
                *tools[3:],
            )
        return Scenario(id="hunt", steps=driver, tools=tools, model=model, bounds=chosen)

    if storms is None:
        return st.one_of(coherent(), coherent(), coherent(), random())

    few_replies = st.lists(replies(TOOL_NAMES[:2]), min_size=1, max_size=3)

    @st.composite
    def stormy(draw: st.DrawFn) -> Scenario:
        model = tuple(draw(few_replies))
        return Scenario(
            id="hunt",
            steps=draw(storms),
            tools=draw(tool_specs(model, False)),
            model=model,
        )

    return st.one_of(coherent(), coherent(), coherent(), random(), stormy())


def _storm(handshake: Handshake) -> st.SearchStrategy[tuple[Step, ...]] | None:
    """Time limits again and again, with Continue, Stop, restarts and a second waiter
    between them: where a turn is continued automatically too often, or offered
    Continue for an older stop."""
    caps = handshake.capabilities
    if "durable-resume" not in handshake.profiles or "time_limit" not in caps.interrupt_causes:
        return None
    points = [p for p in ("during_model_call", "after_tool_done") if p in caps.interrupt_points]
    if not points:
        return None
    cut = st.builds(Interrupt, point=st.sampled_from(points), cause=st.just("time_limit"))
    between: list[st.SearchStrategy[Step]] = [
        fixed(Continue(turn="t1")),
        fixed(Wait()),
        fixed(Stop(turn="t1")),
        fixed(StartTurn(turn="t2", message="Something else")),
    ]
    if caps.restart:
        between.append(fixed(Restart()))
    if caps.concurrent_clients:
        between.append(fixed(Wait(clients=2)))
    others = [c for c in caps.interrupt_causes if c in ("error", "stop", "cancel", "rate_limit")]
    if others:
        between.append(
            st.builds(Interrupt, point=st.sampled_from(points), cause=st.sampled_from(others))
        )

    interlude = st.one_of(between)

    @st.composite
    def storm(draw: st.DrawFn) -> tuple[Step, ...]:
        # Enough cuts to use up the automatic continuations, then what a person does
        # next (Continue, Stop, a new message, a reload, a second waiter), and more cuts.
        # Every part past the first start may shrink away, so that a counterexample is
        # as short as the bug allows (five cuts and a wait show a fourth continuation).
        out: list[Step] = [draw(cut) for _ in range(draw(st.integers(3, 6)))]
        out += [StartTurn(turn="t1"), Wait()]
        for _ in range(draw(st.integers(0, 2))):
            out += [draw(interlude) for _ in range(draw(st.integers(0, 2)))]
            out += [draw(cut) for _ in range(draw(st.integers(0, 5)))]
            if draw(st.booleans()):
                out += [Continue(turn="t1"), Wait()]
        return tuple(_first_of_each(out))

    return storm()


def _first_of_each(steps: list[Step]) -> list[Step]:
    """A label names one turn: a later start of a label already used is dropped."""
    used: set[str] = set()
    kept: list[Step] = []
    for step in steps:
        if isinstance(step, StartTurn):
            if step.turn in used:
                continue
            used.add(step.turn)
        kept.append(step)
    return kept
