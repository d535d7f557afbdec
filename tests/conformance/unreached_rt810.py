"""Harnesses whose framework never lets the runtime's tool node meet what a clause of
RT-TOOL-9 or RT-TOOL-10 speaks of, while its checks still pass.

``python:tests.conformance.unreached_rt810:create?mode=MODE``: the reference runtime's
harness, with a model seam that rewrites the scripted replies as MODE says before the
runtime sees them:

* ``drops-repeats``: a call whose identifier an earlier reply of the same turn already
  carried is left out (a framework that sends its tool node only the calls its history
  has not answered): the node never meets a call it recorded (RT-TOOL-9 ¶1 speaks of one);
* ``drops-malformed``: a call that is not a map, or whose name is blank or not a scalar,
  is left out (a framework whose typed call cannot hold one): the node never meets a
  malformed call (RT-TOOL-10 ¶4 speaks of three kinds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from reference_impl.harness import create as reference

Call = object


def _well_formed(call: Call) -> bool:
    name = call.get("name") if isinstance(call, Mapping) else None
    return (
        isinstance(name, str | int | float)
        and not isinstance(name, bool)
        and bool(str(name).strip())
    )


def _drop_repeats(replies: list[object]) -> list[object]:
    """Each reply without the calls whose identifier an earlier reply of its turn carried
    (a final answer, a reply with neither calls nor a question, ends the turn)."""
    seen: set[object] = set()
    out: list[object] = []
    for reply in replies:
        if not isinstance(reply, Mapping):
            out.append(reply)
            continue
        calls = reply.get("tool_calls")
        if isinstance(calls, list):
            kept = [
                call
                for call in calls
                if not isinstance(call, Mapping) or call.get("tool_call_id") not in seen
            ]
            seen.update(c.get("tool_call_id") for c in calls if isinstance(c, Mapping))
            seen.discard(None)
            out.append({**reply, "tool_calls": kept})
            continue
        if reply.get("question") is None:
            seen.clear()
        out.append(reply)
    return out


def _drop_malformed(replies: list[object]) -> list[object]:
    """Each reply without its malformed calls."""
    return [
        {**reply, "tool_calls": [c for c in reply["tool_calls"] if _well_formed(c)]}
        if isinstance(reply, Mapping) and isinstance(reply.get("tool_calls"), list)
        else reply
        for reply in replies
    ]


MODES: dict[str, Callable[[list[object]], list[object]]] = {
    "drops-repeats": _drop_repeats,
    "drops-malformed": _drop_malformed,
}


class Unreached:
    """The reference harness, its model's replies rewritten as ``mode`` says."""

    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self._inner = reference()
        self._rewrite = MODES[mode]

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        scenario = message.get("scenario")
        if message.get("cmd") == "start" and isinstance(scenario, Mapping):
            replies = scenario.get("model")
            if isinstance(replies, list):
                scenario = {**scenario, "model": self._rewrite(replies)}
                message = {**message, "scenario": scenario}
        return self._inner.request(message)


def create(mode: str) -> Unreached:
    """``python:tests.conformance.unreached_rt810:create?mode=MODE``."""
    return Unreached(mode)
