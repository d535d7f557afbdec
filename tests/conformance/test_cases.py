"""Cases: every clause covered, ids unique, selection, bindings validated."""

from __future__ import annotations

import pytest

from adapters.errors import SuiteError
from conformance.engine import Selection, Suite, suite_policy
from conformance.rules import load_corpus
from conformance.toolkit import (
    check,
)
from conformance.toolkit.machinery import Check, validate_bindings


@pytest.fixture(scope="module")
def corpus():  # type: ignore[no-untyped-def]
    return load_corpus()


def test_every_clause_has_a_check(corpus) -> None:  # type: ignore[no-untyped-def]
    checked = {
        clause
        for case in [
            c for c in Suite.over(corpus).cases(Selection(kinds=("check",))) if c.kind == "check"
        ]
        for clause in case.clauses
    }
    missing = [clause.id for clause in corpus.clauses if clause.id not in checked]
    assert not missing, f"clauses without a hand-written check: {missing}"
    assert suite_policy().covered >= {clause.id for clause in corpus.clauses}


def test_case_ids_are_unique_and_carry_clause_ids(corpus) -> None:  # type: ignore[no-untyped-def]
    cases = Suite.over(corpus).cases()
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids))
    for case in cases:
        assert case.id.split("/")[0].split("#")[0] in {r.id for r in corpus.rules}


def test_selection_by_rule_clause_and_level(corpus) -> None:  # type: ignore[no-untyped-def]
    by_rule = [
        c for c in Suite.over(corpus).cases(Selection(only=("RT-TOOL-7",))) if c.kind == "check"
    ]
    assert by_rule and all(case.rules == ("RT-TOOL-7",) for case in by_rule)
    by_clause = [
        c for c in Suite.over(corpus).cases(Selection(only=("RT-TOOL-7#c4",))) if c.kind == "check"
    ]
    assert by_clause and all("RT-TOOL-7#c4" in case.clauses for case in by_clause)
    assert len(by_clause) < len(by_rule)
    optional = [
        c for c in Suite.over(corpus).cases(Selection(levels=("optional",))) if c.kind == "check"
    ]
    levels = {corpus.get(rule).level for case in optional for rule in case.rules}
    assert levels == {"optional"}


def test_a_binding_to_a_missing_clause_is_refused() -> None:
    @check("RT-TOOL-7#c99")
    def check_nothing(ctx):  # type: ignore[no-untyped-def]
        """Cites a clause that does not exist."""

    bound = check_nothing.__rttool_check__  # type: ignore[attr-defined]
    assert isinstance(bound, Check)
    with pytest.raises(SuiteError, match="RT-TOOL-7#c99"):
        validate_bindings([bound], ["RT-TOOL-7#c1"])


def test_malformed_clause_ids_are_refused_at_binding() -> None:
    with pytest.raises(SuiteError, match="malformed clause id"):
        check("RT-TOOL-7 c1")
