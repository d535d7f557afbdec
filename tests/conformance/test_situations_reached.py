"""A clause conforms only when passing cases reached each situation its text names.

Harnesses whose checks pass without reaching what the clause speaks of: one whose
runtime has no turn API and renders nothing of its own (RT-TOOL-4 ¶2 speaks of the turn
API's list, RT-TOOL-6 ¶6 of payloads on output).  Before situations were recorded, each
of these clauses was reported as conforming.  One that ignores the author's exposure
choices (RT-TOOL-2 ¶2 speaks of an exposed and an unexposed port) is no longer played
the scenarios that make one: they need `port_exposure`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conformance.report import CheckResult, ClauseResult, clause_standing
from conformance.report._labels import situations_phrase
from tests.conformance._support import run_clauses

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

UNREACHED = "python:tests.conformance.unreached:create?mode="
CLAUSES = ("RT-TOOL-2#c2", "RT-TOOL-4#c2", "RT-TOOL-6#c6")


def _clauses(spec: str, tmp_path: Path) -> dict[str, dict[str, object]]:
    found = run_clauses(spec, CLAUSES, tmp_path)
    return {clause: found[clause] for clause in CLAUSES}


def test_an_exposure_choice_the_harness_does_not_apply_is_not_played(tmp_path: Path) -> None:
    """A scenario that exposes a tool's `artifacts` port needs `port_exposure`: a harness
    that ignores the choice (and so runs every tool the same way) used to pass RT-TOOL-2
    ¶2's checks without reaching either situation, or fail them for an attachment ¶3
    makes; now they do not run, and the clause is untested, both situations unreached."""
    found = _clauses(UNREACHED + "ignores-exposure", tmp_path)["RT-TOOL-2#c2"]
    checks = found["checks"]
    assert isinstance(checks, list) and checks
    hand_written = [check for check in checks if check["kind"] == "check"]
    assert hand_written
    assert all("needs capability port_exposure" in c["message"] for c in hand_written)
    assert found["standing"] == "untested"
    assert found["unreached"] == [
        "the tool's artifacts port exposed",
        "the tool's artifacts port not exposed",
    ]


@pytest.mark.parametrize(
    ("mode", "clause", "unreached"),
    [
        ("no-turn-api", "RT-TOOL-4#c2", ["a turn's artifacts read from its turn API"]),
        ("no-turn-api", "RT-TOOL-6#c6", ["such a payload output by the implementation"]),
    ],
)
def test_a_clause_whose_situations_were_not_reached_does_not_conform(
    mode: str, clause: str, unreached: list[str], tmp_path: Path
) -> None:
    found = _clauses(UNREACHED + mode, tmp_path)[clause]
    checks = found["checks"]
    assert isinstance(checks, list)
    # Its checks pass: only the situations they reached tell the clause is not shown.
    assert any(check["outcome"] == "passed" for check in checks)
    assert found["standing"] == "untested"
    assert found["unreached"] == unreached
    page = (tmp_path / "out" / "STANDING.md").read_text(encoding="utf-8")
    assert f"not reached: {', '.join(unreached)}" in page.replace("\\'", "'")


def _passed(reached: tuple[str, ...], kind: str = "check") -> CheckResult:
    return CheckResult(
        name=f"p-{kind}-{len(reached)}", outcome="passed", kind=kind, reached=reached
    )  # type: ignore[arg-type]


def test_standing_counts_only_situations_passing_evidence_reached() -> None:
    situations = ("a", "b", "c")
    assert clause_standing([_passed(("a", "b"))], situations) == "untested"
    assert clause_standing([_passed(("a", "b")), _passed(("c",), "vector")], situations) == (
        "conforms"
    )
    # A passing hunt is no evidence that a clause conforms, nor of what it reached.
    assert clause_standing([_passed(("a", "b")), _passed(("c",), "hunt")], situations) == (
        "untested"
    )
    clause = ClauseResult(
        id="R-1#c1",
        rule="R-1",
        number=1,
        text="",
        checks=(_passed(("a", "b")),),
        situations=situations,
    )
    assert clause.unreached == ("c",)
    assert situations_phrase(clause) == "2 of 3 situations reached; not reached: c"


def test_a_failing_clause_lists_unreached_only_what_no_case_reached() -> None:
    """A clause's `unreached` used to count the passing cases alone: a clause whose every
    case failed listed as unreached the very situations its failures were seen in
    (RT-TOOL-8 ¶2 against a runtime that never decodes JSON text)."""
    failed = CheckResult(name="f", outcome="failed", kind="check", reached=("a",))
    clause = ClauseResult(
        id="R-1#c1", rule="R-1", number=1, text="", checks=(failed,), situations=("a", "b")
    )
    assert clause.standing == "does-not-conform"
    assert clause.unreached == ("b",)
    # A case that was not judged reached nothing it can be judged on.
    skipped = CheckResult(
        name="s", outcome="skipped", skip_kind="untested", kind="check", reached=("b",)
    )
    assert dataclasses.replace(clause, checks=(failed, skipped)).unreached == ("b",)
