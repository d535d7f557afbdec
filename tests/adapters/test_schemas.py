"""Protocol models and schemas: round trips, and complaints that name the JSON pointer."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters import Driver, ImplementationError, SchemaViolation, SuiteError
from adapters.codec import CodecError, check_inbound, from_json, to_json, validator
from adapters.handshake import Capabilities, DurableResume, Handshake, Implementation, Limits
from adapters.protocol import Message
from adapters.scenario import (
    Answer,
    Approve,
    Bounds,
    ClassifyLedger,
    Continue,
    Decline,
    EmitLateArtifact,
    FailLedgerRead,
    FailWriteBack,
    Interrupt,
    NodeConfig,
    Poll,
    Reply,
    Restart,
    Return,
    Scenario,
    StartTurn,
    Stop,
    Tool,
    Wait,
)
from adapters.trace import (
    ModelInput,
    Note,
    PassRecord,
    ResumeRecord,
    RunRecord,
    StepError,
    StepRecord,
    ToolResultRecord,
    Trace,
    TurnWire,
    WarningRecord,
)

POINTS = [
    "during_model_call",
    "before_tool_body",
    "after_tool_body",
    "after_tool_done",
    "during_write_back",
]
CAUSES = [
    "time_limit",
    "gateway_timeout",
    "transport_error",
    "stop",
    "cancel",
    "error",
    "credential",
    "rate_limit",
    "crash",
]
ENTRY_POINTS = ["chat", "api", "trigger"]

# ------------------------------------------------------------------- strategies

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
json_objects = st.dictionaries(st.text(max_size=6), json_values, max_size=3)
labels = st.text(min_size=1, max_size=64)
texts = st.text(max_size=12)
counts = st.integers(min_value=1, max_value=10**9)
maybe = st.none

ledger_events = st.builds(
    lambda event, turn, tool, extra: {"event": event, **turn, **tool, **extra},
    st.sampled_from(["tool_start", "tool_done", "clear"]),
    st.just({}) | st.builds(lambda t: {"turn": t}, texts),
    st.just({}) | st.builds(lambda t: {"tool": t}, texts),
    st.just({}) | st.builds(lambda i, r: {"input": i, "result": r}, json_values, json_values),
)

steps = st.one_of(
    st.builds(
        StartTurn,
        turn=labels,
        message=texts,
        conversation=labels,
        entry_point=st.sampled_from(ENTRY_POINTS),
    ),
    st.builds(Poll, conversation=labels, limit=maybe() | counts),
    st.builds(Answer, turn=labels, value=texts),
    st.builds(Approve, turn=labels),
    st.builds(Decline, turn=labels, reason=texts),
    st.builds(Wait, clients=st.integers(1, 8)),
    st.builds(Continue, turn=labels),
    st.builds(Stop, turn=labels),
    st.builds(Restart),
    st.builds(FailWriteBack, count=counts),
    st.builds(
        Interrupt,
        point=st.sampled_from(POINTS),
        cause=st.sampled_from(CAUSES),
        tool=maybe() | texts,
        occurrence=counts,
    ),
    st.builds(FailLedgerRead, count=counts),
    st.builds(
        EmitLateArtifact,
        turn=labels,
        target=st.sampled_from(["ended", "unopened"]),
        artifact=json_values,
        tool_call_id=texts,
    ),
    st.builds(ClassifyLedger, events=st.lists(ledger_events, max_size=3).map(tuple)),
)

scenarios = st.builds(
    Scenario,
    id=st.text(min_size=1, max_size=20),
    steps=st.lists(steps, min_size=1, max_size=4).map(tuple),
    tools=st.lists(
        st.builds(
            Tool,
            name=st.text(min_size=1, max_size=10),
            returns=st.lists(
                st.builds(Return, output=json_values, fail=maybe() | texts), min_size=1, max_size=3
            ).map(tuple),
            read_only=st.booleans(),
            input_schema=json_objects,
            gate=st.booleans(),
            expose_artifacts_port=st.booleans(),
        ),
        max_size=2,
    ).map(tuple),
    model=st.lists(
        st.builds(
            Reply,
            text=maybe() | texts,
            tool_calls=maybe() | st.lists(json_values, max_size=3).map(tuple),
            question=maybe() | texts,
        ),
        max_size=3,
    ).map(tuple),
    node=maybe()
    | st.builds(NodeConfig, expose=maybe() | st.dictionaries(texts, st.booleans(), max_size=3)),
    bounds=maybe()
    | st.builds(
        Bounds,
        payload_bytes=maybe() | counts,
        run_artifacts=maybe() | counts,
        run_bytes=maybe() | counts,
        held_artifacts=maybe() | counts,
    ),
    description=maybe() | texts,
)

notes = st.builds(
    Note,
    completed=st.lists(json_values, max_size=2).map(tuple),
    interrupted=st.lists(json_values, max_size=2).map(tuple),
)
passes = st.builds(
    PassRecord,
    batch=st.lists(json_values, max_size=2).map(tuple),
    ports=json_values,
    exposed=json_values,
    outcome=json_values,
    results=st.lists(
        st.builds(
            ToolResultRecord,
            tool=json_values,
            tool_call_id=maybe() | texts,
            disposition=st.sampled_from(
                ["executed", "skipped", "unknown_tool", "declined", "reused", "refused", "invalid"]
            ),
            result=json_values,
        ),
        max_size=2,
    ).map(tuple),
    tool_messages=st.lists(json_values, max_size=2).map(tuple),
    paused=st.booleans(),
)
runs = st.builds(
    RunRecord,
    id=texts,
    turn=texts,
    conversation=texts,
    cause=st.sampled_from(["start", "answer", "approve", "decline", "auto_continue", "continue"]),
    end=st.sampled_from(["completed", "paused", "interrupted", "failed", "crashed"]),
    model_inputs=st.lists(
        st.builds(ModelInput, messages=st.lists(json_values, max_size=2).map(tuple)), max_size=2
    ).map(tuple),
    passes=st.lists(passes, max_size=2).map(tuple),
    side_effects=st.lists(json_values, max_size=2).map(tuple),
    interruption=json_values,
    resume=maybe() | st.builds(ResumeRecord, nudge=texts, note=maybe() | notes),
    prior_turn_note=maybe() | notes,
)
turn_wires = st.builds(
    TurnWire,
    status=texts,
    continueOffered=st.booleans(),
    messages=st.lists(json_values, max_size=2).map(tuple),
    toolArtifacts=json_values,
    pending=json_values,
    id=maybe() | texts,
)
step_records = st.builds(
    StepRecord,
    index=st.integers(0, 1000),
    op=texts,
    outcome=st.sampled_from(["ok", "refused", "failed", "crashed"]),
    runs=st.lists(runs, max_size=2).map(tuple),
    warnings=st.lists(
        st.builds(
            WarningRecord,
            code=texts,
            message=texts,
            tool=maybe() | texts,
            run=maybe() | texts,
            type=maybe() | texts,
            tool_call_id=maybe() | texts,
        ),
        max_size=2,
    ).map(tuple),
    wire=st.dictionaries(texts, st.dictionaries(texts, turn_wires, max_size=2), max_size=2),
    error=maybe() | st.builds(StepError, code=maybe() | texts, message=texts),
    held=maybe() | st.dictionaries(texts, json_values, max_size=2),
    open_collections=maybe() | st.lists(texts, max_size=2).map(tuple),
    poll=json_values,
    journal=json_values,
    ids=maybe()
    | st.builds(
        lambda c, t: {"conversations": c, "turns": t},
        st.dictionaries(texts, texts, max_size=2),
        st.dictionaries(texts, texts, max_size=2),
    ),
)
traces = st.builds(
    Trace,
    scenario=texts,
    steps=st.lists(step_records, max_size=2).map(tuple),
    ledger=maybe() | st.lists(ledger_events, max_size=2).map(tuple),
)
handshakes = st.builds(
    Handshake,
    protocol=texts,
    implementation=st.builds(
        Implementation,
        name=st.text(min_size=1, max_size=100),
        version=texts,
        homepage=maybe() | texts,
    ),
    profiles=st.lists(texts, unique=True, max_size=3).map(tuple),
    capabilities=st.builds(
        Capabilities,
        **{
            name: st.booleans()
            for name in (
                "restart",
                "write_back_failure",
                "ledger",
                "journal_probe",
                "ledger_read_failure",
                "gates",
                "late_artifacts",
                "held_observation",
                "collection_observation",
                "configurable_bounds",
                "unencodable_payloads",
                "concurrent_clients",
                "port_exposure",
                "turn_api",
            )
        },
        interrupt_points=st.lists(st.sampled_from(POINTS), unique=True, max_size=3).map(tuple),
        interrupt_causes=st.lists(st.sampled_from(CAUSES), unique=True, max_size=3).map(tuple),
        entry_points=st.lists(st.sampled_from(ENTRY_POINTS), unique=True, max_size=3).map(tuple),
    ),
    limits=st.builds(
        Limits,
        **{
            # Below the smallest ceiling the suite affords (normalize_passes, 1000).
            name: maybe() | st.integers(min_value=1, max_value=1000)
            for name in (
                "payload_bytes",
                "run_artifacts",
                "run_bytes",
                "held_artifacts",
                "normalize_passes",
            )
        },
    ),
    collects_artifacts=st.booleans(),
    durable_resume=maybe() | st.builds(DurableResume, nudge=texts),
)

ROUND_TRIP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def through_json(value: object) -> Any:
    """``value`` as the wire carries it."""
    return json.loads(json.dumps(to_json(value), allow_nan=False))


def schema_errors(ref: str, value: object) -> list[str]:
    return [error.message for error in validator(ref).iter_errors(value)]


# ------------------------------------------------------------------- round trips


@ROUND_TRIP
@given(scenarios)
def test_scenario_round_trip(scenario: Scenario) -> None:
    data = through_json(scenario)
    assert schema_errors("scenario", data) == []
    assert from_json(Scenario, data) == scenario


@ROUND_TRIP
@given(traces)
def test_trace_round_trip(trace: Trace) -> None:
    data = through_json(trace)
    assert schema_errors("trace", data) == []
    assert from_json(Trace, data) == trace


@ROUND_TRIP
@given(handshakes)
def test_handshake_round_trip(handshake: Handshake) -> None:
    data = through_json(handshake)
    assert schema_errors("messages#/$defs/handshake", data) == []
    assert from_json(Handshake, data) == handshake


@ROUND_TRIP
@given(step_records)
def test_step_record_is_a_valid_step_reply(record: StepRecord) -> None:
    assert schema_errors("messages#/$defs/step_reply", through_json(record)) == []


def test_steps_render_their_op_first() -> None:
    rendered = to_json(StartTurn(turn="t1"))
    assert isinstance(rendered, dict)
    assert next(iter(rendered)) == "op"
    assert rendered == {
        "op": "start_turn",
        "turn": "t1",
        "message": "Hello",
        "conversation": "main",
        "entry_point": "chat",
    }


# ------------------------------------------------------------------- complaints

GOOD_RECORD: dict[str, Any] = {
    "index": 0,
    "op": "start_turn",
    "outcome": "ok",
    "warnings": [],
    "runs": [
        {
            "id": "r1",
            "turn": "t1",
            "conversation": "main",
            "cause": "start",
            "end": "completed",
            "model_inputs": [],
            "passes": [],
            "side_effects": [],
        }
    ],
    "wire": {
        "main": {
            "t1": {
                "status": "completed",
                "continueOffered": False,
                "messages": [],
                "toolArtifacts": [],
            }
        }
    },
}
GOOD_HANDSHAKE: dict[str, Any] = {
    "protocol": "rttool-adapter/1",
    "implementation": {"name": "x", "version": "1"},
    "profiles": ["runtime"],
    "capabilities": {},
    "limits": {},
}


def bent(document: Mapping[str, Any], path: tuple[str | int, ...], value: object) -> Any:
    copy = json.loads(json.dumps(document))
    target = copy
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return copy


@pytest.mark.parametrize(
    ("ref", "value", "pointer"),
    [
        (
            "messages#/$defs/step_reply",
            bent(GOOD_RECORD, ("runs", 0, "cause"), "whim"),
            "/runs/0/cause",
        ),
        ("messages#/$defs/step_reply", bent(GOOD_RECORD, ("outcome",), "maybe"), "/outcome"),
        (
            "messages#/$defs/step_reply",
            bent(GOOD_RECORD, ("wire", "main", "t1", "continueOffered"), "no"),
            "/wire/main/t1/continueOffered",
        ),
        (
            "messages#/$defs/step_reply",
            {
                **GOOD_RECORD,
                "wire": {
                    "a/b": {
                        "t~1": {
                            "status": 3,
                            "continueOffered": False,
                            "messages": [],
                            "toolArtifacts": [],
                        }
                    }
                },
            },
            "/wire/a~1b/t~01/status",
        ),
        ("messages#/$defs/step_reply", {k: v for k, v in GOOD_RECORD.items() if k != "wire"}, "/"),
        (
            "messages#/$defs/handshake",
            bent(GOOD_HANDSHAKE, ("capabilities", "restart"), "yes"),
            "/capabilities/restart",
        ),
        (
            "messages#/$defs/handshake",
            bent(GOOD_HANDSHAKE, ("capabilities", "interrupt_points"), ["whenever"]),
            "/capabilities/interrupt_points/0",
        ),
        (
            "messages#/$defs/handshake",
            bent(GOOD_HANDSHAKE, ("limits", "run_bytes"), 0),
            "/limits/run_bytes",
        ),
        ("messages#/$defs/started", {"session": ""}, "/session"),
        ("messages#/$defs/finished", {"ledger": [{"event": "boom"}]}, "/ledger/0/event"),
        ("messages#/$defs/unsupported", {"unsupported": {"message": "no"}}, "/unsupported"),
    ],
)
def test_invalid_messages_name_the_pointer(ref: str, value: object, pointer: str) -> None:
    with pytest.raises(SchemaViolation) as caught:
        check_inbound(ref, value, implementation="impl-x", request="step")
    assert caught.value.pointer == pointer
    assert caught.value.details["impl"] == "impl-x"
    assert caught.value.complaint


@pytest.mark.parametrize(
    ("value", "pointer"),
    [
        ({"id": "s", "steps": [{"op": "warp"}]}, "/steps/0/op"),
        ({"id": "s", "steps": [{"op": ["start_turn"]}]}, "/steps/0/op"),  # not a string
        ({"id": "s", "steps": [{"op": "start_turn", "turn": "t", "bogus": 1}]}, "/steps/0/bogus"),
        ({"id": "s", "steps": [{"op": "wait", "clients": "two"}]}, "/steps/0/clients"),
        (
            {"id": "s", "steps": [], "tools": [{"name": "t", "returns": [{"fail": 3}]}]},
            "/tools/0/returns/0/fail",
        ),
    ],
)
def test_codec_complaints_name_the_pointer(value: object, pointer: str) -> None:
    with pytest.raises(CodecError) as caught:
        from_json(Scenario, value)
    assert caught.value.pointer == pointer


class Scripted:
    """A connection that answers each command from a script (``{}`` when unscripted)."""

    spec = "scripted"

    def __init__(self, **replies: Message) -> None:
        self.replies = replies
        self.sent: list[str] = []

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        self.sent.append(str(message["cmd"]))
        return self.replies.get(str(message["cmd"]), {})

    def close(self) -> None:
        pass


def test_driver_reports_a_bad_handshake_by_pointer() -> None:
    connection = Scripted(hello=bent(GOOD_HANDSHAKE, ("profiles",), "runtime"))
    with pytest.raises(SchemaViolation) as caught:
        Driver(connection).handshake()
    assert caught.value.pointer == "/profiles"
    assert caught.value.details["request"] == "hello"


def test_driver_reports_an_error_reply() -> None:
    connection = Scripted(
        hello=GOOD_HANDSHAKE, start={"error": {"message": "database locked", "code": "busy"}}
    )
    with pytest.raises(ImplementationError) as caught:
        Driver(connection).run(Scenario(id="s", steps=(StartTurn(turn="t1"),)))
    assert type(caught.value) is ImplementationError
    assert caught.value.details["error"] == "database locked"
    assert connection.sent == ["hello", "start"]


def test_driver_refuses_to_send_a_scenario_that_breaks_the_schema() -> None:
    connection = Scripted(hello=GOOD_HANDSHAKE)
    with pytest.raises(SuiteError) as caught:
        Driver(connection).run(Scenario(id="s", steps=(StartTurn(turn=""),)))
    # The step schema is a oneOf over the ops, so the complaint stops at the step.
    assert caught.value.details["pointer"] == "/scenario/steps/0"
    assert connection.sent == ["hello"]
