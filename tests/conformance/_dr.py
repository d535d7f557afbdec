"""Running one durable-resume case and collecting every failure it reports, and the
arguments the tests' own durable-resume scenarios send to the tools of
:func:`conformance.toolkit.tools`."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from conformance.engine import Case, Suite
from conformance.rules import load_corpus
from conformance.toolkit.machinery import Failure, ScenarioRunner
from tests.conformance._support import failures_of

ANA: Mapping[str, object] = {"to": "ana@example.com"}
TICKET: Mapping[str, object] = {"title": "Printer jam"}


@functools.cache
def dr_cases() -> dict[str, Case]:
    """Every case of the DR rules, by id."""
    corpus = load_corpus()
    return {case.id: case for case in Suite.over(corpus).cases() if case.id.startswith("DR-")}


def failures(case_id: str, runner: ScenarioRunner) -> list[Failure]:
    """Every failure case ``case_id`` reports against ``runner`` (none when it passes)."""
    return failures_of(dr_cases()[case_id], runner)
