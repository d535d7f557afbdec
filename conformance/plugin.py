"""rttool's pytest plugin (entry point ``pytest11``), kept light: it only adds options.

Everything else is imported when ``--rttool-impl SPEC`` is given, so a pytest session
that does not use rttool pays nothing for it::

    pytest --rttool-impl reference
    pytest --rttool-impl http://127.0.0.1:8080 --rttool-only RT-TOOL-7 -n 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

__all__ = ["pytest_addoption", "pytest_configure"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``--rttool-*`` options, made from the engine's one option table."""
    from conformance.engine import add_pytest_options

    group = parser.getgroup("rttool", "rttool conformance suite")
    add_pytest_options(group.addoption)


def pytest_configure(config: pytest.Config) -> None:
    """Activate the suite when ``--rttool-impl`` is given."""
    if config.getoption("rttool_impl", default=None):
        from conformance._pytest import activate

        activate(config)
