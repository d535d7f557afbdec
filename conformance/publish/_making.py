"""How every published standing is made: one way, here only.

A derandomized hunt (``CI=true``: one batch of examples, however loaded the machine)
and ``rttool run --reproducible`` (no start time or durations in the two committed
files), so that a run changes them only when a standing changes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conformance.publish._checkout import Checkout
from conformance.publish._entries import Committed
from conformance.reproducible import HASH_SEED_VALUE, HASH_SEED_VARIABLE

__all__ = ["EVIDENCE", "RUN_TIMEOUT", "make_standing"]

#: Folders of evidence in a report directory: committed with the standing that links them.
EVIDENCE = ("evidence", "counterexamples")
#: The longest one run may take, in seconds (the slowest harness takes a few minutes).
RUN_TIMEOUT = 900


@contextmanager
def _workdir(entry: Committed, checkout: Checkout) -> Iterator[Path]:
    if entry.prepare is None:
        yield checkout.root
        return
    with tempfile.TemporaryDirectory(prefix=f"rttool-{entry.name}-") as scratch:
        entry.prepare(Path(scratch), checkout)
        yield Path(scratch)


def make_standing(
    entry: Committed, checkout: Checkout, report_dir: Path, *, quiet: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run the suite against ``entry`` exactly as its committed standing is made,
    writing the reports into ``report_dir``; returns the finished ``rttool run``.

    Evidence an earlier run left is removed first: what is committed is exactly what
    this run's standing points to.  ``quiet`` captures the run's output instead of
    letting it through."""
    for kind in EVIDENCE:
        shutil.rmtree(report_dir / kind, ignore_errors=True)
    command = [sys.executable, "-m", "conformance.cli", "run", "--impl", entry.impl]
    command += ["--report-dir", str(report_dir.resolve()), "--reproducible"]
    if quiet:
        command.append("-q")
    # every committed standing is made under the one hash seed rttool sets (a seed of the
    # caller's own would shrink the hunt's findings to other counterexamples)
    env = {**os.environ, "CI": "true", HASH_SEED_VARIABLE: HASH_SEED_VALUE}
    with _workdir(entry, checkout) as cwd:
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            text=True,
            capture_output=quiet,
            timeout=RUN_TIMEOUT,
            check=False,
        )
