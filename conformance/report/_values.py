"""The vocabulary of the standing model, and the checks every model class applies.

Every string in the model is kept on one line (line breaks become spaces) with lone
surrogates replaced by U+FFFD, so any model can be written as UTF-8 in any format.
"""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Literal

from adapters.errors import SuiteError

__all__ = [
    "CHECK_KINDS",
    "FAILING",
    "FAULTS",
    "HUNT_PREFIX",
    "LEVELS",
    "OUTCOMES",
    "SKIP_KINDS",
    "STANDINGS",
    "CheckKind",
    "Fault",
    "Level",
    "Outcome",
    "SkipKind",
    "Standing",
    "bad",
    "choice",
    "normalise_strings",
    "one_line",
    "seconds",
]

Standing = Literal["conforms", "does-not-conform", "untested", "not-applicable", "error"]
Outcome = Literal["passed", "failed", "skipped", "error"]
SkipKind = Literal["untested", "not-applicable"]
Fault = Literal["implementation", "suite"]
Level = Literal["core", "extended", "optional"]
CheckKind = Literal["check", "vector", "hunt"]

STANDINGS: tuple[Standing, ...] = (
    "conforms",
    "does-not-conform",
    "untested",
    "not-applicable",
    "error",
)
#: The standings that are findings: a gate fails on them unless they are expected.
FAILING: frozenset[Standing] = frozenset({"does-not-conform", "error"})
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "skipped", "error")
LEVELS: tuple[Level, ...] = ("core", "extended", "optional")
CHECK_KINDS: tuple[CheckKind, ...] = ("check", "vector", "hunt")
#: every hunt check is named ``hunt-<invariant>`` (an expectations file can name one
#: even in a run where the hunt did not run)
HUNT_PREFIX = "hunt-"
SKIP_KINDS: tuple[SkipKind, ...] = ("untested", "not-applicable")
FAULTS: tuple[Fault, ...] = ("implementation", "suite")


def one_line(text: str) -> str:
    """``text`` on one line, with lone surrogates replaced so it encodes as UTF-8."""
    if any("\ud800" <= char <= "\udfff" for char in text):
        text = "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
    # str.splitlines knows every line break Python, YAML and browsers honour.
    return " ".join(text.splitlines())


def bad(message: str, **details: object) -> SuiteError:
    """The error a model class raises when built with values that break its rules."""
    return SuiteError(message, **details)


def normalise_strings(instance: object) -> None:
    """Apply :func:`one_line` to every string and tuple-of-strings field, in place.

    Called first thing in ``__post_init__``, when derived fields are not set yet.
    """
    for item in fields(instance):  # type: ignore[arg-type]
        if not item.init:
            continue
        value = getattr(instance, item.name)
        if isinstance(value, str):
            cleaned: object = one_line(value)
        elif isinstance(value, tuple) and all(isinstance(part, str) for part in value):
            cleaned = tuple(one_line(part) for part in value)
        else:
            continue
        if cleaned != value:
            object.__setattr__(instance, item.name, cleaned)


def choice(value: object, options: tuple[str, ...], name: str) -> None:
    if value not in options:
        raise bad(f"{name} must be one of {', '.join(options)}", field=name, value=value)


def seconds(value: float, name: str) -> None:
    if isinstance(value, bool) or not math.isfinite(value) or value < 0:
        raise bad(f"{name} must be a finite number of seconds >= 0", field=name, value=value)
