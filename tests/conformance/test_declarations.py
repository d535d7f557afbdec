"""Declarations a harness makes in its handshake, however odd, never crash a check, and
a declaration the rule text forbids fails the clause it breaks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import cast

import pytest

from adapters import Driver
from adapters.driver import Unsupported
from adapters.errors import SchemaViolation
from adapters.handshake import DurableResume, Handshake
from adapters.protocol import Message
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.engine import judge
from tests.conformance._dr import dr_cases
from tests.conformance._support import reference_driver, rttool


class _Declaring:
    """The reference runtime, with its handshake's durable-resume causes replaced."""

    def __init__(self, causes: tuple[str, ...]) -> None:
        self.causes = causes

    def handshake(self) -> Handshake:
        real = reference_driver().handshake()
        assert real.durable_resume is not None
        declared = DurableResume(real.durable_resume.nudge, self.causes)
        return replace(real, durable_resume=declared)

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        return reference_driver().run(scenario)


def _outcome(case_id: str, causes: tuple[str, ...]) -> str:
    judged = judge(dr_cases()[case_id], _Declaring(causes))
    if judged.verdict == "failed":
        return "failed: " + " | ".join(f.message for f in judged.failures)
    if judged.verdict == "untested":
        return f"untested: {judged.reason}"
    assert judged.verdict == "passed", judged.message
    return "passed"


def test_no_cause_resuming_on_its_own_leaves_the_every_cause_variant_untested() -> None:
    said = _outcome("DR-5#c3/at-most-three-automatic-continuations[every-cause-that-resumes]", ())
    assert said.startswith("untested: ") and "continues on its own" in said


@pytest.mark.parametrize("cause", ["stop", "cancel"])
def test_declaring_a_stop_or_a_cancel_resumable_breaks_the_fifth_paragraph(cause: str) -> None:
    causes = ("time_limit", "gateway_timeout", "transport_error", cause)
    said = _outcome(f"DR-5#c5/other-stops-wait-for-continue[{cause}]", causes)
    assert said.startswith("failed: ")
    assert f"declares that a turn cut by {cause} continues on its own" in said
    assert "DR-5 ¶5" in said


OVERSIZED = [
    ("/limits/payload_bytes", 1_500_000_000),
    ("/limits/payload_bytes", 10**12),
    ("/limits/held_artifacts", 10**12),
    ("/limits/run_artifacts", 10**9),
    ("/limits/run_bytes", 10**13),
    ("/limits/normalize_passes", 10**9),
    ("/profiles", [f"p{i}" for i in range(1000)]),
    ("/capabilities/entry_points", ["chat"] * 1000),
    ("/turn_states/running", [f"w{i}" for i in range(1000)]),
]


class _Bloated:
    """The reference harness, in process, its handshake bent at one JSON pointer."""

    spec = "bloated"

    def __init__(self, pointer: str, value: object) -> None:
        from reference_impl.harness import create

        self.inner = create()
        self.pointer, self.value = pointer, value

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        reply = json.loads(json.dumps(self.inner.request(message)))
        if message.get("cmd") == "hello":
            *parents, last = self.pointer.strip("/").split("/")
            node = reply
            for part in parents:
                node = node.setdefault(part, {})
            node[last] = self.value
        return cast(Message, reply)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("pointer", "value"), OVERSIZED, ids=[p for p, _ in OVERSIZED])
def test_a_declaration_past_what_the_suite_can_afford_is_refused_naming_it(
    pointer: str, value: object
) -> None:
    with pytest.raises(SchemaViolation) as caught:
        Driver(_Bloated(pointer, value), timeout=60).handshake()
    assert caught.value.pointer.startswith(pointer)


def _claims(handshake: Handshake) -> list[str]:
    from conformance.doctor._findings import Diagnosis
    from conformance.doctor._handshake import check_claims

    diagnosis = Diagnosis("bent")
    check_claims(handshake, diagnosis)
    return [f"{f.level}: {f.what} @ {f.where}" for f in diagnosis.findings]


def test_the_doctor_says_unknown_profiles_once_however_many() -> None:
    real = reference_driver().handshake()
    profiles = (*real.profiles, *(f"made-up-{i}" for i in range(50_000)))
    said = _claims(replace(real, profiles=profiles))
    assert len(said) == 1, said[:3]
    assert "50000 profiles rttool does not know ('made-up-0'" in said[0]
    assert "and 49997 more" in said[0] and "/profiles/2" in said[0]


@pytest.mark.parametrize(
    ("causes", "words"),
    [
        ((), "leaves out time_limit"),
        (("gateway_timeout",), "leaves out time_limit"),
        (("time_limit", "stop", "cancel"), "lists stop, cancel: DR-5 ¶5"),
        (("time_limit", "gateway_timeout", "transport_error", "error"), "lists error"),
    ],
)
def test_the_doctor_reports_causes_a_check_treats_specially(
    causes: tuple[str, ...], words: str
) -> None:
    # An honest declaration of what the runtime does is a gap (it will not conform), never
    # a problem (the harness is ready to run).
    real = reference_driver().handshake()
    said = _claims(replace(real, durable_resume=DurableResume("Go on.", causes)))
    assert [line for line in said if words in line and line.startswith("gap: ")], said
    assert not [line for line in said if line.startswith("problem: ")], said


def test_the_doctor_is_quiet_on_the_guides_causes() -> None:
    real = reference_driver().handshake()
    assert _claims(replace(real, durable_resume=DurableResume("Go on."))) == []


@pytest.mark.parametrize("command", ["run", "doctor", "scenarios"])
def test_a_timeout_too_long_to_wait_is_refused_in_one_line(command: str, tmp_path: Path) -> None:
    args = ["scenarios", "list", "--impl", "reference"] if command == "scenarios" else [command]
    done = rttool(*args, "--timeout", "1e308", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "--timeout" in done.stderr and "at most 86400 seconds" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
