"""One fresh run per published standing, shared by every slow test that reads one.

A run against an agent framework costs minutes (the whole suite and its hunt, through
the framework), so a test that needs to know what the suite says of a harness reads it
from the run ``tests/test_committed_standings.py`` makes anyway, rather than starting a
run of its own.  Under xdist a session is a worker's: the tests sharing a run are put in
one ``xdist_group`` (:func:`group`), which ``make slow`` (``--dist loadgroup``) sends to
one worker.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.publish import COMMITTED, Checkout, Committed, make_standing
from tests._tiers import slow_only

__all__ = ["CHECKOUT", "FreshStanding", "group", "make_fresh_standings"]

CHECKOUT = Checkout(Path(__file__).resolve().parents[1])


@dataclass(frozen=True)
class FreshStanding:
    """A finished ``rttool run`` made as the committed standing is, and its reports."""

    done: subprocess.CompletedProcess[str]
    folder: Path


def group(name: str) -> pytest.MarkDecorator:
    """The xdist group of the tests that read the fresh standing of ``name``."""
    return pytest.mark.xdist_group(f"standing-{name}")


def make_fresh_standings(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], FreshStanding]:
    """A function giving the fresh standing of a published implementation by name, made
    on first use in this session (skipping the test when its extra is not installed)."""
    made: dict[str, FreshStanding | Exception] = {}

    def fresh(name: str) -> FreshStanding:
        entry: Committed = next(e for e in COMMITTED if e.name == name)
        missing = entry.missing()
        if missing:
            pytest.skip(f"{name}: {', '.join(missing)} not installed ({entry.install})")
        if name not in made:
            slow_only(f"a whole-suite run against {name}")
            folder = tmp_path_factory.mktemp(f"standing-{name}")
            try:
                made[name] = FreshStanding(
                    make_standing(entry, CHECKOUT, folder, quiet=True), folder
                )
            except Exception as err:  # a run that timed out fails every test reading it
                made[name] = err
        found = made[name]
        if isinstance(found, Exception):
            raise found
        return found

    return fresh
