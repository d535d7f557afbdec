"""Checks: executable clauses.  See :func:`check` and :class:`CheckContext`."""

from conformance.checks._context import CheckContext, Evidence, ScenarioRunner
from conformance.checks._outcomes import CheckFailed, Failure, NotApplicable, Untested
from conformance.checks._registry import CHECK_MODULES, Check, all_checks, check, validate_bindings

__all__ = [
    "CHECK_MODULES",
    "Check",
    "CheckContext",
    "CheckFailed",
    "Evidence",
    "Failure",
    "NotApplicable",
    "ScenarioRunner",
    "Untested",
    "all_checks",
    "check",
    "validate_bindings",
]
