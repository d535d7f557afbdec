"""What every test of this project shares: the fast tier holds nothing costly (see
``tests/_tiers.py``)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import pytest

from tests._standings import FreshStanding, make_fresh_standings
from tests._tiers import RUNNING, guard, guarded

#: More mutants or legal variants than this is the self-test's work, not a test's.
SOME = 2


def _many(items: Any, *args: Any, **kwargs: Any) -> bool:
    return len(items) > SOME


def _workers(*args: Any, **kwargs: Any) -> bool:
    """A pytest run given ``-n``: worker processes, each importing everything afresh."""
    return any(str(arg) == "-n" or str(arg).startswith(("-n=", "--numprocesses")) for arg in args)


def pytest_configure(config: pytest.Config) -> None:
    guard("reference_impl.server.process", "spawn_server", "a real HTTP server process")
    guard(
        "conformance.selftest", "run_mutants", f"the self-test of more than {SOME} mutants", _many
    )
    guard(
        "conformance._variants",
        "run_variants",
        f"the self-test of more than {SOME} legal variants",
        _many,
    )
    for method in ("runpytest", "runpytest_inprocess", "runpytest_subprocess"):
        original = getattr(pytest.Pytester, method)
        if not getattr(original, "__wrapped_for_tiers__", False):
            wrapped = guarded(original, "a pytest run with worker processes", _without_self)
            setattr(pytest.Pytester, method, wrapped)


def _without_self(pytester: pytest.Pytester, *args: Any, **kwargs: Any) -> bool:
    return _workers(*args)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    token = RUNNING.set(item)
    try:
        return (yield)
    finally:
        RUNNING.reset(token)


@pytest.fixture(scope="session")
def fresh_standing(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], FreshStanding]:
    """The fresh standing of a published implementation, one run per session (see
    ``tests/_standings.py``)."""
    return make_fresh_standings(tmp_path_factory)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The whole-suite runs against the frameworks first, the longest (the last
    published) first: started last, one of them would leave the other worker idle at
    the end of the slow tier."""
    heavy = [item for item in items if "fresh_standing" in getattr(item, "fixturenames", ())]
    heavy.reverse()
    chosen = set(map(id, heavy))
    items[:] = heavy + [item for item in items if id(item) not in chosen]
