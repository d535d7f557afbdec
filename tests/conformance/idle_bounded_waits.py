"""A harness whose bounded wait does nothing.

``python:tests.conformance.idle_bounded_waits:create``: the reference runtime's harness,
except that a wait for at most N automatic continuations (a ``wait`` step with
``rounds``) makes none; an unbounded wait still lets every turn continue.  A case that
reaches the state it judges only through such waits (a turn cut three times, a reload
between continuations) must then report itself untested, never pass.
"""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.harness import create as reference


def _idle(step: object) -> object:
    if isinstance(step, Mapping) and step.get("op") == "wait" and step.get("rounds") is not None:
        return {**step, "rounds": 0}
    return step


class IdleBoundedWaits:
    """The reference harness, every bounded wait of a scenario made to wait for none."""

    def __init__(self) -> None:
        self._inner = reference()

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        scenario = message.get("scenario")
        if message.get("cmd") == "start" and isinstance(scenario, Mapping):
            steps = scenario.get("steps")
            if isinstance(steps, list):
                message = {**message, "scenario": {**scenario, "steps": [_idle(s) for s in steps]}}
        return self._inner.request(message)


def create() -> IdleBoundedWaits:
    """``python:tests.conformance.idle_bounded_waits:create``."""
    return IdleBoundedWaits()
