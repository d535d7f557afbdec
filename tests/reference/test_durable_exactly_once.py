"""Generated: a write's side effect happens at most once across any interruptions.

The model here is the worst case for durable resume: it ignores the journal note and, in
every chunk of the turn, works through its whole plan again from the top (under fresh
call ids, so RT-TOOL-9's guard cannot help).  A plan mixes writes, read-only calls,
gated writes and questions.  Interruptions are armed at random points with random
causes; the turn is driven on (``settle`` when it is resuming, Continue when it stopped,
an answer or an approval when it paused, a restart after a crash) until it completes.
Whatever happened: once a call of a write has completed, its body never runs again, and
the journal calls completed exactly the calls that did.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl import records
from reference_impl.durable import NUDGE
from reference_impl.journal import signature
from reference_impl.seams import POINTS, ProcessKilled
from reference_impl.workflow import ModelReply, ToolSpec
from tests.reference._support import Rig, hypothesis_settings

TOOLS = (ToolSpec("send"), ToolSpec("look", read_only=True), ToolSpec("wire", gate=True))
WRITES = ("send", "wire")
REQUEST = "work through the plan"
QUESTION = "Shall I go on?"
FINISHED = "Finished."

Plan = Sequence[tuple[str, dict[str, object]]]


class PlanModel:
    """Works through ``plan`` one step per reply (a call, or ``("ask", {})`` for a
    question), starting again from the top in every chunk.

    It is stateless (everything is read off the messages it is given), so it behaves the
    same after a restart of the runtime."""

    def __init__(self, plan: Plan) -> None:
        self.plan = list(plan)

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        starts = [
            i
            for i, m in enumerate(messages)
            if m["role"] == "user"
            and (m["content"] == REQUEST or str(m["content"]).startswith(NUDGE))
        ]
        chunk = len(starts)
        step = sum(
            1
            for m in messages[starts[-1] :]
            if m["role"] == "assistant" and (m.get("tool_calls") or m.get("content") == QUESTION)
        )
        if step >= len(self.plan):
            return ModelReply(text=FINISHED)
        tool, args = self.plan[step]
        if tool == "ask":
            return ModelReply(question=QUESTION)
        return ModelReply(
            tool_calls=({"name": tool, "args": args, "tool_call_id": f"c{chunk}-{step}"},)
        )


_send = st.builds(lambda n: ("send", {"to": f"user{n}"}), st.integers(0, 5))
_look = st.builds(lambda n: ("look", {"id": n}), st.integers(0, 2))
_wire = st.builds(lambda n: ("wire", {"amount": n}), st.integers(1, 3))
_ask: st.SearchStrategy[tuple[str, dict[str, object]]] = st.just(("ask", {}))


def _distinct_writes(
    plan: list[tuple[str, dict[str, object]]],
) -> list[tuple[str, dict[str, object]]]:
    """Each write appears once in a plan: a chunk dispatches it once."""
    return [c for i, c in enumerate(plan) if c[0] not in WRITES or c not in plan[:i]]


_plan = st.lists(st.one_of(_send, _send, _send, _look, _wire, _ask), min_size=1, max_size=6).map(
    _distinct_writes
)

_arm = st.tuples(
    st.sampled_from((*POINTS, "before_tool_body", "after_tool_body")),
    st.sampled_from(
        ["time_limit", "time_limit", "time_limit", "gateway_timeout", "error", "crash"]
    ),
    st.integers(1, 6),
)


def _drive(rig: Rig) -> None:
    """Take one step: whichever the turn's state asks for."""
    try:
        if not rig.turn:
            rig.start(REQUEST)
            return
        view = rig.view(rig.turn)
        status, pending = view["status"], view["pending"]
        if status == "resuming":
            rig.runtime.settle()
        elif status == "stopped":
            rig.runtime.continue_turn(rig.turn)
        elif status == "paused" and isinstance(pending, dict):
            if pending["kind"] == "gate":
                rig.runtime.approve(rig.turn)
            else:
                rig.runtime.answer(rig.turn, "yes")
    except ProcessKilled:
        rig.restart()


def _run_to_completion(rig: Rig, plan: Plan, steps: int) -> None:
    for _ in range(steps):
        if rig.turn and rig.status(rig.turn) == "completed":
            break
        _drive(rig)
    assert rig.status(rig.turn) == "completed"
    final = rig.view(rig.turn)["messages"]
    assert final[-1]["content"] == FINISHED
    _assert_at_most_once(rig, plan)


def _assert_at_most_once(rig: Rig, plan: Plan) -> None:
    """Once a call of a write completed, its body never runs again, and the journal calls
    completed exactly the calls that did."""
    conn = rig.runtime.store.read()
    completed: Counter[str] = Counter()
    for invocation in rig.world.invocations:
        if invocation.tool not in WRITES:
            continue
        key = signature(invocation.tool, invocation.args)
        assert completed[key] == 0, f"{key!r} ran again after it completed"
        assert invocation.call_id is not None
        if records.executed_call(conn, rig.turn, invocation.call_id) is not None:
            completed[key] += 1
    journal = rig.runtime.classify(rig.runtime.ledger(rig.turn))
    assert Counter(e.signature for e in journal.completed if e.tool in WRITES) == completed
    planned = {signature(tool, args) for tool, args in plan}
    assert {signature(i.tool, i.args) for i in rig.world.invocations} <= planned


def _check(plan: Plan, arms: list[tuple[str, str, int]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        rig = Rig(Path(directory), TOOLS, model=PlanModel(plan))
        try:
            for point, cause, occurrence in arms:
                rig.seams.arm(point, cause, None, occurrence)
            _run_to_completion(rig, plan, steps=(len(arms) + 2) * (len(plan) + 2) * 2)
        finally:
            rig.close()


@hypothesis_settings(60)
@given(_plan, st.lists(_arm, max_size=6))
def test_a_write_runs_at_most_once_per_distinct_call(
    plan: Plan, arms: list[tuple[str, str, int]]
) -> None:
    _check(plan, arms)


@pytest.mark.slow
@hypothesis_settings(400)
@given(_plan, st.lists(_arm, max_size=12))
def test_a_write_runs_at_most_once_per_distinct_call_long(
    plan: Plan, arms: list[tuple[str, str, int]]
) -> None:
    _check(plan, arms)


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("cause", ["time_limit", "crash"])
def test_interruptions_at_one_point_in_a_row(tmp_path: Path, point: str, cause: str) -> None:
    """The deterministic corner: three interruptions at the same point, one after another."""
    plan: Plan = [
        ("send", {"to": "a"}),
        ("look", {"id": 1}),
        ("ask", {}),
        ("wire", {"amount": 2}),
        ("send", {"to": "b"}),
    ]
    rig = Rig(tmp_path, TOOLS, model=PlanModel(plan))
    try:
        for _ in range(3):
            rig.seams.arm(point, cause)
        _run_to_completion(rig, plan, steps=40)
    finally:
        rig.close()
