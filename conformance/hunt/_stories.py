"""Coherent scenarios: runs whose endings and resume steps fit together.

A purely random mix of model replies and driver steps rarely lines up a question with
its answer, a failed write-back with its retry, or a cut with the continuation that
follows it, and the bugs that matter live exactly there.  A *story* is a sequence of
segments, one per run: the batches the model sends, how the run ends (a question, a
final text, a cut, a gated call), the perturbations before the step that starts the
next run (a restart, a write-back failure, a failed ledger read, a poll), and that step,
which follows from how the previous run ended.  The model sometimes re-dispatches an
earlier batch with fresh ids, as a resumed model does.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from adapters.handshake import Handshake
from adapters.scenario import (
    RESUMABLE_CAUSES,
    Answer,
    Approve,
    Continue,
    Decline,
    EmitLateArtifact,
    FailLedgerRead,
    FailWriteBack,
    Interrupt,
    Poll,
    Reply,
    Restart,
    StartTurn,
    Step,
    Wait,
)
from conformance.hunt._batches import batches
from conformance.hunt._stable import fixed

__all__ = ["Segment", "story"]

# Weights by repetition: the interesting endings come up often.
ENDINGS = ("question", "question", "question", "text", "text", "cut", "cut", "cut", "gate")
POINTS = (
    "after_tool_done",
    "after_tool_done",
    "after_tool_done",
    "after_tool_body",
    "after_tool_body",
    "during_model_call",
    "before_tool_body",
    "during_write_back",
)


@dataclass(frozen=True)
class Segment:
    """One run of a story."""

    batches: tuple[tuple[object, ...], ...]
    ending: str
    noise: tuple[str, ...]
    cut: Interrupt | None
    approve: bool
    redispatch: int | None
    #: the re-dispatched batch calls the other tool with the same arguments, as a model
    #: that retries a step another way does
    swap: bool = False


def _segments(handshake: Handshake, names: tuple[str, ...]) -> st.SearchStrategy[Segment]:
    caps = handshake.capabilities
    durable = "durable-resume" in handshake.profiles
    endings = [
        e
        for e in ENDINGS
        if (e != "gate" or caps.gates)
        and (e != "cut" or (durable and caps.interrupt_points and caps.interrupt_causes))
    ]
    noise = (
        ["poll"]
        + (["restart"] * 2 if caps.restart else [])
        + (["fail_write_back"] * 2 if caps.write_back_failure else [])
        + (["fail_ledger_read"] if caps.ledger_read_failure and durable else [])
        + (["late_unopened", "late_ended"] if caps.late_artifacts else [])
    )
    offered = set(caps.interrupt_causes)
    causes = [c for c in caps.interrupt_causes if c != "crash"]
    if "time_limit" in offered:
        causes += ["time_limit"] * 3
    points = [p for p in POINTS if p in set(caps.interrupt_points)] or ["during_model_call"]
    cuts = st.builds(
        Interrupt, point=st.sampled_from(points), cause=st.sampled_from(causes or ["time_limit"])
    )
    non_empty = batches(names).filter(bool)
    return st.builds(
        Segment,
        batches=st.lists(non_empty, min_size=1, max_size=2).map(tuple),
        ending=st.sampled_from(endings),
        noise=st.lists(st.sampled_from(noise), max_size=2).map(tuple),
        cut=cuts,
        approve=st.booleans(),
        redispatch=fixed(None) | st.integers(0, 3),
        swap=st.booleans(),
    )


def _fresh_ids(batch: tuple[object, ...], round_: int) -> tuple[object, ...]:
    out: list[object] = []
    for call in batch:
        if isinstance(call, dict) and "tool_call_id" in call:
            out.append({**call, "tool_call_id": f"{call['tool_call_id']}r{round_}"})
        else:
            out.append(call)
    return tuple(out)


def _swapped(batch: tuple[object, ...], names: tuple[str, ...]) -> tuple[object, ...]:
    """``batch`` with each call of one of the first two tools naming the other."""
    if len(names) < 2:
        return batch
    other = {names[0]: names[1], names[1]: names[0]}
    return tuple(
        {**call, "name": other[call["name"]]}
        if isinstance(call, dict) and isinstance(call.get("name"), str) and call["name"] in other
        else call
        for call in batch
    )


_NOISE: dict[str, Step] = {
    "poll": Poll(),
    "restart": Restart(),
    "fail_write_back": FailWriteBack(),
    "fail_ledger_read": FailLedgerRead(),
}


def _noise(name: str, turn: str, index: int) -> Step:
    """A perturbation before the step that starts the next run: an artifact arriving out
    of band for the turn's next run (not yet open) or its last (released) is never kept."""
    if name.startswith("late_"):
        return EmitLateArtifact(
            turn=turn,
            target="unopened" if name == "late_unopened" else "ended",
            artifact={"type": "link", "payload": {"canary": f"cn-9-{index}-1."}},
        )
    return _NOISE[name]


def story(
    handshake: Handshake, names: tuple[str, ...], gated: str, max_segments: int = 5
) -> st.SearchStrategy[tuple[tuple[Reply, ...], tuple[Step, ...]]]:
    """Model replies and driver steps of a coherent story over tools ``names``; a gate
    ending calls tool ``gated``."""

    def tell(segments: list[Segment]) -> tuple[tuple[Reply, ...], tuple[Step, ...]]:
        model: list[Reply] = []
        steps: list[Step] = []
        sent: list[tuple[object, ...]] = []
        turn, turns = "t1", 1
        resume: Step = StartTurn(turn="t1")
        for index, segment in enumerate(segments):
            steps += [_noise(name, turn, index) for name in segment.noise]
            if segment.ending == "cut" and segment.cut is not None:
                steps.append(segment.cut)
            steps.append(resume)
            batches = list(segment.batches)
            if segment.redispatch is not None and sent:
                again = _fresh_ids(sent[segment.redispatch % len(sent)], index)
                batches.insert(0, _swapped(again, names) if segment.swap else again)
            if segment.ending == "gate":
                batches.append(
                    (
                        *(batches.pop() if batches else ()),
                        {"name": gated, "args": {}, "tool_call_id": f"g{index}"},
                    )
                )
            model += [Reply(tool_calls=batch) for batch in batches]
            sent += batches
            if "fail_write_back" in segment.noise:
                # The write-back that fails is this run's: it completes, fails, and the
                # step is retried (a failed start or continuation waits for Continue).
                model.append(Reply(text="Here you are."))
                resume = (
                    resume
                    if isinstance(resume, Answer | Approve | Decline)
                    else Continue(turn=turn)
                )
            elif segment.ending == "question":
                model.append(Reply(question="Go on?"))
                resume = Answer(turn=turn)
            elif segment.ending == "gate":
                resume = Approve(turn=turn) if segment.approve else Decline(turn=turn)
            elif segment.ending == "cut" and segment.cut is not None:
                resumable = segment.cut.cause in RESUMABLE_CAUSES
                resume = Wait() if resumable else Continue(turn=turn)
            else:
                model.append(Reply(text="Here you are."))
                turns += 1
                turn = f"t{turns}"
                resume = StartTurn(turn=turn, message="And another thing")
        steps.append(resume)
        return tuple(model), tuple(steps)

    return st.lists(_segments(handshake, names), min_size=2, max_size=max_segments).map(tell)
