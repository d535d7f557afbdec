"""Small helpers the check modules share."""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from adapters.codec import to_json
from adapters.scenario import Bounds, Reply, StartTurn, Step, Tool
from adapters.trace import PassRecord, ToolResultRecord, Trace, TurnWire
from conformance.checks._context import CheckContext
from conformance.checks._outcomes import Untested
from conformance.scenarios import scenario
from conformance.traces import delivered, locate, pointers, results, side_effects

__all__ = [
    "first_missing",
    "json_keys",
    "listing",
    "mapping",
    "misplaced",
    "one_result",
    "one_turn",
    "port",
    "ports",
    "reconciled_arguments",
    "show",
    "whereabouts",
]

#: How many characters of a value a failure message shows.
SHOWN = 200
#: How many JSON pointers a failure message lists.
POINTERS = 3
#: Characters escaped in a message although JSON leaves them raw: line and paragraph
#: separators, bidi and other format controls, C1 controls, lone surrogates.  They would
#: break the message's single line, or disguise what it says, wherever it is shown.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def one_turn(
    ctx: CheckContext,
    name: str,
    *,
    tools: Iterable[Tool],
    model: Iterable[Reply],
    steps: Sequence[Step] | None = None,
    expose: Mapping[str, bool] | None = None,
    bounds: Bounds | None = None,
) -> Trace:
    """Run a scenario that, by default, starts one turn ``t1``."""
    return ctx.run(
        scenario(
            name,
            tools=tools,
            model=model,
            expose=expose,
            bounds=bounds,
            steps=steps if steps is not None else [StartTurn("t1")],
        )
    )


def mapping(value: object) -> Mapping[str, object]:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def json_keys(value: object) -> list[str]:
    """The keys of a JSON object, in order (empty for anything else)."""
    return list(value) if isinstance(value, Mapping) else []


def ports(one: PassRecord) -> Mapping[str, object]:
    """A pass's port values."""
    return mapping(one.ports)


def port(one: PassRecord, name: str) -> object:
    """One port's value (``None`` when the implementation did not report it)."""
    return ports(one).get(name)


def one_result(ctx: CheckContext, trace: Trace, tool_call_id: str) -> ToolResultRecord:
    """The first tool result for ``tool_call_id``; fails the check when there is none."""
    found = results(trace, tool_call_id)
    if not found:
        ctx.fail(f"no tool result was reported for call {tool_call_id}")
    return found[0]


def reconciled_arguments(
    ctx: CheckContext, trace: Trace, call_id: str, tool: str, *, body: bool = False
) -> object:
    """What call ``call_id``'s arguments became (RT-TOOL-8): what the tool body received
    when it ran, else the result's reported ``arguments`` (the body does not run when the
    reconciled arguments fail the tool's schema).  With ``body``, the body must have run."""
    effects = side_effects(trace, tool)
    ctx.need(len(effects) <= 1, f"the tool body ran {len(effects)} times, expected once")
    if effects:
        return effects[0].get("input")
    if body:
        ctx.fail("the tool body did not run: were the arguments refused?")
    found = results(trace, call_id)
    if found and found[0].arguments is not None:
        return found[0].arguments
    raise Untested(
        "the tool body did not run (its arguments failed its schema) and the "
        "harness does not report results' reconciled `arguments`"
    )


def _visible(text: str) -> str:
    """``text`` with every hidden character written as a ``\\uXXXX`` escape."""
    return "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char) in _HIDDEN else char for char in text
    )


def show(value: object, limit: int = SHOWN) -> str:
    """``value`` as one line of JSON for a failure message.

    Vendors read these messages whatever language their implementation is written in, so
    values are JSON (``null``, ``true``, double quotes), never Python's repr; keys are
    sorted so that two renderings compare by eye; non-ASCII text stays readable; the
    result is cut to ``limit`` characters, ending in ``…`` when cut.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = to_json(value)
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # keys of mixed types cannot be sorted
        text = json.dumps(value, ensure_ascii=False, default=str)
    cut = len(text) > limit
    return _visible(text[: limit - 1] if cut else text) + ("…" if cut else "")


def whereabouts(wire: TurnWire | None, needle: object) -> str:
    """Where ``needle`` really is on the turn's wire form, as the end of a sentence whose
    subject is the artifact: ``was found at /messages/1/metadata/toolArtifacts/0`` (see
    :func:`conformance.traces.locate`), or ``appears nowhere in the turn's wire form``."""
    found = locate(wire, needle)
    return f"was found at {listing(found)}" if found else "appears nowhere in the turn's wire form"


def listing(found: Sequence[str]) -> str:
    """JSON pointers for a failure message: the first few, then how many more.  A pointer
    is built from an implementation's keys, so it is shortened and its hidden characters
    escaped like any other value it sent."""
    listed = ", ".join(_visible(pointer[:SHOWN]) for pointer in found[:POINTERS])
    more = f" and {len(found) - POINTERS} more" if len(found) > POINTERS else ""
    return listed + more


def misplaced(wire: TurnWire | None, expected: Iterable[object]) -> str:
    """For a failure message about entries a turn should deliver: ``""`` when each of
    ``expected`` (entries, payloads or strings) is carried by some message's
    ``toolArtifacts``, else ``"; the first missing one, {...}, was found at ..."``."""
    missing = first_missing(wire, expected)
    if missing is None:
        return ""
    return f"; the first missing one, {show(missing, 120)}, {whereabouts(wire, missing)}"


def first_missing(wire: TurnWire | None, expected: Iterable[object]) -> object | None:
    """The first of ``expected`` (entries, payloads or strings) that no message's
    ``toolArtifacts`` carries, else ``None``."""
    carried = delivered(wire)
    return next((entry for entry in expected if not pointers(carried, entry)), None)
