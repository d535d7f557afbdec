"""Every clause's situations, gathered from the rule packages.

Every rule package declares the situations its clauses' texts name in its ``situations``
module (``conformance/checks/<rule>/situations.py``): a ``SITUATIONS`` tuple of
:class:`conformance.toolkit.ClauseSituation`, and a ``WITHOUT_SITUATIONS`` mapping from
each other clause of the rule to the reason its text names no situation the suite can
tell apart (one behaviour in one circumstance, a permission, a definition).  A clause in
the second conforms on its passing checks alone; every clause is in exactly one of the
two (``tests/conformance/test_situations_declared.py``).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Mapping
from types import MappingProxyType

from adapters.errors import SuiteError
from conformance.checks import RULE_PACKAGES
from conformance.toolkit import ClauseSituation

__all__ = ["clause_situations", "clauses_without_situations"]


@functools.cache
def clause_situations() -> Mapping[str, tuple[ClauseSituation, ...]]:
    """Clause id -> its situations, in declaration order; raises :class:`SuiteError`
    when a clause declares the same words twice."""
    found: dict[str, list[ClauseSituation]] = {}
    for package in RULE_PACKAGES:
        name = f"conformance.checks.{package}.situations"
        if importlib.util.find_spec(name) is None:
            continue
        for one in importlib.import_module(name).SITUATIONS:
            listed = found.setdefault(one.clause, [])
            if any(other.words == one.words for other in listed):
                raise SuiteError("a clause names one situation twice", clause=one.clause)
            listed.append(one)
    return MappingProxyType({clause: tuple(listed) for clause, listed in found.items()})


@functools.cache
def clauses_without_situations() -> Mapping[str, str]:
    """Clause id -> why its text names no situation the suite tells apart, from every
    rule package's ``WITHOUT_SITUATIONS``."""
    found: dict[str, str] = {}
    for package in RULE_PACKAGES:
        module = importlib.import_module(f"conformance.checks.{package}.situations")
        found.update(getattr(module, "WITHOUT_SITUATIONS", {}))
    return MappingProxyType(found)
