"""DR-3: a resumed chunk does not repeat a completed write."""

from __future__ import annotations

from reference_impl.durable import NUDGE
from reference_impl.passes import REUSED_NOTE
from reference_impl.seams import Seams
from reference_impl.workflow import ModelReply, ToolSpec
from tests.reference._support import (
    Record,
    Rig,
    call,
    calls,
    examples,
    interrupted_after,
    results,
    resumed_runs,
    say,
)
from tests.reference.conftest import MakeRig

(COMPLETED_1, REDISPATCHED_1, RAN_1, COMPLETED_2, REDISPATCHED_2, RAN_2) = examples("DR-3")


def _rig(make_rig: MakeRig) -> Rig:
    rig = make_rig(
        ToolSpec("send_email"), ToolSpec("refund_order"), ToolSpec("lookup_order", read_only=True)
    )
    rig.world.returns("send_email", "sent")
    return rig


def _as_calls(example: object, prefix: str) -> list[object]:
    assert isinstance(example, list)
    return [call(c["name"], c["args"], f"{prefix}{i}") for i, c in enumerate(example)]


def _ran(rig: Rig, run_id: object) -> list[Record]:
    ro = {"lookup_order"}
    return [
        {"name": i.tool, "args": i.args, **({"read_only": True} if i.tool in ro else {})}
        for i in rig.world.invocations
        if i.run_id == run_id
    ]


# -- DR-3: the worked examples ----------------------------------------------------------


