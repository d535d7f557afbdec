"""Delivery and prose blame the clause whose words the runtime broke.

A check of delivery sees what the attachment of every well-formed entry (RT-TOOL-2 ¶3)
promises before what it judges, and a check of the prose what the disjointness of `data`
(RT-TOOL-1 ¶3) promises.  Each test plays a runtime with one of
those gaps (a catalogue mutant) and fails on the suite as it was before: a clause the
runtime meets was failed for the other clause's gap.
"""

from __future__ import annotations

import pytest

from conformance.engine import Case, Suite, charged, judge
from conformance.rules import load_corpus
from tests.conformance.gaps import reference

CASES = {case.id: case for case in Suite.over(load_corpus()).cases()}


def _cases(clause: str) -> list[Case]:
    found = [c for c in CASES.values() if c.clauses == (clause,) and c.kind == "check"]
    assert found, clause
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mutant", "clause", "by"),
    [
        ("reserved-key-keeps-first-entry", "RT-TOOL-4#c1", "RT-TOOL-2 ¶3"),
        ("artifact-folded-into-data", "RT-TOOL-2#c4", "RT-TOOL-1 ¶3"),
    ],
)
def test_a_channel_gap_blocks_the_clause_it_hides(mutant: str, clause: str, by: str) -> None:
    runner = reference(mutant)
    try:
        landed = [charged(judge(case, runner).outcome, clause) for case in _cases(clause)]
    finally:
        runner.close()
    assert not [one.message for one in landed if one.outcome == "failed"]
    assert any(f"blocked by {by}" in one.message for one in landed), [o.message for o in landed]
