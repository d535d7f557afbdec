"""A failed expectation fails the case on every path that runs one.

Every way the suite runs a case (the pytest plugin, the self-test against a mutant, the
legal variants, the scenario catalog, and this project's own tests) goes through
:func:`conformance.cases.judge`, which concludes the check.  Here every expectation is
forced to fail, and each path must report every case whose check judged anything with
an expectation as failed: a path that ran a check without concluding it would report
those cases as passing.
"""

from __future__ import annotations

import ast
import importlib
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance import selftest as engine
from conformance._variants import VariantInfo, read_variants, run_variants
from conformance.catalog import build_catalog
from conformance.engine import Case, Selection, Suite
from conformance.rules import Corpus, load_corpus
from conformance.toolkit import (
    CheckContext,
)
from conformance.toolkit.machinery import Failure, bound_checks
from tests.conformance.test_reference_conforms import judged_against_reference

#: Every case of this rule judges with :meth:`CheckContext.expect`.
RULE = "RT-TOOL-9"
FORCED = "forced to fail"


@pytest.fixture
def every_expectation_fails(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """``CheckContext.expect`` records a failure whatever it is given; yields the message
    of every call (so that a test can tell that a case judged with it)."""
    called: list[str] = []

    def expect(
        self: CheckContext,
        condition: bool,
        message: str,
        *,
        at: str | None = None,
        reading: str | None = None,
    ) -> bool:
        called.append(message)
        self.failures.append(Failure(f"{FORCED}: {message}"))
        return False

    monkeypatch.setattr(CheckContext, "expect", expect)
    yield called


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="module")
def cases(corpus: Corpus) -> list[Case]:
    """The rule's checks (its vectors judge with `need`)."""
    selection = Selection(only=(RULE,), kinds=("check",))
    found = Suite.over(corpus).cases(selection)
    assert len(found) > 10
    return found


def test_the_rule_judges_with_expect_in_every_case(cases: list[Case]) -> None:
    """What the other tests rest on: every case of the rule passes against the reference
    runtime, and calls ``expect`` on the way."""
    for case in cases:
        assert judged_against_reference(case).verdict == "passed", case.id


def test_the_reference_conforms_test_fails_every_case(
    cases: list[Case], every_expectation_fails: list[str]
) -> None:
    for case in cases:
        before = len(every_expectation_fails)
        judged = judged_against_reference(case)
        assert len(every_expectation_fails) > before, f"{case.id} judged nothing with expect"
        assert judged.verdict == "failed", case.id
        assert judged.failures[0].message.startswith(FORCED)


def test_the_pytest_plugin_fails_every_case(
    pytester: pytest.Pytester, cases: list[Case], every_expectation_fails: list[str]
) -> None:
    clause = f"{RULE}#c5"
    # In this process, so that the forced expectation reaches the plugin.
    result = pytester.runpytest_inprocess(
        "--rttool-impl", "reference", "--rttool-only", clause, "--rttool-no-hunt"
    )
    chosen = [case.id for case in cases if clause in case.clauses]
    assert chosen
    result.assert_outcomes(failed=len(chosen))
    said = result.stdout.str()
    assert all(f"{case}: {FORCED}: " in said for case in chosen), said


def test_the_selftest_counts_every_case_as_catching_a_mutant(
    corpus: Corpus, cases: list[Case], every_expectation_fails: list[str]
) -> None:
    """Against a mutant of another rule, no case of this one would fail, but for the
    forced expectations."""
    mutant = next(m for m in engine.read_catalogue() if RULE not in str(m.breaks))
    result = engine.run_mutant(mutant, corpus, cases)
    assert result.caught_by_cases == tuple(case.id for case in cases)


def test_mutants_run_side_by_side_fail_every_case(
    corpus: Corpus, cases: list[Case], every_expectation_fails: list[str]
) -> None:
    """The self-test's workers are forked from this process: what it changed reaches them."""
    others = [m for m in engine.read_catalogue() if not m.hunt and not m.hunted]
    chosen = [m for m in others if RULE not in str(m.breaks)][:2]
    results = list(engine.run_mutants(chosen, corpus, cases, full=True, workers=2))
    assert [r.name for r in results] == [m.name for m in chosen]
    for result in results:
        assert result.caught_by_cases == tuple(case.id for case in cases), result.name


def _variants(count: int) -> list[VariantInfo]:
    return list(read_variants()[:count])


