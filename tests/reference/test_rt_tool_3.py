"""RT-TOOL-3: artifacts leave a tool call on their own port, apart from the model's prose."""

from __future__ import annotations

from reference_impl.workflow import ToolSpec
from tests.reference._support import Record, Rig, call, calls, examples, results, say
from tests.reference.conftest import MakeRig

PRODUCED, SURFACED = examples("RT-TOOL-3")


def _one_pass(rig: Rig, batch: list[object]) -> Record:
    rig.model.push(calls(*batch), say("Done here."))
    rig.start()
    assert rig.status(rig.turn) == "completed"
    (record,) = rig.runs()[0]["passes"]
    assert isinstance(record, dict)
    return record


def test_example_port_carries_the_artifact_and_prose_stays_exact(make_rig: MakeRig) -> None:
    assert isinstance(PRODUCED, dict)
    rig = make_rig(ToolSpec("create_node"))
    rig.world.returns("create_node", {**PRODUCED["data"], "artifacts": PRODUCED["artifacts"]})
    record = _one_pass(rig, [call("create_node", {}, "c1")])
    (only,) = record["results"]
    assert {k: only["result"][k] for k in PRODUCED} == PRODUCED
    assert record["ports"]["tool_artifacts"] == SURFACED
    assert record["tool_messages"] == [{"tool_call_id": "c1", "content": "Created node 5 (draft)."}]
    # ... and that exact prose is what the model reads back.
    tool_messages = [m for m in rig.model.inputs[-1] if m["role"] == "tool"]
    assert tool_messages == [
        {"role": "tool", "tool_call_id": "c1", "content": "Created node 5 (draft)."}
    ]


def test_entries_are_built_key_by_key(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("sneaky"))
    rig.world.returns(
        "sneaky",
        {
            "artifacts": [
                {"type": "link", "payload": {"u": 1}, "tool_call_id": "forged", "extra": "smuggled"}
            ]
        },
    )
    record = _one_pass(rig, [call("sneaky", {}, "real-id")])
    assert record["ports"]["tool_artifacts"] == [
        {"type": "link", "payload": {"u": 1}, "tool_call_id": "real-id"}
    ]


def test_each_entry_is_paired_with_its_own_call(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("a"), ToolSpec("b"))
    rig.world.returns("a", {"artifacts": [{"type": "t", "payload": {"from": "a"}}]})
    rig.world.returns("b", {"artifacts": [{"type": "t", "payload": {"from": "b"}}]})
    record = _one_pass(rig, [call("a", {}, "ca"), call("b", {}, "cb")])
    assert [
        (e["payload"]["from"], e["tool_call_id"]) for e in record["ports"]["tool_artifacts"]
    ] == [("a", "ca"), ("b", "cb")]


def test_port_is_not_exposed_by_default(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("t"))
    record = _one_pass(rig, [call("t", {}, "c1")])
    assert record["exposed"]["tool_artifacts"] is False


def test_prose_comes_from_data_alone(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("t"))
    rig.world.returns(
        "t",
        {
            "status": "ok",
            "artifacts": [{"type": "link", "payload": {"url": "https://hidden.example/x"}}],
        },
    )
    record = _one_pass(rig, [call("t", {}, "c1")])
    (message,) = record["tool_messages"]
    assert message["content"] == '{"status": "ok"}'
    assert "hidden.example" not in str(rig.model.inputs)


def test_delivery_does_not_depend_on_exposure(make_rig: MakeRig) -> None:
    delivered = []
    for exposed in (False, True):
        rig = make_rig(ToolSpec("t"), expose={"tool_artifacts": exposed})
        rig.world.returns("t", {"artifacts": [{"type": "link", "payload": {"n": 1}}]})
        record = _one_pass(rig, [call("t", {}, "c1")])
        assert record["exposed"]["tool_artifacts"] is exposed
        delivered.append((record["ports"]["tool_artifacts"], rig.view(rig.turn)["toolArtifacts"]))
    assert delivered[0] == delivered[1]
    assert delivered[0][1] == [{"type": "link", "payload": {"n": 1}, "tool_call_id": "c1"}]


def test_a_call_without_artifacts_surfaces_nothing(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("t"))
    record = _one_pass(rig, [call("t", {}, "c1")])
    assert record["ports"]["tool_artifacts"] == []
    assert results([{"passes": [record]}])[0]["result"] == {
        "success": True,
        "data": {"ok": True},
        "error": None,
    }
