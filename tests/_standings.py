"""One fresh run per published standing, shared by every slow test that reads one.

A run against an agent framework costs minutes (the whole suite and its hunt, through
the framework), so a test that needs to know what the suite says of a harness reads it
from the run ``tests/test_committed_standings.py`` makes anyway, rather than starting a
run of its own.  Under xdist a session is a worker's: the tests sharing a run are put in
one ``xdist_group`` (:func:`group`), which ``make slow`` (``--dist loadgroup``) sends to
one worker.  Should the scheduler split a group (a pytest-xdist that loses its groups
does so silently), the second worker to make the same standing fails its tests instead
of quietly making the run again: :func:`claim_run`.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.publish import COMMITTED, Checkout, Committed, make_standing
from tests._tiers import slow_only

__all__ = ["CHECKOUT", "FreshStanding", "claim_run", "group", "make_fresh_standings"]

CHECKOUT = Checkout(Path(__file__).resolve().parents[1])


@dataclass(frozen=True)
class FreshStanding:
    """A finished ``rttool run`` made as the committed standing is, and its reports."""

    done: subprocess.CompletedProcess[str]
    folder: Path


def group(name: str) -> pytest.MarkDecorator:
    """The xdist group of the tests that read the fresh standing of ``name``."""
    return pytest.mark.xdist_group(f"standing-{name}")


def claim_run(shared: Path, name: str, worker: str) -> None:
    """Claim, for ``worker``, the one fresh run of ``name`` in the session whose workers
    share ``shared``; raise if another worker of that session made it already."""
    marker = shared / f"fresh-standing-{name}.worker"
    try:
        with marker.open("x", encoding="utf-8") as claimed:
            claimed.write(worker)
    except FileExistsError:
        other = marker.read_text(encoding="utf-8")
        raise RuntimeError(
            f"the fresh standing of {name} was already made by worker {other}: its tests "
            f"were split across workers, so the run would be made twice (run the slow "
            f"tier with --dist loadgroup, on a pytest-xdist that keeps its groups)"
        ) from None


def make_fresh_standings(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], FreshStanding]:
    """A function giving the fresh standing of a published implementation by name, made
    on first use in this session (skipping the test when its extra is not installed)."""
    made: dict[str, FreshStanding | Exception] = {}

    def fresh(name: str) -> FreshStanding:
        entry: Committed = next(e for e in COMMITTED if e.name == name)
        missing = entry.missing(CHECKOUT)
        if missing:
            pytest.skip(f"{name}: {', '.join(missing)} not installed ({entry.install})")
        if name not in made:
            slow_only(f"a whole-suite run against {name}")
            worker = os.environ.get("PYTEST_XDIST_WORKER")
            if worker is not None:  # the workers of one session share the parent folder
                claim_run(tmp_path_factory.getbasetemp().parent, name, worker)
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
