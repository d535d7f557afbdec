"""Shared helpers for the suite's own tests."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

from adapters import Driver, connect

REFERENCE = "python:reference_impl.harness:create"


@functools.cache
def reference_driver() -> Driver:
    """One in-process driver for the reference runtime, shared by a test process."""
    return Driver(connect(REFERENCE))


def mutant_driver(name: str) -> Driver:
    """A driver for a named mutant of the reference runtime."""
    return Driver(connect(f"{REFERENCE}?mutant={name}"))


def rttool(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``rttool ARGS`` in a fresh interpreter, as a user runs it (output captured)."""
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
