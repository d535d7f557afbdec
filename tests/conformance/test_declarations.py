"""Declarations a harness makes in its handshake, however odd, never crash a check, and
a declaration the rule text forbids fails the clause it breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.driver import Unsupported
from adapters.handshake import DurableResume, Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import CheckContext, CheckFailed, Untested
from tests.conformance._dr import dr_cases
from tests.conformance._support import reference_driver


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
    ctx = CheckContext(_Declaring(causes))
    try:
        dr_cases()[case_id].run(ctx)
        ctx.conclude()
    except CheckFailed as failed:
        return "failed: " + " | ".join(f.message for f in failed.failures)
    except Untested as untested:
        return f"untested: {untested}"
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
