"""A durable-resume clause conforms only when passing cases reached each situation its
text names.

Two harnesses declare less than their runtime can do, so the suite sends them no case
that needs what they left out, and the cases they do get pass: one that can cut a run
by its time limit only (DR-2 ¶1 speaks of a gateway timeout and a transport error too,
DR-5 ¶5 of an error, a stop, a cancellation, a credential and a rate-limit failure), and
one that cannot cut a run after a tool's body ran (DR-4 ¶1 speaks of a call whose side
effect landed but whose result was never recorded).  Before situations were recorded,
each of these clauses was reported as conforming."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance._support import committed_clauses, run_clauses
from tests.conformance.unreached_dr import create

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

UNREACHED = "python:tests.conformance.unreached_dr:create?mode="


CLAUSES = ("DR-2#c1", "DR-4#c1", "DR-5#c5")


def _clauses(spec: str, clauses: tuple[str, ...], tmp_path: Path) -> dict[str, dict[str, object]]:
    found = run_clauses(spec, clauses, tmp_path)
    assert set(clauses) <= set(found)
    return {clause: found[clause] for clause in clauses}


@pytest.mark.parametrize(
    ("mode", "clause", "unreached"),
    [
        (
            "time-limit-only",
            "DR-2#c1",
            [
                "a run resumed after a gateway timeout",
                "a run resumed after a resumable transport error",
            ],
        ),
        (
            "time-limit-only",
            "DR-5#c5",
            [
                "a run ended by a stop",
                "a run ended by a cancellation",
                "a run ended by a credential failure",
                "a run ended by a rate-limit failure",
            ],
        ),
        (
            "no-cut-after-the-body",
            "DR-4#c1",
            ["a write whose body ran and whose result was never recorded"],
        ),
    ],
)
def test_a_durable_resume_clause_whose_situations_were_not_reached_does_not_conform(
    mode: str, clause: str, unreached: list[str], tmp_path: Path
) -> None:
    found = _clauses(UNREACHED + mode, (clause,), tmp_path)[clause]
    checks = found["checks"]
    assert isinstance(checks, list)
    # Its cases pass, none fails: only the situations they reached tell the clause is
    # not shown.
    assert any(check["outcome"] == "passed" for check in checks)
    assert not any(check["outcome"] in ("failed", "error") for check in checks)
    assert found["standing"] == "untested"
    assert found["unreached"] == unreached
    page = (tmp_path / "out" / "STANDING.md").read_text(encoding="utf-8")
    assert f"not reached: {', '.join(unreached)}" in page.replace("\\'", "'")


def test_the_reference_reaches_every_situation_these_harnesses_miss() -> None:
    found = {clause: one for clause, one in committed_clauses().items() if clause in CLAUSES}
    assert set(found) == set(CLAUSES)
    for clause, one in found.items():
        assert one["standing"] == "conforms", clause
        assert one["situations"] and one["unreached"] == [], clause
    # Each case reaches what it plays, and nothing else: a cut by the time limit is no
    # gateway timeout, and a cut before a tool's body ran lands no side effect.
    reached = {
        check["name"]: check["reached"]
        for one in found.values()
        for check in one["checks"]  # type: ignore[attr-defined]
    }
    assert reached["note-right-after-nudge[time-limit]"] == [
        "a run resumed after a soft timeout (its time limit)"
    ]
    assert reached["note-right-after-nudge[gateway-timeout]"] == [
        "a run resumed after a gateway timeout"
    ]
    assert reached["landed-but-unrecorded-is-interrupted[cut-before-the-body]"] == [
        "an interrupted write dispatched again in a resumed run"
    ]
    assert reached["other-stops-wait-for-continue[cancel]"] == ["a run ended by a cancellation"]


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown mode"):
        create("reaches-everything")
