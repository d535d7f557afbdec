"""The self-test's verdicts do not depend on the machine's load: its searches are bounded
by counts, and one its time guard cut short is no verdict (never a survivor, never a
legal variant read as conforming or not); its last line names what failed and why."""

from __future__ import annotations

import pytest

import conformance.hunt
from conformance import selftest as engine
from conformance._variants import VariantInfo, VariantResult, run_variant
from conformance.cli._selftest import SelftestPlan, SelftestResult
from conformance.cli._selftest_render import failures, verdict_line
from conformance.hunt import Budget, HuntOutcome
from conformance.rules import load_corpus

#: A mutant the hunt must find as well as the checks (RT-TOOL-7 ¶2).
_HUNTED = engine.MutantInfo(
    "held-appended-after-collected", ("RT-TOOL-7#c2",), "held last", hunted=True
)


def _cut(examples: int):  # type: ignore[no-untyped-def]
    """A hunt that stops after ``examples`` with nothing found, as its time guard on a
    busy machine stops it."""

    def hunt(*args: object, **kwargs: object) -> HuntOutcome:
        return HuntOutcome(examples=examples, elapsed_s=1800.0)

    return hunt


def test_a_mutants_search_cut_by_time_is_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut after 40 of its 1000 examples, the search found nothing: that says nothing of
    the mutant, and the result says so instead of reporting a survivor."""
    monkeypatch.setattr(conformance.hunt, "hunt", _cut(40))
    result = engine.run_hunt_mutant(_HUNTED, load_corpus(), ())
    assert result.hunt is None and not result.clean
    assert result.error == (
        "no verdict: the hunt's search was cut by its time guard after 40 of 1000 examples "
        "(the machine too busy?); run it again"
    )


def test_a_mutants_search_that_judged_its_count_is_a_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """All 1000 examples judged and nothing found: the hunt missed it, a real finding."""
    monkeypatch.setattr(conformance.hunt, "hunt", _cut(1000))
    result = engine.run_hunt_mutant(_HUNTED, load_corpus(), ())
    assert result.error is None
    assert result.hunt is not None and result.hunt.counterexample_steps is None


def test_a_variants_search_cut_by_time_is_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conformance.hunt, "hunt", _cut(7))
    variant = VariantInfo("failed-write-back-stops-the-turn", "failed-write-back", ("x",), "")
    result = run_variant(variant, load_corpus(), ())
    assert not result.conforms and not result.rejected_by
    assert result.error is not None and result.error.startswith(
        "no verdict: the hunt's search was cut by its time guard after 7 of 60 examples"
    )


class _Invariant:
    def __init__(self, name: str) -> None:
        self.name = name


@pytest.mark.parametrize(
    ("examples", "found", "done", "verdict"),
    [
        (1000, (), False, True),  # its count judged
        (40, (), True, True),  # what it looked for was found
        (40, ("a", "b"), False, True),  # every invariant it was after found
        (40, ("a",), False, False),  # cut short with "b" left: no verdict
    ],
)
def test_which_searches_are_verdicts(
    examples: int, found: tuple[str, ...], done: bool, verdict: bool
) -> None:
    outcome = HuntOutcome(examples=examples, findings=dict.fromkeys(found))  # type: ignore[arg-type]
    claimed = [_Invariant("a"), _Invariant("b")]
    cut = engine.cut_short(outcome, Budget(limit=1000), claimed, done=done)  # type: ignore[arg-type]
    assert (cut is None) is verdict


def test_a_search_stopped_by_hand_stops_the_selftest() -> None:
    with pytest.raises(KeyboardInterrupt):
        engine.cut_short(HuntOutcome(interrupted=True), Budget(limit=10), [])


def _result(
    mutants: tuple[engine.MutantResult, ...], variants: tuple[VariantResult, ...] = ()
) -> SelftestResult:
    plan = SelftestPlan(catalogue=(), variants=(), only=("x",))
    return SelftestResult(plan, mutants, variants, (), (), (), 1.0)


_KILLED = engine.MutantResult("good", ("DR-1#c1",), True, ("DR-1#c1",), (), 1, 0.1)
_SURVIVOR = engine.MutantResult("sly", ("DR-1#c1",), False, (), ("DR-1#c1",), 1, 0.1)
_REJECTED = VariantResult("strict", "a-reading", ("DR-1#c1",), (("DR-1#c1/x", "boom"),), (), 0.1)


@pytest.mark.parametrize(
    ("result", "last"),
    [
        (
            _result((_KILLED,)),
            "rttool: selftest passed: 1 mutant caught by their own clauses, 0 legal variants",
        ),
        (
            _result((_SURVIVOR, _KILLED)),
            "rttool: selftest FAILED: mutant sly survived: no case failed against it",
        ),
        (
            _result((_KILLED,), (_REJECTED,)),
            "rttool: selftest FAILED: legal variant strict rejected by DR-1#c1/x: boom",
        ),
        (
            _result((_SURVIVOR,), (_REJECTED,)),
            "rttool: selftest FAILED: mutant sly survived: no case failed against it (and 1 more",
        ),
    ],
)
def test_the_last_line_names_what_failed_and_why(result: SelftestResult, last: str) -> None:
    assert verdict_line(result).startswith(last)
    assert (failures(result) == []) is (result.exit_code == 0)


@pytest.mark.parametrize(
    ("mutant", "variant"),
    [
        ("continuation-claim-racy", "two-clients-at-the-first"),
        ("continuation-count-read-outside-the-claim", "two-clients-at-the-last"),
    ],
)
def test_a_racy_mutant_is_caught_however_late_its_second_waiter(
    monkeypatch: pytest.MonkeyPatch, mutant: str, variant: str
) -> None:
    """The mutants that race two waiters double a continuation even when the second
    waiter starts a second late, as on a busy machine (they used to race within a fixed
    0.1 s or 0.5 s window, and a waiter scheduled later let the mutant survive)."""
    import itertools
    import threading
    import time

    from conformance.engine import RunOptions, Selection, Session, load_suite
    from reference_impl.runtime import Runtime

    settle = Runtime.settle
    waiters = itertools.count()

    def late(self: Runtime, rounds: int | None = None) -> int:
        if threading.current_thread() is not threading.main_thread() and next(waiters) % 2:
            time.sleep(1.0)  # the second of two waiters, scheduled late
        return settle(self, rounds)

    monkeypatch.setattr(Runtime, "settle", late)
    suite = load_suite()
    (case,) = [
        case
        for case in suite.cases(Selection(only=("DR-5#c4",), kinds=("check",)))
        if case.id.endswith(f"[{variant}]")
    ]
    session = Session(RunOptions.quiet_reference(mutant=mutant), suite.corpus, suite.situations)
    try:
        assert session.execute(case).outcome == "failed"
        assert next(waiters) >= 2  # both waiters ran, one of them late
    finally:
        session.close()
