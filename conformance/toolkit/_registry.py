"""Checks bound to clauses.

A check is a function taking a :class:`~conformance.toolkit.CheckContext`, decorated with
:func:`check`, which names the clause ids it covers.  A check that varies what its clause
quantifies over takes a second argument and names its ``variants``: each variant is a
case of its own, named ``name[variant]``, so every report says which variant failed.
That decorator is where a check names the clauses it judges (a check names another
clause only as a prerequisite, or to charge an expectation of a case bound to several);
:func:`validate_bindings` holds every binding against the parsed corpus at start-up.
The decorator registers nothing in a global: it marks the function, and
:func:`bound_checks` reads the mark (the engine gathers every rule package's checks in
the order of its ``CHECKS``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adapters.errors import SuiteError

if TYPE_CHECKING:
    from conformance.toolkit._channels import Channel
    from conformance.toolkit._context import CheckContext

__all__ = ["Check", "bound_checks", "check", "validate_bindings", "where_defined"]

_CLAUSE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*#c[1-9][0-9]*$")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_ATTRIBUTE = "__rttool_check__"
_ATTRIBUTE_VARIANTS = "__rttool_check_variants__"


@dataclass(frozen=True)
class Check:
    """One check: a name, the clauses it covers, and the function that performs it."""

    name: str
    clauses: tuple[str, ...]
    function: Callable[[CheckContext], None]
    summary: str
    #: the variant this check plays (its name ends in ``[variant]``), if any
    variant: str | None = None
    #: the channels its observations go through (:class:`~conformance.toolkit.Channel`)
    through: tuple[Channel, ...] = ()

    @property
    def id(self) -> str:
        """``RT-TOOL-7#c4/held-put-back-after-failed-write-back``: clause first, then name."""
        return f"{self.clauses[0]}/{self.name}"

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids of the clauses it covers."""
        return tuple(dict.fromkeys(clause.split("#")[0] for clause in self.clauses))

    @property
    def defined_at(self) -> tuple[str, int]:
        """``(file, line)`` of the decorated function (the line of its decorator)."""
        return where_defined(self.function)


def where_defined(function: Callable[..., object]) -> tuple[str, int]:
    """``(file, line)`` where ``function`` (or the function a partial wraps) is defined."""
    while isinstance(function, functools.partial):
        function = function.func
    code = getattr(function, "__code__", None)
    if code is None:
        return "", 0
    return code.co_filename, code.co_firstlineno


def check(
    *clauses: str,
    name: str | None = None,
    variants: Mapping[str, object] | None = None,
    through: tuple[Channel, ...] = (),
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Bind the decorated function to ``clauses`` (``"RT-TOOL-7#c4"``...).

    With ``variants`` (variant name -> value), the function takes the value as its second
    argument and becomes one check per variant, named ``name[variant]``.  ``through``
    names the channels its observations go through: a failure seen in a trace where one
    of them does not hold is blocked by that channel's clause (see
    :class:`~conformance.toolkit.Channel`).
    """
    if not clauses:
        raise SuiteError("a check must cover at least one clause")
    for clause in clauses:
        if not _CLAUSE_ID.match(clause):
            raise SuiteError("malformed clause id in a check binding", clause=clause)
    if variants is not None:
        if not variants:
            raise SuiteError("a check with variants needs at least one", clauses=",".join(clauses))
        for variant in variants:
            if not _NAME.match(variant):
                raise SuiteError("malformed variant name", variant=variant)

    def bind(function: Callable[..., None]) -> Callable[..., None]:
        check_name = name or function.__name__.removeprefix("check_").replace("_", "-")
        if not _NAME.match(check_name):
            raise SuiteError("malformed check name", name=check_name)
        summary = (function.__doc__ or check_name).strip().splitlines()[0]
        if variants is None:
            made = Check(check_name, tuple(clauses), function, summary, through=through)
            setattr(function, _ATTRIBUTE, made)
            return function
        expanded = tuple(
            Check(
                f"{check_name}[{variant}]",
                tuple(clauses),
                functools.partial(function, variant=value),
                summary,
                variant,
                through,
            )
            for variant, value in variants.items()
        )
        setattr(function, _ATTRIBUTE_VARIANTS, expanded)
        return function

    return bind


def bound_checks(value: Any) -> tuple[Check, ...]:
    """The checks ``value`` plays when it is a function decorated with :func:`check` (one
    per variant), else none."""
    single = getattr(value, _ATTRIBUTE, None)
    if isinstance(single, Check):
        return (single,)
    many = getattr(value, _ATTRIBUTE_VARIANTS, None)
    return many if isinstance(many, tuple) else ()


def validate_bindings(checks: Iterable[Check], clause_ids: Iterable[str]) -> None:
    """Raise :class:`SuiteError` when a check cites a clause the corpus does not have."""
    known = set(clause_ids)
    for one in checks:
        for clause in one.clauses:
            if clause not in known:
                raise SuiteError(
                    "a check cites a clause that does not exist", check=one.id, clause=clause
                )
