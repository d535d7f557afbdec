"""The rules' code: one package per rule, everything that judges the rule in one place.

Each package, named after its rule (``rt_tool_7`` for RT-TOOL-7, ``dr_3`` for DR-3),
holds:

* ``__init__.py``: the rule's overview: what its clauses quantify over, how the checks
  vary it, and what is left unjudged because the text allows either reading;
* ``checks.py``: its hand-written checks (functions decorated with
  :func:`conformance.toolkit.check`), some of them imported from the package's private
  modules where the rule has more than one module holds;
* ``vectors.py``: how its examples run as test vectors (``BINDINGS``) and the stage of
  each of its verdicts (``STAGES``);
* ``invariants.py``: what the property-based hunt holds every generated trace to for
  it (``INVARIANTS``);
* private modules for what belongs to that rule only: the scenario tables its checks
  play (``_argument_cases.py``), checks of some of its clauses (``_held.py``), its
  oracles (``_reconcile.py``).

An invariant or a binding covering clauses of several rules lives with the rule of its
first clause, as a check's id does.  Helpers several rules use live in the toolkit
(:mod:`conformance.toolkit`), never in a rule package, and no rule package imports
another's.

:data:`RULE_PACKAGES` fixes the order everything is gathered in: checks by
:func:`all_checks` (rule, then each ``checks`` module's order), vector bindings by
:mod:`conformance.vectors`, invariants by :mod:`conformance.hunt.invariants` (which holds
them in an order of its own).  Reports list cases in that order.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Literal

from adapters.errors import SuiteError
from conformance.toolkit import Check, checks_in

__all__ = ["RULE_PACKAGES", "all_checks", "rule_modules"]

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

Part = Literal["checks", "vectors", "invariants"]


def rule_modules(part: Part) -> tuple[ModuleType, ...]:
    """The ``part`` module of every rule package, in :data:`RULE_PACKAGES` order."""
    return tuple(
        importlib.import_module(f"{__name__}.{package}.{part}") for package in RULE_PACKAGES
    )


def all_checks() -> tuple[Check, ...]:
    """Every check of every rule, in :data:`RULE_PACKAGES` order, then each ``checks``
    module's own; raises :class:`SuiteError` when two checks share an id."""
    found: list[Check] = []
    seen: set[str] = set()
    for module in rule_modules("checks"):
        for bound in checks_in(module):
            if bound.id in seen:
                raise SuiteError("two checks share an id", check=bound.id)
            seen.add(bound.id)
            found.append(bound)
    return tuple(found)
