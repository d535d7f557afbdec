"""Every clause either names the situations its text speaks of, or says why it names none.

A clause that speaks of several circumstances ("returns, pauses or fails", "whether or
not the author exposed the port") conforms only when passing cases reached each; a
clause left out of both lists would conform on any passing case, which is the gap this
register closes."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from conformance.engine import RULE_PACKAGES, load_suite
from conformance.rules import load_corpus


def _clause_ids() -> list[str]:
    return [f"{clause.rule_id}#c{clause.number}" for clause in load_corpus().clauses]


def _package_rule(package: str) -> str:
    head, number = package.rsplit("_", 1)
    return f"{head.upper().replace('_', '-')}-{number}"


def test_every_rule_package_has_a_situations_module() -> None:
    for package in RULE_PACKAGES:
        module = importlib.import_module(f"conformance.checks.{package}.situations")
        assert isinstance(module.SITUATIONS, tuple), package
        assert isinstance(module.WITHOUT_SITUATIONS, dict), package
        rule = _package_rule(package)
        named = [one.clause for one in module.SITUATIONS] + list(module.WITHOUT_SITUATIONS)
        assert all(clause.startswith(f"{rule}#") for clause in named), package


@pytest.mark.parametrize("clause", _clause_ids())
def test_every_clause_is_in_exactly_one_list(clause: str) -> None:
    declared = clause in load_suite().situations
    without = clause in load_suite().without_situations
    assert declared != without, f"{clause}: declared {declared}, without {without}"
    if without:
        reason = load_suite().without_situations[clause]
        assert len(reason.split()) >= 4, f"{clause}: give the reason in words: {reason!r}"


def test_nothing_is_declared_for_a_clause_the_corpus_lacks() -> None:
    known = set(_clause_ids())
    assert set(load_suite().situations) <= known
    assert set(load_suite().without_situations) <= known


def test_the_committed_reference_standing_reaches_every_declared_situation() -> None:
    """The bundled runtime reaches every situation a clause declares: its committed
    standing (held equal to a fresh run by the slow tier) lists each clause's situations,
    none of them unreached."""
    standing = json.loads(
        (Path(__file__).parents[2] / "reports" / "reference" / "standing.json").read_text(
            encoding="utf-8"
        )
    )
    clauses = {c["id"]: c for rule in standing["rules"] for c in rule["clauses"]}
    for clause, declared in load_suite().situations.items():
        found = clauses[clause]
        assert found["situations"] == [one.words for one in declared], clause
        assert found["unreached"] == [], clause
        assert found["standing"] == "conforms", clause
