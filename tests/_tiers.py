"""The two tiers of this project's tests, kept apart by marking rather than by timing.

A test of the fast tier (``make unit``) must take seconds: what costs more (a real
server, a browser, an agent framework, a suite run in a fresh interpreter, a pytest run
with worker processes, the self-test over more than a couple of mutants or variants)
is done only by a test marked ``@pytest.mark.slow``.  Each such thing calls
:func:`slow_only` (the fixtures and helpers of these tests do) or is wrapped by
:func:`guard` (the entry points the tests reach in the product, wrapped for the whole
session by ``tests/conftest.py``); in a test not so marked it fails the test, naming it,
before anything is started.  No test is timed.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import pytest

__all__ = ["RUNNING", "guard", "guarded", "slow_only"]

#: The test being run (``None`` outside any test: collection, the session's own set-up).
RUNNING: ContextVar[pytest.Item | None] = ContextVar("running test", default=None)


def slow_only(what: str) -> None:
    """Fail the running test unless it is marked slow: ``what`` is too costly for the
    fast tier."""
    item = RUNNING.get()
    if item is not None and item.get_closest_marker("slow") is None:
        pytest.fail(
            f"{item.nodeid}: {what} runs only in a test marked @pytest.mark.slow "
            "(the fast tier holds no test that costs more than seconds)",
            pytrace=False,
        )


def guard(
    module: str,
    name: str,
    what: str,
    costly: Callable[..., bool] = lambda *args, **kwargs: True,
) -> None:
    """Wrap ``module.name`` so that a call for which ``costly(*args, **kwargs)`` holds
    goes through :func:`slow_only` first."""
    owner = importlib.import_module(module)
    original = getattr(owner, name)
    if getattr(original, "__wrapped_for_tiers__", False):
        return
    setattr(owner, name, guarded(original, what, costly))


def guarded(
    function: Callable[..., Any], what: str, costly: Callable[..., bool]
) -> Callable[..., Any]:
    """``function``, refusing its costly calls outside the slow tier."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if costly(*args, **kwargs):
            slow_only(what)
        return function(*args, **kwargs)

    wrapper.__wrapped_for_tiers__ = True  # type: ignore[attr-defined]
    return wrapper
