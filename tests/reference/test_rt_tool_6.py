"""RT-TOOL-6: artifacts are bounded once, at the point they are collected."""

from __future__ import annotations

import json

from reference_impl.artifacts import Bounds, encoded_size
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec
from tests.reference._support import Record, Rig, assistant_rows, call, calls, examples, say
from tests.reference.conftest import MakeRig

(KEPT,) = examples("RT-TOOL-6")


def _echo(args: object) -> ToolOutcome:
    """Emit exactly the artifacts the call asks for."""
    assert isinstance(args, dict)
    return ToolOutcome(output={"ok": True, "artifacts": args["emit"]})


def _rig(make_rig: MakeRig, **bounds: int) -> Rig:
    rig = make_rig(ToolSpec("emit", input_schema={}), bounds=Bounds(**bounds))
    rig.world.behaviours["emit"] = _echo
    return rig


def _payload(size: int) -> dict[str, str]:
    """A payload whose compact JSON encoding is exactly ``size`` bytes."""
    payload = {"ref": "x" * (size - 10)}
    assert encoded_size(payload) == size
    return payload


def _delivered(rig: Rig, turn: str) -> list[Record]:
    view = rig.view(turn)
    assert isinstance(view["toolArtifacts"], list)
    return view["toolArtifacts"]


def test_example_a_later_smaller_artifact_still_fits(make_rig: MakeRig) -> None:
    assert isinstance(KEPT, dict)
    rig = _rig(make_rig, run_bytes=100)
    first = {"type": "citation", "payload": _payload(70)}
    crossing = {"type": "citation", "payload": _payload(40)}
    rig.model.push(
        calls(
            call("emit", {"emit": [first]}, "call_first"),
            call("emit", {"emit": [crossing]}, "call_big"),
            call(
                "emit", {"emit": [{"type": KEPT["type"], "payload": KEPT["payload"]}]}, "call_last"
            ),
        ),
        say("Done."),
    )
    turn = rig.start()
    retained = _delivered(rig, turn)
    # No placeholder where the dropped one would have sat: the survivors, in order.
    assert retained == [{**first, "tool_call_id": "call_first"}, KEPT]
    assert retained[-1] == KEPT


def test_floors_are_accepted_with_the_default_bounds(make_rig: MakeRig) -> None:
    # Four payloads of 512 KiB each: the payload floor, and 2 MiB in aggregate.
    rig = _rig(make_rig)
    big = [{"type": "blob", "payload": _payload(512 * 1024)} for _ in range(4)]
    rig.model.push(
        calls(call("emit", {"emit": big[:2]}, "c1")),
        calls(call("emit", {"emit": big[2:]}, "c2")),
        say("Done."),
    )
    assert len(_delivered(rig, rig.start())) == 4
    # Fifty artifacts in one run.
    rig2 = _rig(make_rig)
    rig2.model.push(
        calls(call("emit", {"emit": [{"type": "n", "payload": {"i": i}} for i in range(50)]}, "c")),
        say("Done."),
    )
    assert len(_delivered(rig2, rig2.start())) == 50
    assert rig.warnings == rig2.warnings == []


def test_an_oversized_payload_is_dropped_with_a_full_warning(make_rig: MakeRig) -> None:
    rig = _rig(make_rig, payload_bytes=50)
    big = {"type": "chart", "payload": _payload(51)}
    fits = {"type": "chart", "payload": _payload(50)}
    rig.model.push(calls(call("emit", {"emit": [big, fits]}, "c7")), say("Done."))
    turn = rig.start()
    assert rig.status(turn) == "completed"
    assert _delivered(rig, turn) == [{**fits, "tool_call_id": "c7"}]
    (run,) = rig.runs()
    (warning,) = rig.warnings
    assert {k: warning[k] for k in ("tool", "run", "type", "tool_call_id")} == {
        "tool": "emit",
        "run": run["id"],
        "type": "chart",
        "tool_call_id": "c7",
    }
    for value in ("emit", str(run["id"]), "chart", "c7"):
        assert value in str(warning["message"])


def test_count_and_aggregate_bounds_drop_per_artifact(make_rig: MakeRig) -> None:
    rig = _rig(make_rig, run_artifacts=2)
    three = [{"type": "n", "payload": {"i": i}} for i in range(3)]
    rig.model.push(calls(call("emit", {"emit": three}, "c1")), say("Done."))
    turn = rig.start()
    assert [a["payload"] for a in _delivered(rig, turn)] == [{"i": 0}, {"i": 1}]
    assert [w["type"] for w in rig.warnings] == ["n"]


def test_an_unencodable_payload_is_dropped_and_the_run_carries_on(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.behaviours["emit"] = lambda _args: ToolOutcome(
        output={
            "artifacts": [
                {"type": "bad", "payload": {"v": float("nan")}},
                {"type": "good", "payload": {"v": 1}},
            ]
        }
    )
    rig.model.push(calls(call("emit", {}, "c1")), say("Done."))
    turn = rig.start()
    assert rig.status(turn) == "completed"
    assert _delivered(rig, turn) == [{"type": "good", "payload": {"v": 1}, "tool_call_id": "c1"}]
    (warning,) = rig.warnings
    assert warning["type"] == "bad" and warning["tool_call_id"] == "c1"


def test_an_empty_type_is_refused_outright(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"emit": [{"type": "", "payload": {}}]}, "c1")), say("Done."))
    turn = rig.start()
    assert _delivered(rig, turn) == []
    (warning,) = rig.warnings
    assert warning["type"] == "" and warning["tool"] == "emit"


def test_nothing_downstream_rechecks_what_a_run_collected(make_rig: MakeRig) -> None:
    # Each run may collect two; held (first run) plus collected (second run) is four, and
    # the write-back delivers all four without re-applying the per-run bound.
    rig = _rig(make_rig, run_artifacts=2)
    two = [{"type": "n", "payload": {"i": i}} for i in range(2)]
    rig.model.push(calls(call("emit", {"emit": two}, "c1")), ModelReply(question="More?"))
    turn = rig.start()
    rig.model.push(calls(call("emit", {"emit": two}, "c2")), say("Done."))
    rig.runtime.answer(turn, "yes")
    assert len(_delivered(rig, turn)) == 4
    assert rig.warnings == []


def test_payload_values_are_kept_as_plain_text(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    hostile = {"type": "html", "payload": {"v": "<script>alert(1)</script>&amp;\u202e"}}
    rig.world.returns("emit", {"artifacts": [hostile]})
    rig.model.push(calls(call("emit", {}, "c1")), say("Done."))
    turn = rig.start()
    (row,) = assistant_rows(rig.view(turn))
    assert row["toolArtifacts"] == [{**hostile, "tool_call_id": "c1"}]
    assert json.loads(json.dumps(row))["toolArtifacts"][0]["payload"] == hostile["payload"]
