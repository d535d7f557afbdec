"""DR-1 ¶1's check holds a `tool_done` to its tool name, its call's input and a result,
and says which of the three is missing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.cases import Case, collect_cases
from conformance.checks import CheckContext, CheckFailed
from conformance.rules import load_corpus
from tests.conformance._support import mutant_driver, reference_driver

Doctor = Callable[[dict[str, object]], dict[str, object]]


def _recording_case() -> Case:
    (case,) = [
        c for c in collect_cases(load_corpus()) if c.kind == "check" and c.clauses == ("DR-1#c1",)
    ]
    return case


class _DoctoredDones:
    """The reference runtime, with every `tool_done` of the ledgers it reports rewritten."""

    def __init__(self, doctor: Doctor) -> None:
        self._doctor = doctor

    def handshake(self) -> Handshake:
        return reference_driver().handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = reference_driver().run(scenario)
        if isinstance(trace, Unsupported) or trace.ledger is None:
            return trace
        ledger = tuple(
            self._doctor(dict(e)) if isinstance(e, dict) and e.get("event") == "tool_done" else e
            for e in trace.ledger
        )
        return replace(trace, ledger=ledger)


def _without(key: str) -> Doctor:
    return lambda event: {k: v for k, v in event.items() if k != key}


def _with(key: str, value: object) -> Doctor:
    return lambda event: {**event, key: value}


def test_the_reference_runtime_passes() -> None:
    _recording_case().run(CheckContext(reference_driver()))


@pytest.mark.parametrize(
    ("doctor", "message"),
    [
        (_without("input"), "tool_done of send_email carries no input"),
        (_with("input", None), "tool_done of send_email carries no input"),
        (
            _with("input", {"to": "someone@example.com"}),
            'tool_done of send_email carries input {"to": "someone@example.com"}, '
            'not its tool_start\'s input {"to": "ana@example.com"}',
        ),
        (_without("tool"), "tool_done of send_email carries no tool name"),
        (
            _with("tool", "send_mail"),
            'tool_done carries tool name "send_mail", not its tool_start\'s "send_email"',
        ),
        (_without("result"), "tool_done of send_email carries no result"),
    ],
    ids=["input-absent", "input-null", "input-other", "tool-absent", "tool-other", "no-result"],
)
def test_a_done_that_lacks_part_of_its_call_fails_naming_it(doctor: Doctor, message: str) -> None:
    with pytest.raises(CheckFailed) as failed:
        _recording_case().run(CheckContext(_DoctoredDones(doctor)))
    assert str(failed.value) == message


@pytest.mark.parametrize(
    ("mutant", "message"),
    [
        ("tool-done-missing-input", "tool_done of send_email carries no input"),
        ("tool-done-missing-result", "tool_done of send_email carries no result"),
    ],
)
def test_the_mutants_of_the_clause_fail_it(mutant: str, message: str) -> None:
    driver = mutant_driver(mutant)
    try:
        with pytest.raises(CheckFailed) as failed:
            _recording_case().run(CheckContext(driver))
    finally:
        driver.close()
    assert str(failed.value) == message