def test_the_variants_reject_every_case(
    corpus: Corpus, cases: list[Case], every_expectation_fails: list[str]
) -> None:
    judged = run_variants(_variants(2), suite=(corpus, cases), hunt_examples=1, workers=2)
    assert len(judged) == 2
    for variant in judged:
        assert [case for case, _ in variant.rejected_by if not case.startswith("HUNT/")] == [
            case.id for case in cases
        ], variant.name
        assert not variant.conforms


def test_the_catalog_lists_every_case_as_failed(every_expectation_fails: list[str]) -> None:
    catalog = build_catalog(only=(RULE,), samples=0)
    assert catalog.cases
    for summary in (one for one in catalog.cases if one.kind == "check"):
        assert summary.ended.startswith("failed against the reference runtime: " + FORCED), (
            summary.id
        )


# No test runs a check except through the judge: a test that called a case's check and
# looked only at what it raised would miss every expectation that failed.

TESTS = Path(__file__).resolve().parents[1]


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _makers(tree: ast.Module) -> set[str]:
    """What makes a check context in a module: the class, its subclasses there, and the
    module's functions annotated to return one."""
    makers = {"CheckContext"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            getattr(base, "id", getattr(base, "attr", "")) in makers for base in node.bases
        ):
            makers.add(node.name)
        returns = getattr(node, "returns", None)
        named = getattr(returns, "id", getattr(returns, "value", ""))
        if isinstance(node, ast.FunctionDef) and named == "CheckContext":
            makers.add(node.name)
    return makers


def _bound_checks_imported(tree: ast.Module) -> set[str]:
    """Names the module imports from a rule package that are checks."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "conformance.checks."
        ):
            module = importlib.import_module(node.module or "")
            for alias in node.names:
                if bound_checks(getattr(module, alias.name, None)):
                    found.add(alias.asname or alias.name)
    return found


def unjudged_runs(source: str) -> list[str]:
    """Every place ``source`` runs a check other than through the judge: a check's
    ``function`` called, a case's ``run`` handed a context the module made, or a check
    imported from a rule package called."""
    tree = ast.parse(source)
    makers = _makers(tree)
    contexts: set[str] = set()
    for node in ast.walk(tree):
        value = getattr(node, "value", None)
        made = isinstance(value, ast.Call) and _callee(value) in makers
        if made and isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            contexts |= {t.id for t in targets if isinstance(t, ast.Name)}

    def context(expr: ast.expr) -> bool:
        if isinstance(expr, ast.Call):
            return _callee(expr) in makers
        return isinstance(expr, ast.Name) and expr.id in contexts

    checks = _bound_checks_imported(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        if isinstance(node.func, ast.Attribute) and name == "function":
            found.append(f"line {node.lineno}: calls a check's function")
        elif (
            isinstance(node.func, ast.Attribute) and name == "run" and any(map(context, node.args))
        ):
            found.append(f"line {node.lineno}: runs a case in a context of its own")
        elif isinstance(node.func, ast.Name) and name in checks:
            found.append(f"line {node.lineno}: calls the check {name}")
    return found


def test_no_test_runs_a_check_but_through_the_judge() -> None:
    found = {
        path.relative_to(TESTS).as_posix(): unjudged
        for path in sorted(TESTS.rglob("*.py"))
        if "fixtures" not in path.parts and (unjudged := unjudged_runs(path.read_text("utf-8")))
    }
    assert found == {}


def test_the_scan_finds_each_way_of_running_a_check_unjudged() -> None:
    source = textwrap.dedent(
        """
        from conformance.engine import judge
        from conformance.checks.rt_tool_9.checks import check_recorded_call_not_invoked_again
        from conformance.toolkit import CheckContext

        class Noting(CheckContext):
            pass

        def made() -> CheckContext:
            return CheckContext(runner)

        ctx = CheckContext(runner)
        noted = Noting(runner)
        CHECKS[name].function(ctx)
        case.run(ctx)
        case.run(noted)
        case.run(made())
        check_recorded_call_not_invoked_again(ctx)
        judge(case, runner)
        judge(case, noted)
        driver.run(scenario)
        """
    )
    assert unjudged_runs(source) == [
        "line 14: calls a check's function",
        "line 15: runs a case in a context of its own",
        "line 16: runs a case in a context of its own",
        "line 17: runs a case in a context of its own",
        "line 18: calls the check check_recorded_call_not_invoked_again",
    ]
