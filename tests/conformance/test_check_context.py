"""A check reports every expectation that failed, and variants are cases of their own."""

from __future__ import annotations

import pytest

from adapters.errors import SuiteError
from adapters.scenario import StartTurn
from conformance.engine import Case, RunOptions, Session, judge, load_suite
from conformance.rules import load_corpus
from conformance.toolkit import (
    CheckContext,
    Untested,
    check,
    scenario,
)
from conformance.toolkit.machinery import CheckFailed, bound_checks
from tests.conformance._support import reference_driver


def _context() -> CheckContext:
    return CheckContext(reference_driver())


def test_expect_goes_on_and_conclude_lists_every_failure_in_order() -> None:
    ctx = _context()
    ctx.run(scenario("two-failures", steps=[StartTurn("t1")]))
    assert ctx.expect(False, "first", at="/steps/0/outcome") is False
    assert ctx.expect(True, "never shown") is True
    ctx.expect(False, "second", reading="some-reading")
    with pytest.raises(CheckFailed) as raised:
        ctx.conclude()
    failures = raised.value.failures
    assert [f.message for f in failures] == ["first", "second"]
    assert failures[0].scenario == "two-failures" and failures[0].pointer == "/steps/0/outcome"
    assert failures[1].reading == "some-reading" and failures[1].pointer is None
    assert str(raised.value) == "first (at /steps/0/outcome of two-failures)"


def test_need_ends_the_check_with_what_failed_before() -> None:
    ctx = _context()
    ctx.expect(False, "soft")
    with pytest.raises(CheckFailed) as raised:
        ctx.need(False, "hard")
    assert [f.message for f in raised.value.failures] == ["soft", "hard"]


def _state(cases: list[Case]) -> Session:
    options = RunOptions.quiet_reference(timeout=30.0)
    return Session(options, load_corpus(), load_suite().situations)


def test_a_check_that_fails_then_cannot_go_on_is_failed_not_untested() -> None:
    def run(ctx: CheckContext) -> None:
        ctx.expect(False, "observed something wrong")
        raise Untested("needs capability nothing")

    case = Case("RT-TOOL-1#c1/probe", "probe", "check", ("RT-TOOL-1#c1",), "probe", run)
    state = _state([case])
    try:
        outcome = state.execute(case)
    finally:
        state.close()
    assert outcome.outcome == "failed"
    assert [f.message for f in outcome.failures] == ["observed something wrong"]


def test_every_failure_travels_in_the_case_outcome() -> None:
    def run(ctx: CheckContext) -> None:
        ctx.run(scenario("probe", steps=[StartTurn("t1")]))
        ctx.expect(False, "one", at="/steps/0")
        ctx.expect(False, "two")

    case = Case("RT-TOOL-1#c1/probe", "probe", "check", ("RT-TOOL-1#c1",), "probe", run)
    state = _state([case])
    try:
        outcome = state.execute(case)
    finally:
        state.close()
    assert outcome.outcome == "failed"
    assert outcome.message == "one (at /steps/0 of probe)"
    assert [(f.message, f.pointer) for f in outcome.failures] == [
        ("one", "/steps/0"),
        ("two", None),
    ]


def test_variants_become_named_checks() -> None:
    seen: list[int] = []

    @check("RT-TOOL-9#c1", variants={"second": 2, "third": 3})
    def check_repeat(ctx: CheckContext, variant: int) -> None:
        """A repeat is not run."""
        seen.append(variant)

    bound = bound_checks(check_repeat)
    assert [b.name for b in bound] == ["repeat[second]", "repeat[third]"]
    assert [b.id for b in bound] == ["RT-TOOL-9#c1/repeat[second]", "RT-TOOL-9#c1/repeat[third]"]
    assert [judge(Case.of(one), reference_driver()).verdict for one in bound] == ["passed"] * 2
    assert seen == [2, 3]


@pytest.mark.parametrize("variants", [{}, {"Bad Name": 1}])
def test_malformed_variants_are_refused(variants: dict[str, int]) -> None:
    with pytest.raises(SuiteError):
        check("RT-TOOL-9#c1", variants=variants)


def test_a_strict_context_refuses_a_pointer_that_names_nothing() -> None:
    ctx = CheckContext(reference_driver(), strict_pointers=True)
    ctx.run(scenario("pointers", steps=[StartTurn("t1")]))
    ctx.expect(False, "a key found missing", at="/steps/0/absent")  # its parent exists
    ctx.expect(False, "a real value", at="/steps/0/outcome")
    with pytest.raises(SuiteError, match="points at nothing"):
        ctx.expect(False, "nowhere", at="/steps/9/runs/0")
    with pytest.raises(CheckFailed) as raised:
        ctx.conclude()
    assert [f.message for f in raised.value.failures] == ["a key found missing", "a real value"]
