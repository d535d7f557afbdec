"""Every case of the suite passes against the bundled reference runtime, in-process."""

from __future__ import annotations

import pytest

from conformance.engine import Case, Judgement, Suite, judge
from conformance.rules import load_corpus
from tests.conformance._support import reference_driver

CORPUS = load_corpus()
CASES = Suite.over(CORPUS).cases()


def judged_against_reference(case: Case) -> Judgement:
    """``case`` run against the in-process reference runtime and concluded."""
    return judge(case, reference_driver())


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case_passes_against_reference(case: Case) -> None:
    judged = judged_against_reference(case)
    if judged.error is not None:
        raise judged.error
    assert judged.verdict == "passed", judged.message
