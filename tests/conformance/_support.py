"""Shared helpers for the suite's own tests."""

from __future__ import annotations

import functools

from adapters import Driver, connect

REFERENCE = "python:reference_impl.harness:create"


@functools.cache
def reference_driver() -> Driver:
    """One in-process driver for the reference runtime, shared by a test process."""
    return Driver(connect(REFERENCE))


def mutant_driver(name: str) -> Driver:
    """A driver for a named mutant of the reference runtime."""
    return Driver(connect(f"{REFERENCE}?mutant={name}"))
