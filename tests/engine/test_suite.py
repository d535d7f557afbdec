"""The engine answers, for every consumer, which cases a run contains, in which order,
with which ids: one loader, one suite, the order declared in each rule package."""

from __future__ import annotations

import importlib
import types

import pytest

import conformance.engine as engine
from adapters.errors import SuiteError
from conformance.engine import RULE_PACKAGES, RunOptions, Selection, Suite, load_suite
from conformance.engine._packages import _checks, hunt_order
from conformance.rules import load_corpus
from conformance.toolkit import check, invariant


def test_every_public_name_of_the_engine_is_found_where_it_is_said_to_be() -> None:
    assert sorted(engine.__all__) == sorted(engine._WHERE)
    for name in engine.__all__:
        assert getattr(engine, name) is not None, name


def test_the_suite_orders_checks_by_each_packages_checks_list() -> None:
    suite = load_suite()
    by_package = [[one.id for one in package.checks] for package in suite.packages]
    assert [case.id for case in suite.checks] == [i for ids in by_package for i in ids]
    for name, package in zip(RULE_PACKAGES, suite.packages, strict=True):
        listed = importlib.import_module(f"conformance.checks.{name}.checks").CHECKS
        assert len(listed) <= len(package.checks)  # a check with variants is several


def test_every_case_id_is_unique_and_hunt_ids_come_from_one_place() -> None:
    suite = load_suite()
    cases = suite.cases(hunt=RunOptions())
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids))
    hunted = [case.id for case in cases if case.kind == "hunt"]
    assert hunted == list(suite.hunt_ids)
    assert all(one.startswith(engine.HUNT_CASE_PREFIX) for one in hunted)


def test_the_hunts_order_is_by_the_rank_each_invariant_declares() -> None:
    ranks = [one.rank for one in load_suite().invariants]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert load_suite().invariants[0].name == "no-metadata-leak"  # a cause before its effects


def _never(*args: object) -> None:
    return None


def test_two_invariants_of_one_rank_are_refused() -> None:
    def one(name: str, rank: int) -> object:
        return invariant(name, ("RT-TOOL-4#c1",), _never, "x", lambda *a: True, rank=rank)

    packages = load_suite().packages
    clash = types.SimpleNamespace(invariants=(one("a", 5), one("b", 5)))
    with pytest.raises(SuiteError, match="share a rank"):
        hunt_order((*packages[:0], clash))  # type: ignore[arg-type]


def test_a_check_left_out_of_checks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module("conformance.checks.rt_tool_1.checks")

    @check("RT-TOOL-1#c1")
    def check_forgotten(ctx: object) -> None:
        """Never listed."""

    check_forgotten.__module__ = module.__name__
    monkeypatch.setattr(module, "check_forgotten", check_forgotten, raising=False)
    with pytest.raises(SuiteError, match="not listed in its CHECKS"):
        _checks("conformance.checks.rt_tool_1")


def test_a_plan_selects_shards_and_orders_first() -> None:
    suite = Suite.over(load_corpus())
    plan = suite.plan(RunOptions(only=("RT-TOOL-7",), no_hunt=True, first=("RT-TOOL-7#c4",)))
    assert plan.cases and all("RT-TOOL-7" in case.rules for case in plan.cases)
    assert "RT-TOOL-7#c4" in plan.cases[0].clauses
    sharded = suite.plan(RunOptions(no_hunt=True, shard=(1, 2)))
    assert sharded.shard is not None and sharded.shard.left
    with pytest.raises(SuiteError, match="names no rule or clause"):
        suite.plan(RunOptions(only=("RT-TOOL-99",)))


def test_a_selection_of_kinds_leaves_the_others_out() -> None:
    suite = load_suite()
    checks = suite.cases(Selection(kinds=("check",)))
    assert checks and {case.kind for case in checks} == {"check"}
