"""Every clause names the situations its text speaks of.

A clause that speaks of several circumstances ("returns, pauses or fails", "whether or
not the author exposed the port") conforms only when passing cases reached each; a
clause left out would conform on any passing case, and could be failed by a case that
never met what it speaks of (a failure is charged to a clause only where the case's
traces reached one of its situations).  Every clause of every rule names at least the
circumstance in which it applies ("a call whose result is reported" for a clause about
every result); the register of clauses that name none (``WITHOUT_SITUATIONS``) stays
for a clause whose words could be argued to name no circumstance at all, and is empty."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from adapters.handshake import Capabilities, Handshake, Implementation, Limits
from adapters.scenario import Scenario, StartTurn
from adapters.trace import StepRecord, Trace
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


def test_every_clause_names_a_situation() -> None:
    """No clause is left in the register of those naming none: each names at least the
    circumstance in which it applies."""
    assert dict(load_suite().without_situations) == {}
    for clause in _clause_ids():
        assert load_suite().situations.get(clause), clause


def test_a_trace_where_nothing_happened_reaches_no_situation() -> None:
    """A scenario that started a turn whose runtime ran nothing, wrote nothing and
    reported no ledger reaches none of the circumstances of any clause, even on a
    harness that claims every capability."""
    handshake = Handshake(
        protocol="rttool-adapter/1",
        implementation=Implementation("nothing", "0"),
        profiles=("runtime", "durable-resume"),
        capabilities=Capabilities(
            gates=True,
            port_exposure=True,
            turn_api=True,
            restart=True,
            late_artifacts=True,
            journal_probe=True,
            interrupt_causes=("time_limit", "error", "stop", "cancel"),
        ),
        limits=Limits(),
    )
    scenario = Scenario(id="nothing", steps=(StartTurn("t1"),))
    for trace in (
        Trace(scenario="nothing", steps=()),
        Trace(
            scenario="nothing",
            steps=(StepRecord(0, "start_turn", "ok", runs=(), warnings=(), wire={}),),
        ),
    ):
        for clause, situations in load_suite().situations.items():
            for one in situations:
                assert not one.reached(scenario, trace, handshake), (clause, one.words)


def test_nothing_is_declared_for_a_clause_the_corpus_lacks() -> None:
    known = set(_clause_ids())
    assert set(load_suite().situations) <= known
    assert set(load_suite().without_situations) <= known


def test_the_committed_reference_standing_reaches_every_declared_situation() -> None:
    """The bundled runtime reaches every situation a clause declares: its committed
    standing (held equal to a fresh run by the slow tier) lists each clause's situations,
    none of them unreached; and each hunt case, which found nothing, lists what the
    examples it judged reached."""
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
    hunts = [
        check
        for clause in clauses.values()
        for check in clause["checks"]
        if check["kind"] == "hunt"
    ]
    assert hunts and all(check["outcome"] == "passed" for check in hunts)
    assert all(check["reached"] for check in hunts)
