"""The one loader of the rule packages: everything that judges each rule, as declared in
its folder.

A rule package (``conformance/checks/rt_tool_7/`` for RT-TOOL-7) declares, each in its
own module, its checks in the order they run (``checks.CHECKS``), how its json examples
run as vectors (``vectors.BINDINGS``, ``vectors.STAGES``), what the hunt holds every
generated trace to (``invariants.INVARIANTS``, each with its place in the hunt's order),
and the situations its clauses' words name (``situations.SITUATIONS`` and
``situations.WITHOUT_SITUATIONS``).  :func:`rule_packages` reads them all, in
:data:`RULE_PACKAGES` order, and refuses a declaration that does not hold together
(a check left out of ``CHECKS``, two checks or invariants of one name, a rank shared).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType

from adapters.errors import SuiteError
from conformance.toolkit.machinery import (
    Binding,
    Check,
    ClauseSituation,
    Invariant,
    Stage,
    bound_checks,
)

__all__ = ["RULE_PACKAGES", "RulePackage", "hunt_order", "rule_packages"]

#: The rule packages, in the order their cases are gathered and reported.
RULE_PACKAGES: tuple[str, ...] = (
    "rt_tool_1",
    "rt_tool_2",
    "rt_tool_3",
    "rt_tool_4",
    "rt_tool_5",
    "rt_tool_6",
    "rt_tool_7",
    "rt_tool_8",
    "rt_tool_9",
    "rt_tool_10",
    "dr_1",
    "dr_2",
    "dr_3",
    "dr_4",
    "dr_5",
    "dr_6",
)
_ROOT = "conformance.checks"


@dataclass(frozen=True)
class RulePackage:
    """What one rule package declares: its checks (each variant a check of its own), its
    vector bindings and their stages, its invariants and its clauses' situations."""

    name: str
    checks: tuple[Check, ...]
    bindings: tuple[Binding, ...]
    stages: Mapping[tuple[str, str], Stage]
    invariants: tuple[Invariant, ...]
    situations: tuple[ClauseSituation, ...]
    without_situations: Mapping[str, str]


@functools.cache
def rule_packages() -> tuple[RulePackage, ...]:
    """Every rule package, in :data:`RULE_PACKAGES` order; raises :class:`SuiteError`
    where a package's declarations do not hold together, or two checks share an id."""
    packages = tuple(_load(name) for name in RULE_PACKAGES)
    seen: set[str] = set()
    for package in packages:
        for one in package.checks:
            if one.id in seen:
                raise SuiteError("two checks share an id", check=one.id)
            seen.add(one.id)
    return packages


def hunt_order(packages: tuple[RulePackage, ...]) -> tuple[Invariant, ...]:
    """Every invariant in the order the hunt holds an example to them: by rank, which
    each invariant declares so that one naming a cause is judged before those that only
    see its effect.  Raises :class:`SuiteError` for a name or a rank declared twice."""
    found: dict[str, Invariant] = {}
    ranks: dict[int, str] = {}
    for package in packages:
        for one in package.invariants:
            if one.name in found:
                raise SuiteError("two invariants share a name", invariant=one.name)
            if one.rank in ranks:
                raise SuiteError(
                    "two invariants share a rank in the hunt's order",
                    invariant=one.name,
                    other=ranks[one.rank],
                    rank=one.rank,
                )
            found[one.name] = one
            ranks[one.rank] = one.name
    return tuple(sorted(found.values(), key=lambda one: one.rank))


def _load(name: str) -> RulePackage:
    package = f"{_ROOT}.{name}"
    vectors = importlib.import_module(f"{package}.vectors")
    situations = importlib.import_module(f"{package}.situations")
    seen: set[tuple[str, str]] = set()
    for one in situations.SITUATIONS:
        if (one.clause, one.words) in seen:
            raise SuiteError("a clause names one situation twice", clause=one.clause)
        seen.add((one.clause, one.words))
    return RulePackage(
        name=name,
        checks=_checks(package),
        bindings=tuple(vectors.BINDINGS),
        stages=MappingProxyType(dict(vectors.STAGES)),
        invariants=tuple(importlib.import_module(f"{package}.invariants").INVARIANTS),
        situations=tuple(situations.SITUATIONS),
        without_situations=MappingProxyType(dict(getattr(situations, "WITHOUT_SITUATIONS", {}))),
    )


def _checks(package: str) -> tuple[Check, ...]:
    """The checks ``checks.CHECKS`` lists, in its order; every function decorated as a
    check anywhere in the package must be listed there exactly once."""
    listed = importlib.import_module(f"{package}.checks").CHECKS
    names = [_name(function) for function in listed]
    repeated = next((name for name in names if names.count(name) > 1), None)
    if repeated is not None:
        raise SuiteError("a check is listed twice in CHECKS", package=package, check=repeated)
    declared = {
        _name(value)
        for module in _modules(package)
        for value in vars(module).values()
        if bound_checks(value) and getattr(value, "__module__", "").startswith(package)
    }
    missing = sorted(declared - set(names))
    if missing:
        raise SuiteError(
            "a check of the rule package is not listed in its CHECKS",
            package=package,
            check=missing[0],
        )
    checks = tuple(one for function in listed for one in bound_checks(function))
    if len(checks) < len(listed):
        raise SuiteError("CHECKS lists what is not a check", package=package)
    return checks


def _modules(package: str) -> tuple[ModuleType, ...]:
    """The package's modules, imported."""
    root = importlib.import_module(package)
    return tuple(
        importlib.import_module(f"{package}.{info.name}")
        for info in pkgutil.iter_modules(root.__path__)
    )


def _name(function: object) -> str:
    return str(getattr(function, "__qualname__", function))
