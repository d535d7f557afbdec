"""What a trace says a resumed run is owed, worked out from the trace itself: a call that
returned in an earlier run of the turn is completed; a call whose run was cut before its
body returned (``before_tool_body``, ``after_tool_body``) is interrupted.  The hunt's
invariants of DR-1 … DR-4 share these walkers."""

from __future__ import annotations

import json
from collections.abc import Collection

from adapters.trace import RunRecord
from conformance.toolkit._json import mapping
from conformance.toolkit._passes import paired, well_formed

__all__ = ["call_signature", "completed_calls", "interrupted_calls", "unreported_calls"]


def call_signature(name: str, arguments: object) -> str:
    """A call as one comparable string: its tool name and its arguments as JSON."""
    return name + "\x00" + json.dumps(arguments, sort_keys=True, default=str)


def interrupted_calls(
    run: RunRecord, wired: Collection[str] | None = None
) -> list[tuple[str, object]]:
    """The calls ``run`` was cut in the middle of: its cut pass's first well-formed call
    with no result, when the cut came before that call's body returned; with ``wired``
    (the names of the scenario's tools), its first such call of a wired tool.

    A result is matched to its call by :func:`paired` (by identifier), never by its place
    among the results: a runtime may answer a batch's unknown tools before any body runs
    (the Vercel AI SDK does), or answer a call dropped as malformed (RT-TOOL-10 ¶4's gap),
    and neither result belongs to the well-formed call at its place.  An unknown tool
    never runs, so it is neither completed nor interrupted, answered or not."""
    point = mapping(run.interruption).get("point")
    if run.end not in ("interrupted", "crashed") or point not in (
        "before_tool_body",
        "after_tool_body",
    ):
        return []
    cut = [one for one in run.passes if one.cut] or list(run.passes[-1:])
    if not cut:
        return []
    answered = {id(call) for _, call in paired(cut[-1])}
    waiting = [
        call
        for call in well_formed(cut[-1].batch)
        if id(call) not in answered and (wired is None or str(call.get("name")) in wired)
    ]
    return [(str(waiting[0].get("name")), waiting[0].get("args"))] if waiting else []


def completed_calls(run: RunRecord) -> list[tuple[str, object]]:
    """The calls that returned in ``run``, as ``(tool, arguments)``."""
    out: list[tuple[str, object]] = []
    for one in run.passes:
        for result, call in paired(one):
            if result.disposition == "executed":
                arguments = result.arguments if result.arguments is not None else call.get("args")
                out.append((str(result.tool), arguments))
    return out


def unreported_calls(run: RunRecord) -> list[tuple[str, object]]:
    """The calls whose bodies a failed run ran and never reported a result for, as
    ``(tool, arguments)``: a run that fails after a body returned (a runtime refusing the
    output of a call without an identifier fails the run there) leaves nothing in the trace
    to say whether the call returned, and its ``tool_done`` may be in the ledger, rightly
    ("once it has returned", DR-1 ¶1).  Such a call may be completed, or not."""
    if run.end != "failed":
        return []
    reported: dict[str, int] = {}
    for name, _ in completed_calls(run):
        reported[name] = reported.get(name, 0) + 1
    out: list[tuple[str, object]] = []
    for effect in run.side_effects:
        body = mapping(effect)
        name = str(body.get("tool"))
        if reported.get(name, 0) > 0:
            reported[name] -= 1
        else:
            out.append((name, body.get("input")))
    return out
