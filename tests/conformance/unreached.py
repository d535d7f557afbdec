"""Harnesses whose checks pass without reaching what the clause speaks of.

``python:tests.conformance.unreached:create?mode=MODE``: the reference runtime's
harness, narrowed as MODE says:

* ``ignores-exposure``: the author's exposure choices are not applied (the harness
  declares no ``port_exposure``): every tool runs the same way, exposed or not
  (RT-TOOL-2 ¶2 speaks of both);
* ``no-turn-api``: the runtime has no turn API and renders nothing of its own: the
  harness assembles the wire itself and names no turn by the runtime's own id
  (RT-TOOL-4 ¶2 speaks of the turn API's list, RT-TOOL-6 ¶6 of payloads on output).
"""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.harness import create as reference


class Unreached:
    """The reference harness, narrowed as ``mode`` says."""

    def __init__(self, mode: str) -> None:
        if mode not in ("ignores-exposure", "no-turn-api"):
            raise ValueError(f"unknown mode {mode!r}")
        self._inner = reference()
        self._mode = mode

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        reply = dict(self._inner.request(message))
        if message.get("cmd") == "hello" and self._mode == "ignores-exposure":
            capabilities = reply["capabilities"]
            assert isinstance(capabilities, Mapping)
            reply["capabilities"] = {**capabilities, "port_exposure": False}
        if message.get("cmd") == "step" and self._mode == "no-turn-api":
            reply.pop("ids", None)
        return reply


def create(mode: str) -> Unreached:
    """``python:tests.conformance.unreached:create?mode=MODE``."""
    return Unreached(mode)
