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
    """The ``--rttool-*`` options."""
    from conformance._arguments import example_db, positive_float, positive_int, shard

    group = parser.getgroup("rttool", "rttool conformance suite")
    group.addoption(
        "--rttool-impl",
        metavar="SPEC",
        default=None,
        help="run the conformance suite against this implementation "
        "(reference, python:MODULE:ATTR, http://HOST:PORT, stdio:COMMAND)",
    )
    group.addoption(
        "--rttool-only",
        metavar="RULE[#cN]",
        action="append",
        default=[],
        help="run only these rules or clauses (repeatable)",
    )
    group.addoption(
        "--rttool-first",
        metavar="RULE[#cN][/CASE]",
        action="append",
        default=[],
        help="run the cases of these rules, clauses or case ids first, in the order given "
        "(repeatable); the rest follow, the hunt last",
    )
    group.addoption(
        "--rttool-level",
        metavar="LEVEL",
        action="append",
        default=[],
        choices=("core", "extended", "optional"),
        help="run only rules of these levels (repeatable)",
    )
    group.addoption(
        "--rttool-mutant",
        metavar="NAME",
        default=None,
        help="with --rttool-impl reference: run a named mutant of it",
    )
    group.addoption(
        "--rttool-variant",
        metavar="NAME",
        default=None,
        help="with --rttool-impl reference: run a named legal variant of it",
    )
    group.addoption(
        "--rttool-report-dir",
        metavar="DIR",
        default=None,
        help="write standing.json and the evidence of failures here",
    )
    group.addoption(
        "--rttool-timeout",
        metavar="SECONDS",
        type=positive_float,
        default=30.0,
        help="per-request timeout for the implementation (default 30)",
    )
    group.addoption(
        "--rttool-examples",
        metavar="N",
        type=positive_int,
        default=None,
        help="the least number of examples the hunt generates (a floor, not a ceiling)",
    )
    group.addoption(
        "--rttool-hunt-seconds",
        metavar="S",
        type=positive_float,
        default=None,
        help="how long the property-based hunt searches (spent in full; one search shared "
        "by every invariant)",
    )
    group.addoption(
        "--rttool-seed",
        metavar="N",
        type=int,
        default=None,
        help="seed for the property-based hunt",
    )
    group.addoption(
        "--rttool-shard",
        metavar="K/N",
        type=shard,
        default=None,
        help="run only shard K of N: its share of the rules and of the hunt's examples "
        "(merge the shards' standings with rttool report merge)",
    )
    group.addoption(
        "--rttool-example-db",
        metavar="URL",
        type=example_db,
        default=None,
        help="the hunt's shared example database: dir:PATH, redis://HOST:PORT/DB or "
        "github-artifact:OWNER/REPO (read-only)",
    )
    group.addoption(
        "--rttool-no-hunt", action="store_true", default=False, help="skip the property-based hunt"
    )
    group.addoption(
        "--rttool-quiet", action="store_true", default=False, help="no line per rule as it finishes"
    )
    group.addoption(
        "--rttool-gate",
        metavar="LEVEL",
        action="append",
        default=[],
        choices=("core", "extended", "optional"),
        help="levels whose failures count against the implementation, as the report records "
        "them (default: the levels it claims)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Activate the suite when ``--rttool-impl`` is given."""
    if config.getoption("rttool_impl", default=None):
        from conformance._pytest import activate

        activate(config)
