"""Harnesses whose durable-resume checks pass without reaching what the clause speaks of.

``python:tests.conformance.unreached_dr:create?mode=MODE``: the reference runtime's
harness, declaring less than it can do, as MODE says (the suite then sends it no
scenario that needs what it left out):

* ``time-limit-only``: the only interruption it can cause is the run time limit
  (DR-2 ¶1 speaks of a gateway timeout and a transport error too; DR-5 ¶5 of an error,
  a stop, a cancellation, a credential and a rate-limit failure);
* ``no-cut-after-the-body``: it cannot cut a run after a tool's body ran and before its
  result is recorded (DR-4 ¶1 speaks of a call whose side effect landed but whose result
  was never recorded).
"""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.harness import create as reference

#: The capabilities each mode narrows, and what it leaves of them.
NARROWED: Mapping[str, tuple[str, object]] = {
    "time-limit-only": ("interrupt_causes", ["time_limit"]),
    "no-cut-after-the-body": ("interrupt_points", None),
}


class UnreachedDurable:
    """The reference harness, narrowed as ``mode`` says."""

    def __init__(self, mode: str) -> None:
        if mode not in NARROWED:
            raise ValueError(f"unknown mode {mode!r}")
        self._inner = reference()
        self._mode = mode

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        reply = dict(self._inner.request(message))
        if message.get("cmd") == "hello":
            capabilities = reply["capabilities"]
            assert isinstance(capabilities, Mapping)
            name, left = NARROWED[self._mode]
            if left is None:
                listed = capabilities[name]
                assert isinstance(listed, list)
                left = [point for point in listed if point != "after_tool_body"]
            reply["capabilities"] = {**capabilities, name: left}
        return reply


def create(mode: str) -> UnreachedDurable:
    """``python:tests.conformance.unreached_dr:create?mode=MODE``."""
    return UnreachedDurable(mode)
