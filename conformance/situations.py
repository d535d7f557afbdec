"""Every clause's situations, gathered from the rule packages.

A rule package may declare the situations its clauses' texts name in a ``situations``
module (``conformance/checks/<rule>/situations.py``, a ``SITUATIONS`` tuple of
:class:`conformance.toolkit.ClauseSituation`); a clause no package declares situations
for names none the suite can tell apart, and conforms on its passing checks alone.
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

__all__ = ["clause_situations"]


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
