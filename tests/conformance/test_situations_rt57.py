"""RT-TOOL-5 … RT-TOOL-7: a clause conforms only when passing cases reached each situation
its text names.

Each harness of :mod:`tests.conformance.unreached_rt57` withdraws one capability, so the
one case that needs it is untested while the clause's other cases pass: a run cut off
(RT-TOOL-5 ¶4 speaks of a run that fails), an arrival after release (RT-TOOL-5 ¶3), a
payload that does not encode (RT-TOOL-6 ¶3), a restart while paused (RT-TOOL-7 ¶1 holds
artifacts durably).  Before situations were declared, each of these clauses was reported
as conforming on that harness."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance._support import committed_clauses, run_clauses

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

UNREACHED = "python:tests.conformance.unreached_rt57:create?mode="
RULES = ("RT-TOOL-5", "RT-TOOL-6", "RT-TOOL-7")


def _clauses(spec: str, only: tuple[str, ...], tmp_path: Path) -> dict[str, dict[str, object]]:
    return run_clauses(spec, only, tmp_path)


@pytest.mark.parametrize(
    ("mode", "clause", "unreached"),
    [
        ("no-interrupts", "RT-TOOL-5#c4", ["a run that fails"]),
        ("no-late-artifacts", "RT-TOOL-5#c3", ["an artifact arriving after release"]),
        ("no-unencodable", "RT-TOOL-6#c3", ["a payload that does not encode"]),
        ("no-restart", "RT-TOOL-7#c1", ["held artifacts across a restart"]),
    ],
)
def test_a_clause_whose_situations_were_not_reached_does_not_conform(
    mode: str, clause: str, unreached: list[str], tmp_path: Path
) -> None:
    found = _clauses(UNREACHED + mode, (clause,), tmp_path)[clause]
    checks = found["checks"]
    assert isinstance(checks, list)
    outcomes = {check["outcome"] for check in checks}
    # Its other cases pass, and the one needing the withdrawn capability is untested:
    # on passes alone the clause conformed.
    assert "passed" in outcomes and "skipped" in outcomes
    assert outcomes <= {"passed", "skipped"}
    assert found["standing"] == "untested"
    assert found["unreached"] == unreached
    page = (tmp_path / "out" / "STANDING.md").read_text(encoding="utf-8")
    assert f"not reached: {', '.join(unreached)}" in page.replace("\\'", "'")


#: What single cases of the reference reach: each situation is reached where its
#: circumstance happened, and only there.
REACHED = {
    "RT-TOOL-5#c4::late-arrival-after-release-dropped[return]": ["a run that returns"],
    "RT-TOOL-5#c4::late-arrival-after-release-dropped[error]": ["a run that fails"],
    "RT-TOOL-5#c3::drain-does-not-end-collection[second-pass]": [
        "a later tool call in the same run, after a drain"
    ],
    "RT-TOOL-6#c3::drop-warns-and-leaves-no-placeholder[unencodable-payload]": [
        "a payload that does not encode"
    ],
    "RT-TOOL-6#c3::drop-warns-and-leaves-no-placeholder[count-bound]": [
        "an artifact over the run's count bound"
    ],
    "RT-TOOL-6#c2::floors-accepted[aggregate]": ["2 MB of payload across a run"],
    "RT-TOOL-7#c1::held-durably-off-the-wire[question]": [
        "a turn holding artifacts read on the implementation's own wire"
    ],
    "RT-TOOL-7#c1::held-durably-off-the-wire[restart-while-paused]": [
        "held artifacts across a restart",
        "a turn holding artifacts read on the implementation's own wire",
    ],
    "RT-TOOL-7#c2::held-prepended-on-resumed-message[held-only]": [
        "a resumed run that collected none of its own"
    ],
    # A resume that delivered what its turn held: the take that ¶3 says is destructive.
    "RT-TOOL-7#c3::taking-is-destructive[one-pause]": [
        "a resume that completed a turn holding artifacts"
    ],
}


def test_the_reference_reaches_every_situation_of_these_rules() -> None:
    clauses = {
        clause: one for clause, one in committed_clauses().items() if clause.split("#")[0] in RULES
    }
    declared = [clause for clause in clauses.values() if clause.get("situations")]
    assert len(declared) == 16  # every clause of the three rules
    for clause in clauses.values():
        assert clause["standing"] == "conforms", clause["id"]
        assert clause.get("unreached", []) == [], clause["id"]
    reached: dict[str, object] = {}
    for clause in clauses.values():
        checks = clause["checks"]
        assert isinstance(checks, list)
        reached.update((check["id"], check.get("reached")) for check in checks)
    for case, situations in REACHED.items():
        assert reached[case] == situations, case
