"""RT-TOOL-2: a tool node emits artifacts on a reserved key that never reaches the model.

The narrative's example shows ``{"type": ""}`` dropped at lifting, while the normative
text keeps any entry with a string ``type``; RT-TOOL-6 refuses the empty type at
collection.  The reference follows the normative text, so the example's "lifted" list is
what leaves the call into collection (the ``tool_artifacts`` port and the delivered
message), and the tool result itself still carries the empty-typed entry.
"""

from __future__ import annotations

from reference_impl.workflow import ToolSpec
from tests.reference._support import (
    Record,
    Rig,
    assistant_rows,
    call,
    calls,
    examples,
    results,
    say,
)
from tests.reference.conftest import MakeRig

RESERVED, LIFTED = examples("RT-TOOL-2")


def _run(rig: Rig, output: object, error: str | None = None) -> tuple[str, list[Record]]:
    rig.world.returns("emit", output, error)
    rig.model.push(calls(call("emit", {}, "c1")), say("Emitted."))
    turn = rig.runtime.start_turn(rig.conversation(), "go")
    assert rig.status(turn) == "completed"
    return turn, rig.runs()


def _types_and_payloads(entries: object) -> list[Record]:
    assert isinstance(entries, list)
    return [{"type": e["type"], "payload": e["payload"]} for e in entries]


def test_example_what_leaves_the_call_is_the_lifted_list(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit"))
    turn, runs = _run(rig, {"artifacts": RESERVED})
    (record,) = runs[0]["passes"]
    assert _types_and_payloads(record["ports"]["tool_artifacts"]) == LIFTED
    assert _types_and_payloads(rig.view(turn)["toolArtifacts"]) == LIFTED


def test_normative_text_keeps_any_string_type_in_the_tool_result(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit"))
    _turn, runs = _run(rig, {"artifacts": RESERVED})
    (only,) = results(runs)
    assert only["result"]["artifacts"] == [
        {"type": "", "payload": {"a": 1}},
        {"type": "link", "payload": {"url": "https://ok.example.com"}},
    ]
    # The empty type is refused where it is collected (RT-TOOL-6), with a warning.
    assert [w["type"] for w in rig.warnings if w["code"] == "artifact_dropped"] == [""]


def test_malformed_entries_never_fail_the_call(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit"))
    (only,) = results(
        _run(
            rig,
            {
                "n": 1,
                "artifacts": [
                    7,
                    None,
                    {"payload": {}},
                    {"type": "x"},
                    {"type": "y", "payload": [1]},
                ],
            },
        )[1]
    )
    assert only["result"] == {"success": True, "data": {"n": 1}, "error": None}


def test_reserved_key_is_removed_from_data_even_when_nothing_is_kept(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit"))
    _turn, runs = _run(rig, {"note": "hello", "artifacts": "not-a-list"})
    (only,) = results(runs)
    assert only["result"] == {"success": True, "data": {"note": "hello"}, "error": None}
    (message,) = runs[0]["passes"][0]["tool_messages"]
    assert "artifacts" not in message["content"]
    assert "not-a-list" not in message["content"]


def test_reserved_key_never_reaches_the_model(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit"))
    _run(rig, {"note": "hello", "artifacts": [{"type": "secret", "payload": {"k": "zebra"}}]})
    seen = str(rig.model.inputs)
    assert "zebra" not in seen and "secret" not in seen
    assert "hello" in seen


def test_channel_survives_whether_or_not_the_port_is_exposed(make_rig: MakeRig) -> None:
    delivered = []
    for exposed in (False, True):
        rig = make_rig(ToolSpec("emit", expose_artifacts_port=exposed))
        turn, _runs = _run(rig, {"artifacts": [{"type": "link", "payload": {"url": "u"}}]})
        (row,) = assistant_rows(rig.view(turn))
        delivered.append(row["toolArtifacts"])
    assert (
        delivered[0]
        == delivered[1]
        == [{"type": "link", "payload": {"url": "u"}, "tool_call_id": "c1"}]
    )


def test_failed_call_carries_no_artifacts(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit"))
    _turn, runs = _run(rig, {"artifacts": [{"type": "link", "payload": {}}]}, error="down")
    (only,) = results(runs)
    assert only["result"] == {"success": False, "data": None, "error": "down"}
    assert runs[0]["passes"][0]["ports"]["tool_artifacts"] == []


def test_declined_call_carries_no_artifacts(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("emit", gate=True))
    rig.world.returns("emit", {"artifacts": [{"type": "link", "payload": {}}]})
    rig.model.push(calls(call("emit", {}, "c1")), say("Understood."))
    turn = rig.runtime.start_turn(rig.conversation(), "go")
    assert rig.status(turn) == "paused"
    rig.runtime.decline(turn, "no")
    assert rig.status(turn) == "completed"
    (only,) = results(rig.runs())
    result = only["result"]
    assert isinstance(result, dict)
    assert only["disposition"] == "declined"
    assert set(result) == {"success", "data", "error"} and result["success"] is False
    assert rig.world.invocations == []
    assert rig.view(turn)["toolArtifacts"] == []