def test_example_content_addressed_and_consumed_once(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    turn = interrupted_after(rig, calls(*_as_calls(COMPLETED_1, "first-")))
    rig.model.push(calls(*_as_calls(REDISPATCHED_1, "again-")), say("Done."))
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    assert _ran(rig, resumed["id"]) == RAN_1
    assert [r["disposition"] for r in results([resumed])] == ["executed", "reused", "executed"]
    assert rig.status(turn) == "completed"


def test_example_read_only_runs_again_and_the_refund_does_not(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    assert isinstance(COMPLETED_2, list)
    interrupted_after(rig, calls(*_as_calls(COMPLETED_2, "first-")), tool="refund_order")
    rig.model.push(calls(*_as_calls(REDISPATCHED_2, "again-")), say("Done."))
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    assert _ran(rig, resumed["id"]) == RAN_2
    assert rig.world.of("refund_order") == [{"id": 7}]


# -- DR-3: the clauses ------------------------------------------------------------------


def test_the_journaled_result_comes_back_with_a_note(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")))
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c2")), say("Done."))
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    (reused,) = results([resumed])
    assert reused["disposition"] == "reused"
    assert reused["result"] == {"success": True, "data": "sent", "error": None}
    assert resumed["passes"][0]["tool_messages"] == [
        {"tool_call_id": "c2", "content": f"sent\n{REUSED_NOTE}"}
    ]
    assert len(rig.world.invocations) == 1
    # The answer is recorded under the new call id, as any returned call is (RT-TOOL-9).
    last_input = rig.model.inputs[-1]
    assert {"role": "tool", "tool_call_id": "c2", "content": f"sent\n{REUSED_NOTE}"} in last_input


def test_the_snapshot_holds_prior_chunks_only(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")))
    # A write first made in this chunk is not in its snapshot: repeating it runs again.
    rig.model.push(
        calls(call("send_email", {"to": "bo"}, "c2")),
        calls(call("send_email", {"to": "bo"}, "c3")),
        say("Done."),
    )
    rig.runtime.settle()
    assert rig.world.of("send_email") == [{"to": "ana"}, {"to": "bo"}, {"to": "bo"}]


class _CountingSeams(Seams):
    def __init__(self) -> None:
        super().__init__()
        self.ledger_reads = 0

    def ledger_read(self) -> None:
        self.ledger_reads += 1
        super().ledger_read()


def test_the_snapshot_is_taken_once_per_resumed_chunk(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    seams = _CountingSeams()
    rig.seams = seams
    rig.restart()
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")))
    assert seams.ledger_reads == 0  # a first chunk reads no journal
    rig.model.push(
        calls(call("lookup_order", {"id": 1}, "c2")),
        calls(call("send_email", {"to": "bo"}, "c3")),
        calls(call("send_email", {"to": "ana"}, "c4")),
        say("Done."),
    )
    rig.runtime.settle()
    assert seams.ledger_reads == 1
    assert rig.world.of("send_email") == [{"to": "ana"}, {"to": "bo"}]


def test_match_is_on_name_and_normalized_input(make_rig: MakeRig) -> None:
    rig = make_rig(
        ToolSpec(
            "send_email", input_schema={"type": "object", "properties": {"cc": {"type": "array"}}}
        )
    )
    interrupted_after(rig, calls(call("send_email", {"to": "a&b", "cc": ["x"]}, "c1")))
    rig.model.push(
        calls(
            call("send_email", {"cc": '["x"]', "to": "a&amp;b"}, "c2"),  # same once normalized
            call("send_email", {"to": "a&b", "cc": ["y"]}, "c3"),  # different: fresh
            call("refund_order", {"to": "a&b", "cc": ["x"]}, "c4"),
        ),  # another name: unwired
        say("Done."),
    )
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    assert [r["disposition"] for r in results([resumed])] == ["reused", "executed", "unknown_tool"]
    assert rig.world.of("send_email") == [{"to": "a&b", "cc": ["x"]}, {"to": "a&b", "cc": ["y"]}]


def test_read_only_tools_are_never_blocked(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    interrupted_after(
        rig,
        calls(call("lookup_order", {"id": 7}, "c1")),
        point="after_tool_body",
        tool="lookup_order",
    )
    rig.model.push(calls(call("lookup_order", {"id": 7}, "c2")), say("Looked again."))
    rig.runtime.settle()
    assert rig.world.of("lookup_order") == [{"id": 7}, {"id": 7}]


def test_a_run_never_interrupted_is_untouched(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(
        calls(call("send_email", {"to": "ana"}, "c1")),
        calls(call("send_email", {"to": "ana"}, "c2")),
        say("Twice, on purpose."),
    )
    rig.start()
    (run,) = rig.runs()
    assert "resume" not in run
    assert [r["disposition"] for r in results([run])] == ["executed", "executed"]
    assert all(m.get("content") != NUDGE for messages in rig.model.inputs for m in messages)


# -- a pause inside a resumed chunk does not end it -------------------------------------


def _gated_rig(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("send_email"), ToolSpec("approve_me", gate=True))
    rig.world.returns("send_email", "sent")
    return rig


def test_the_hard_block_carries_over_an_answered_question(make_rig: MakeRig) -> None:
    rig = _gated_rig(make_rig)
    turn = interrupted_after(
        rig,
        calls(call("send_email", {"to": "ana"}, "c1"), call("send_email", {"to": "cy"}, "c2")),
        occurrence=2,
    )
    rig.model.push(
        calls(
            call("send_email", {"to": "ana"}, "c3"),  # reused, consumed
            call("send_email", {"to": "bo"}, "c4"),
        ),  # fresh in this chunk
        ModelReply(question="Anyone else?"),
    )
    rig.runtime.settle()
    assert rig.status(turn) == "paused"
    rig.model.push(
        calls(
            call("send_email", {"to": "cy"}, "c5"),  # completed earlier: reused
            call("send_email", {"to": "ana"}, "c6"),  # already consumed: runs
            call("send_email", {"to": "bo"}, "c7"),
        ),  # this chunk's own: runs
        say("Done."),
    )
    rig.runtime.answer(turn, "no")
    answered = rig.runs()[-1]
    assert answered["cause"] == "answer"
    assert [r["disposition"] for r in results([answered])] == ["reused", "executed", "executed"]
    assert rig.world.of("send_email") == [
        {"to": "ana"},
        {"to": "cy"},
        {"to": "bo"},
        {"to": "ana"},
        {"to": "bo"},
    ]


def test_the_hard_block_covers_a_batch_reissued_after_approval(make_rig: MakeRig) -> None:
    rig = _gated_rig(make_rig)
    turn = interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")))
    rig.model.push(
        calls(call("approve_me", {}, "g1"), call("send_email", {"to": "ana"}, "c2")), say("Done.")
    )
    rig.runtime.settle()
    assert rig.status(turn) == "paused"
    rig.runtime.approve(turn)
    approved = rig.runs()[-1]
    assert [(r["tool"], r["disposition"]) for r in results([approved])] == [
        ("approve_me", "executed"),
        ("send_email", "reused"),
    ]
    assert rig.world.of("send_email") == [{"to": "ana"}]


def test_a_refusal_carries_over_an_approval_too(make_rig: MakeRig) -> None:
    rig = _gated_rig(make_rig)
    turn = interrupted_after(
        rig, calls(call("send_email", {"to": "ana"}, "c1")), point="after_tool_body"
    )
    rig.model.push(
        calls(call("approve_me", {}, "g1"), call("send_email", {"to": "ana"}, "c2")), say("Done.")
    )
    rig.runtime.settle()
    rig.runtime.approve(turn)
    approved = rig.runs()[-1]
    assert [r["disposition"] for r in results([approved])] == ["executed", "refused"]
    assert rig.world.of("send_email") == [{"to": "ana"}]


def test_a_pause_in_a_never_interrupted_turn_changes_nothing(make_rig: MakeRig) -> None:
    rig = _gated_rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")), ModelReply(question="Again?"))
    turn = rig.start()
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c2")), say("Sent twice."))
    rig.runtime.answer(turn, "yes")
    assert rig.world.of("send_email") == [{"to": "ana"}, {"to": "ana"}]
