"""An in-process harness that breaks the suite's assumptions, one way per mode.

``python:tests.conformance.hostile:create?mode=MODE``: the reference runtime's harness,
except that the first step of every scenario goes wrong as MODE says:

* ``surrogate``: every tool result becomes ``{"success": "\\ud800"}`` (the checks fail,
  and their evidence holds text UTF-8 cannot carry);
* ``deep``: the record carries a value nested far past the limit;
* ``system-exit``: the harness calls ``sys.exit(0)``;
* ``base-exception``: it raises a ``BaseException`` of its own;
* ``keyboard-interrupt``: it raises ``KeyboardInterrupt`` (the session is interrupted);
* ``control``: it raises an error whose message holds terminal control characters;
* ``control-value``: every tool result becomes ``{"success": CONTROL}`` (the checks
  fail, quoting it);
* ``control-unsupported``: every ``start`` is answered unsupported, naming CONTROL as
  the capability;
* ``healthy``: nothing goes wrong.

``mode=exit-in-factory`` makes the factory itself call ``sys.exit(0)``,
``mode=deep-handshake`` answers ``hello`` with a handshake nested 100,000 deep, and
``mode=long-name`` with an implementation whose version and homepage are a megabyte
each (its name as long as the protocol allows).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from reference_impl.harness import create as reference

#: Terminal control sequences: clear the screen, set the title, a C1 CSI, a bell.
CONTROL = "\x1b[2J\x1b]0;owned\x07 \x9b31m red"


class Abort(BaseException):
    """What a harness built on some other framework might raise to unwind."""


def _nested(depth: int) -> object:
    value: object = "bottom"
    for _ in range(depth):
        value = [value]
    return value


class Hostile:
    """The reference harness, misbehaving on the first step of each scenario."""

    def __init__(self, mode: str) -> None:
        self._inner = reference()
        self._mode = mode

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        if message.get("cmd") == "hello" and self._mode == "deep-handshake":
            return {"protocol": "rttool-adapter/1", "implementation": _nested(100_000)}
        if message.get("cmd") == "hello" and self._mode == "long-name":
            hello = dict(self._inner.request(message))
            long = "v" * 1_000_000
            hello["implementation"] = {"name": "n" * 100, "version": long, "homepage": long}
            return hello
        if message.get("cmd") == "start" and self._mode == "control-unsupported":
            return {"unsupported": {"capability": CONTROL, "message": CONTROL}}
        reply = dict(self._inner.request(message))
        if message.get("cmd") != "step" or message.get("index") != 0:
            return reply
        if self._mode == "system-exit":
            sys.exit(0)
        if self._mode == "base-exception":
            raise Abort("unwound by a framework")
        if self._mode == "keyboard-interrupt":
            raise KeyboardInterrupt
        if self._mode == "control":
            raise ValueError(CONTROL)
        if self._mode in ("surrogate", "control-value"):
            bad = "\ud800" if self._mode == "surrogate" else CONTROL
            for run in reply.get("runs", []):
                for done in run.get("passes", []):
                    for result in done.get("results", []):
                        result["result"] = {"success": bad}
        if self._mode == "deep":
            reply["poll"] = _nested(3000)
        return reply


def create(mode: str = "healthy") -> Hostile:
    """The hostile harness in ``mode``."""
    if mode == "exit-in-factory":
        sys.exit(0)
    return Hostile(mode)
