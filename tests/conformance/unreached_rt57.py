"""Harnesses whose RT-TOOL-5 … RT-TOOL-7 checks pass without reaching what a clause
speaks of.

``python:tests.conformance.unreached_rt57:create?mode=MODE``: the reference runtime's
harness, with one capability withdrawn from its handshake, so the cases that need it are
untested and the clause's other cases still pass:

* ``no-interrupts``: no run can be cut or made to fail (no interrupt points): RT-TOOL-5 ¶4
  speaks of a run that returns, pauses *or fails*;
* ``no-late-artifacts``: nothing can arrive out of band: RT-TOOL-5 ¶3 speaks of an
  artifact arriving after release;
* ``no-unencodable``: no payload that does not encode can be produced: RT-TOOL-6 ¶3 speaks
  of one;
* ``no-restart``: the runtime cannot be restarted: RT-TOOL-7 ¶1 holds artifacts durably.
"""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.harness import create as reference

#: What each mode withdraws from the handshake's capabilities.
WITHDRAWN: dict[str, dict[str, object]] = {
    "no-interrupts": {"interrupt_points": [], "interrupt_causes": []},
    "no-late-artifacts": {"late_artifacts": False},
    "no-unencodable": {"unencodable_payloads": False},
    "no-restart": {"restart": False},
}


class Unreached:
    """The reference harness, without the capability ``mode`` withdraws."""

    def __init__(self, mode: str) -> None:
        if mode not in WITHDRAWN:
            raise ValueError(f"unknown mode {mode!r}")
        self._inner = reference()
        self._withdrawn = WITHDRAWN[mode]

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        reply = dict(self._inner.request(message))
        if message.get("cmd") == "hello":
            capabilities = reply["capabilities"]
            assert isinstance(capabilities, Mapping)
            reply["capabilities"] = {**capabilities, **self._withdrawn}
        return reply


def create(mode: str) -> Unreached:
    """``python:tests.conformance.unreached_rt57:create?mode=MODE``."""
    return Unreached(mode)
