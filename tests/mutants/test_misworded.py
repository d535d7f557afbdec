"""The self-test holds every failure a mutant draws to the wording a standing's line
needs: one line, values as JSON, and a durable-resume check citing its paragraph."""

from __future__ import annotations

import pytest

from conformance.engine import CaseOutcome, Suite
from conformance.rules import load_corpus
from conformance.selftest import misworded
from conformance.toolkit.machinery import Failure

CASES = Suite.over(load_corpus()).cases()
DURABLE = next(case for case in CASES if case.id.startswith("DR-4#"))
ARTIFACTS = next(case for case in CASES if case.id.startswith("RT-TOOL-4#"))


def _failed(case_id: str, message: str) -> dict[str, CaseOutcome]:
    return {case_id: CaseOutcome(case_id=case_id, outcome="failed", failures=(Failure(message),))}


@pytest.mark.parametrize(
    ("message", "why"),
    [
        ("the journal lists None; DR-4 ¶2: ...", "shows a value as Python does ('None')"),
        ("the ledger holds {'a': 1}; DR-4 ¶2", 'shows a value as Python does ("{\'")'),
        ("a journal entry was reused", "cites no paragraph of DR-4"),
        ("two\nlines; DR-4 ¶2", "more than one line"),
    ],
)
def test_a_misworded_durable_failure_is_found(message: str, why: str) -> None:
    found = misworded([DURABLE], _failed(DURABLE.id, message))
    assert len(found) == 1 and found[0].startswith(f"{DURABLE.id}: {why}: "), found


def test_a_well_worded_failure_passes_and_only_durable_checks_must_cite() -> None:
    durable = _failed(DURABLE.id, "the journal lists [null, true]; DR-4 ¶2: refused")
    assert misworded([DURABLE], durable) == ()
    assert misworded([ARTIFACTS], _failed(ARTIFACTS.id, "delivered [] twice")) == ()
    passed = {DURABLE.id: CaseOutcome(case_id=DURABLE.id, outcome="passed")}
    assert misworded([DURABLE], passed) == ()
