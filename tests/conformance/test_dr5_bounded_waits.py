"""DR-5's cases that reach the state they judge through bounded waits (a turn cut three
times, a reload between continuations, two clients at the last continuation) count the
automatic continuations made before it, and report themselves untested, rather than
passing, against a harness whose bounded wait does nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance._support import run_clauses

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

IDLE = "python:tests.conformance.idle_bounded_waits:create"


def test_cases_reached_through_bounded_waits_are_untested(tmp_path: Path) -> None:
    found = run_clauses(IDLE, ("DR-5#c2", "DR-5#c4"), tmp_path)
    outcomes = {
        case["name"]: case["skip_kind"] or case["outcome"]
        for clause in ("DR-5#c2", "DR-5#c4")
        for case in found[clause]["checks"]  # type: ignore[union-attr]
    }
    bounded = (
        "reports-resuming-and-stop-works[after-the-third-cut]",
        "count-survives-reload-and-clients[reload-after-the-first]",
        "count-survives-reload-and-clients[reload-after-each]",
        "count-survives-reload-and-clients[two-clients-at-the-last]",
    )
    assert {name: outcomes.get(name) for name in bounded} == dict.fromkeys(bounded, "untested")
    # The cases that need no bounded wait are judged as before.
    assert outcomes["reports-resuming-and-stop-works[after-the-first-cut]"] == "passed"
    assert outcomes["count-survives-reload-and-clients[two-clients-at-the-first]"] == "passed"
