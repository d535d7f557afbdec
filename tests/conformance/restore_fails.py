"""A harness whose framework cannot restore its own saved state, now and then.

``python:tests.conformance.restore_fails:create?after=N``: the reference runtime's
harness, except that every ``restart`` step after the first ``N`` it was asked for
raises (``N`` defaults to 0: every restart fails).  A search that generates restarts
judges some examples before the first one fails, as a real framework refusing to load
a checkpoint it wrote would let it.
"""

from __future__ import annotations

from collections.abc import Mapping

from reference_impl.harness import create as reference

#: What the framework says when it refuses its own state.
REFUSAL = "checkpoint refused: saved state does not match the graph"


class RestoreRefused(RuntimeError):
    """What the framework raises when it cannot load a checkpoint it wrote."""


class RestoreFails:
    """The reference harness, raising on restarts past the first ``after``."""

    def __init__(self, after: int) -> None:
        self._inner = reference()
        self._after = after
        self._restarts = 0
        self._ops: dict[str, list[str]] = {}

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        cmd = message.get("cmd")
        if cmd == "step":
            ops = self._ops.get(str(message.get("session")), [])
            index = message.get("index")
            if isinstance(index, int) and index < len(ops) and ops[index] == "restart":
                self._restarts += 1
                if self._restarts > self._after:
                    self._restore()
        reply = self._inner.request(message)
        if cmd == "start" and "session" in reply:
            scenario = message.get("scenario")
            steps = scenario.get("steps", []) if isinstance(scenario, Mapping) else []
            self._ops[str(reply["session"])] = [str(step.get("op")) for step in steps]
        return reply

    def _restore(self) -> None:
        raise RestoreRefused(REFUSAL)


def create(after: str = "0") -> RestoreFails:
    """``python:tests.conformance.restore_fails:create?after=N``."""
    return RestoreFails(int(after))
