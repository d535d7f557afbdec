"""Harnesses whose RT-TOOL-1..4 checks pass without reaching what the clause speaks of.

``python:tests.conformance.unreached_rt14:create?mode=MODE``: the reference runtime's
harness, narrowed as MODE says:

* ``ignores-node-exposure``: the harness declares ``port_exposure`` but drops the
  author's choices for the tool-invoking node (``node.expose``) before the runtime sees
  them, so ``tool_artifacts`` is never exposed (RT-TOOL-3 ¶4 speaks of delivery with the
  port exposed and not exposed);
* ``no-gates``: the harness offers no consent gate (it declares no ``gates``), so no
  call is ever declined (RT-TOOL-2 ¶5 speaks of a call that failed or was declined).

A runtime with no turn API (RT-TOOL-4 ¶3 speaks of the implementation's own wire) is
``tests.conformance.unreached``'s ``no-turn-api``.
"""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.harness import create as reference

MODES = ("ignores-node-exposure", "no-gates")


class UnreachedRt14:
    """The reference harness, narrowed as ``mode`` says."""

    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self._inner = reference()
        self._mode = mode

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        command = message.get("cmd")
        if command == "start" and self._mode == "ignores-node-exposure":
            scenario = message.get("scenario")
            if isinstance(scenario, Mapping):
                message = {**message, "scenario": {**scenario, "node": None}}
        reply = dict(self._inner.request(message))
        if command == "hello" and self._mode == "no-gates":
            capabilities = reply["capabilities"]
            assert isinstance(capabilities, Mapping)
            reply["capabilities"] = {**capabilities, "gates": False}
        return reply


def create(mode: str) -> UnreachedRt14:
    """``python:tests.conformance.unreached_rt14:create?mode=MODE``."""
    return UnreachedRt14(mode)
