"""The guide's toy harness, bent in the ways a first harness often is.

``python:tests.doctor.bent:create?source=PATH&bend=NAME``; one bend at a time:

* ``args-error``: a step of a scenario whose call sends ``"args": []`` is answered with
  an error, as a harness calling ``args.items()`` would;
* ``args-drop``: such calls are dropped as malformed before the runtime sees them;
* ``claims-held``: the handshake offers ``held_observation``, the records never say;
* ``off-by-one``: every step record names the next step's index;
* ``typos``: the handshake offers ``restartt`` and an interrupt point ``before_tool``;
* ``gates-unsupported``: the handshake offers ``gates``, ``start`` refuses them;
* ``runtime-ids``: runs name turns by the runtime's own ids, not the scenario's labels.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tests.adapters.toy import load_toy


def _empty_list_call(call: object) -> bool:
    return isinstance(call, dict) and call.get("args") == []


class Bent:
    """Answers like the toy, but for the one bend asked for."""

    def __init__(self, inner: Any, bend: str) -> None:
        self.inner = inner
        self.bend = bend
        self.with_empty_args: set[str] = set()

    def request(self, message: Mapping[str, Any]) -> Mapping[str, Any]:
        cmd = message.get("cmd")
        message = copy.deepcopy(dict(message))
        if cmd == "start":
            scenario = message["scenario"]
            empty = any(
                _empty_list_call(call)
                for reply in scenario.get("model", [])
                for call in reply.get("tool_calls") or []
            )
            if self.bend == "gates-unsupported" and any(t["gate"] for t in scenario["tools"]):
                return {"unsupported": {"capability": "gates", "message": "no gates here"}}
            if self.bend == "args-drop":
                for reply in scenario.get("model", []):
                    if reply.get("tool_calls"):
                        reply["tool_calls"] = [
                            c for c in reply["tool_calls"] if not _empty_list_call(c)
                        ]
        reply: dict[str, Any] = copy.deepcopy(dict(self.inner.request(message)))
        if cmd == "start" and "session" in reply and empty:
            self.with_empty_args.add(reply["session"])
        if cmd == "hello":
            caps = reply["capabilities"]
            if self.bend == "claims-held":
                caps["held_observation"] = True
            if self.bend == "typos":
                caps["restartt"] = True
                caps["interrupt_points"] = ["before_tool"]
            if self.bend == "gates-unsupported":
                caps["gates"] = True
        if cmd == "step":
            if self.bend == "args-error" and message["session"] in self.with_empty_args:
                return {
                    "error": {"message": "AttributeError: 'list' object has no attribute 'items'"}
                }
            if self.bend == "off-by-one":
                reply["index"] += 1
            if self.bend == "runtime-ids":
                for run in reply["runs"]:
                    run["turn"] = "turn-7f3a"
            if self.bend == "own-status-word":  # a word of its own, declared nowhere
                for turns in reply["wire"].values():
                    for turn in turns.values():
                        if turn.get("status") == "completed":
                            turn["status"] = "done"
        return reply


def create(source: str, bend: str) -> Bent:
    """``python:tests.doctor.bent:create?source=PATH&bend=NAME``."""
    return Bent(load_toy(source).ToyHarness(), bend)
