"""Every case of the suite passes against the bundled reference runtime, in-process."""

from __future__ import annotations

import pytest

from conformance.cases import Case, collect_cases
from conformance.rules import load_corpus
from conformance.toolkit import CheckContext
from conformance.vectors import vector_cases
from tests.conformance._support import reference_driver

CORPUS = load_corpus()
CASES = collect_cases(CORPUS, extra=vector_cases(CORPUS))


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case_passes_against_reference(case: Case) -> None:
    case.run(CheckContext(reference_driver()))
