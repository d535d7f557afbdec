"""The engine behind the rule packages: one suite, one option table, one outcome type.

Which cases a run contains, in which order and with which ids:
    :func:`load_suite` gathers what every rule package declares into one :class:`Suite`
    (checks in each package's ``CHECKS`` order, example vectors, the hunt's invariants
    by rank); :meth:`Suite.cases` lists them, :meth:`Suite.plan` adds one run's
    selection, ``--first`` and shard (:class:`RunPlan`, :class:`ShardPlan`,
    :func:`split_rules`); :func:`hunt_case_id` is how a hunt case is named.
A run's options:
    :data:`RUN_OPTIONS` declares every option once; ``rttool run``'s arguments
    (:func:`add_run_arguments`) and the pytest plugin's (:func:`add_pytest_options`) are
    made from it, and both resolve to :class:`RunOptions`.
Running cases:
    :class:`Session` runs cases against one implementation (:meth:`Session.execute`);
    :func:`judge` is the one way a case is concluded; :class:`CaseOutcome` is how a case
    ended, the one type from :func:`judge` to the report; :func:`run_suite` runs a whole
    plan, here or in worker processes, telling each :class:`Listener` (such as
    :class:`RuleLines`) as it goes, and builds the standing (:func:`build_report`, with
    :func:`charged` landing each outcome on the clause whose words it breaks);
    :func:`judge_example` concludes one saved example of an invariant the same way, per
    clause (a :class:`ClauseVerdict` each), for ``rttool replay``.
Which build is running: :func:`suite_build`, a digest of the suite's own code (a shard
    records it; ``rttool report merge`` merges only shards of its own build).
What the suite binds, without running it:
    :func:`clause_cases`, :func:`clause_situation_notes` and :func:`suite_policy` (for
    ``rttool rules show --cases`` and ``rttool rules lint``).

The module imports its parts when first asked for one, so that the option table stays
cheap to import (the pytest plugin adds its options from it in every pytest session).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.engine._build import suite_build
    from conformance.engine._case import (
        HUNT_CASE_PREFIX,
        Case,
        CaseKind,
        Judgement,
        Selection,
        check_selection,
        hunt_case_id,
        judge,
        one_line,
        rules_of,
    )
    from conformance.engine._coverage import (
        BoundCase,
        ClauseSituations,
        clause_cases,
        clause_situation_notes,
        suite_policy,
    )
    from conformance.engine._example import ClauseVerdict, judge_example
    from conformance.engine._hunt_cases import hunt_cases_over
    from conformance.engine._options import (
        REFERENCE_SPEC,
        RUN_OPTIONS,
        Option,
        RunOptions,
        add_pytest_options,
        add_run_arguments,
        resolve_spec,
    )
    from conformance.engine._outcome import EVIDENCE_NOT_WRITTEN, CaseOutcome, HuntRecord
    from conformance.engine._packages import RULE_PACKAGES, RulePackage
    from conformance.engine._run import (
        EXITFIRST_NOT_RUN,
        NOT_RUN,
        Listener,
        RuleLines,
        RunResult,
        run_suite,
    )
    from conformance.engine._session import Session
    from conformance.engine._shard import ShardPlan, split_rules
    from conformance.engine._standing import (
        Tally,
        build_report,
        charged,
        check_result,
        clauses_standing,
        rule_result,
        selected_clause,
        shown_spec,
    )
    from conformance.engine._suite import RunPlan, Suite, first_ordered, load_suite
    from conformance.engine._vectors import group_examples

#: Each public name, and the private module that holds it.
_WHERE: dict[str, str] = {
    **dict.fromkeys(
        (
            "HUNT_CASE_PREFIX",
            "Case",
            "CaseKind",
            "Judgement",
            "Selection",
            "check_selection",
            "clauses_standing",
            "hunt_case_id",
            "hunt_cases_over",
            "judge",
            "one_line",
            "rules_of",
        ),
        "_case",
    ),
    **dict.fromkeys(
        ("BoundCase", "ClauseSituations", "clause_cases", "clause_situation_notes", "suite_policy"),
        "_coverage",
    ),
    **dict.fromkeys(("ClauseVerdict", "judge_example"), "_example"),
    **dict.fromkeys(
        (
            "REFERENCE_SPEC",
            "RUN_OPTIONS",
            "Option",
            "RunOptions",
            "add_pytest_options",
            "add_run_arguments",
            "resolve_spec",
        ),
        "_options",
    ),
    **dict.fromkeys(("EVIDENCE_NOT_WRITTEN", "CaseOutcome", "HuntRecord"), "_outcome"),
    "hunt_cases_over": "_hunt_cases",
    **dict.fromkeys(("RULE_PACKAGES", "RulePackage"), "_packages"),
    **dict.fromkeys(
        ("EXITFIRST_NOT_RUN", "NOT_RUN", "Listener", "RuleLines", "RunResult", "run_suite"),
        "_run",
    ),
    "Session": "_session",
    "suite_build": "_build",
    **dict.fromkeys(("ShardPlan", "split_rules"), "_shard"),
    **dict.fromkeys(
        (
            "Tally",
            "build_report",
            "charged",
            "check_result",
            "clauses_standing",
            "rule_result",
            "selected_clause",
            "shown_spec",
            "shown_spec",
        ),
        "_standing",
    ),
    **dict.fromkeys(("RunPlan", "Suite", "first_ordered", "load_suite"), "_suite"),
    "group_examples": "_vectors",
}

__all__ = [
    "EVIDENCE_NOT_WRITTEN",
    "EXITFIRST_NOT_RUN",
    "HUNT_CASE_PREFIX",
    "NOT_RUN",
    "REFERENCE_SPEC",
    "RULE_PACKAGES",
    "RUN_OPTIONS",
    "BoundCase",
    "Case",
    "CaseKind",
    "CaseOutcome",
    "ClauseSituations",
    "ClauseVerdict",
    "HuntRecord",
    "Judgement",
    "Listener",
    "Option",
    "RuleLines",
    "RulePackage",
    "RunOptions",
    "RunPlan",
    "RunResult",
    "Selection",
    "Session",
    "ShardPlan",
    "Suite",
    "Tally",
    "add_pytest_options",
    "add_run_arguments",
    "build_report",
    "charged",
    "check_result",
    "check_selection",
    "clause_cases",
    "clause_situation_notes",
    "clauses_standing",
    "first_ordered",
    "group_examples",
    "hunt_case_id",
    "hunt_cases_over",
    "judge",
    "judge_example",
    "load_suite",
    "one_line",
    "resolve_spec",
    "rule_result",
    "rules_of",
    "run_suite",
    "selected_clause",
    "shown_spec",
    "split_rules",
    "suite_build",
    "suite_policy",
]


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once found, a plain attribute
    return value
