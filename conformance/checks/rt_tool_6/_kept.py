"""RT-TOOL-6 ¶1 and ¶2: what a run must keep.  The rule's overview
(:mod:`conformance.checks.rt_tool_6`) lists what the checks vary."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import Answer, Bounds, Reply, StartTurn, Step
from adapters.trace import Trace
from conformance.checks.rt_tool_6._sizes import largest_size, sized_payload
from conformance.toolkit import (
    DELIVERY,
    CheckContext,
    Untested,
    artifact,
    ask,
    call,
    calls,
    check,
    collects,
    delivered,
    listing,
    located_warnings,
    misplaced,
    one_turn,
    output,
    say,
    show,
    tool,
    turn,
    warnings_text,
    wire_pointer,
)

TOOL = "emit_artifacts"
PAYLOAD_FLOOR = 512_000
RUN_ARTIFACT_FLOOR = 50
RUN_BYTES_FLOOR = 2_000_000
#: Beyond this many artifacts per run, the default-bounds variant of ¶1 is not played.
DEFAULT_RUN_BOUND_CAP = 1_000


def blob(size: int, tag: str) -> dict[str, object]:
    """A payload whose largest encoding is exactly ``size`` bytes (every reading measures
    it at ``size`` bytes or less)."""
    return sized_payload(size, tag)


def _entries(count: int, prefix: str) -> list[dict[str, object]]:
    return [artifact("citation", {"ref": f"{prefix}-{i}"}) for i in range(count)]


def _runs_of(
    ctx: CheckContext, name: str, per_run: list[list[dict[str, object]]], bounds: Bounds | None
) -> Trace:
    """One turn whose runs each collect one list of ``per_run``, pausing between them."""
    model: list[Reply] = []
    for index in range(len(per_run)):
        model += [calls(call(TOOL, {}, f"c{index + 1}")), ask(f"Question {index + 1}?")]
    model[-1] = say("done")
    steps: list[Step] = [StartTurn("t1"), *(Answer("t1") for _ in per_run[1:])]
    returns = [output({"ok": True}, *entries) for entries in per_run]
    return one_turn(
        ctx, name, bounds=bounds, tools=[tool(TOOL, *returns)], model=model, steps=steps
    )


def _with_id(entries: list[dict[str, object]], call_id: str) -> list[dict[str, object]]:
    return [{**entry, "tool_call_id": call_id} for entry in entries]


@dataclass(frozen=True)
class Recheck:
    """Runs of one turn, each collecting up to its ``bound`` ("count" or "bytes")."""

    bound: str = "count"
    runs: int = 2
    default_bounds: bool = False


RECHECKS = {
    "count": Recheck(),
    "count-default-bounds": Recheck(default_bounds=True),
    "bytes": Recheck(bound="bytes"),
    "three-runs": Recheck(runs=3),
}


def _recheck_plan(
    ctx: CheckContext, variant: Recheck
) -> tuple[Bounds | None, list[list[dict[str, object]]], str]:
    limits = ctx.handshake.limits
    if variant.bound == "bytes":
        # Each run's two payloads fit 600 bytes in every encoding; two runs exceed it in all.
        per_run = [
            [artifact("blob", blob(290, f"r{run}a")), artifact("blob", blob(290, f"r{run}b"))]
            for run in range(variant.runs)
        ]
        return Bounds(run_bytes=600, payload_bytes=600, held_artifacts=16), per_run, "600 bytes"
    if not variant.default_bounds:
        bounds = Bounds(run_artifacts=3, held_artifacts=16)
        return bounds, [_entries(3, f"r{run}") for run in range(variant.runs)], "3 artifacts"
    default = limits.run_artifacts
    held = limits.held_artifacts
    if default is None or default > DEFAULT_RUN_BOUND_CAP:
        raise Untested(
            f"the declared run bound ({show(default)}) is not at most {DEFAULT_RUN_BOUND_CAP}"
        )
    if held is not None and held < default * (variant.runs - 1):
        raise Untested(f"the declared held bound ({held}) is under what the first runs collect")
    return (
        None,
        [_entries(default, f"r{run}") for run in range(variant.runs)],
        f"{default} artifacts",
    )


RUN_BOUNDS = ("run_artifacts", "run_bytes")


@check("RT-TOOL-6#c1", through=DELIVERY)
def check_run_collection_is_bounded(ctx: CheckContext) -> None:
    """An implementation bounds the artifacts one run may collect: one that states it has
    no run bound breaks the clause; one that states a bound keeps no more than it."""
    collects(ctx)
    limits = ctx.handshake.limits
    if all(name in limits.unbounded for name in RUN_BOUNDS):
        ctx.fail(
            "the handshake states that the implementation bounds neither the artifacts nor "
            "the payload bytes one run collects (limits.unbounded lists run_artifacts and "
            "run_bytes); RT-TOOL-6 ¶1: an implementation bounds the artifacts one run may "
            "collect"
        )
    bound = limits.run_artifacts
    if bound is None:
        stated = [name for name in RUN_BOUNDS if limits.stated(name)]
        raise Untested(
            "the handshake does not state its run bound (limits.run_artifacts), nor that it "
            "has none"
            if not stated
            else f"the run bound is stated as {listing(stated)} only, not as a count"
        )
    if bound > DEFAULT_RUN_BOUND_CAP:
        raise Untested(f"the declared run bound ({bound}) is over {DEFAULT_RUN_BOUND_CAP}")
    entries = _entries(bound + 1, "over")
    trace = one_turn(
        ctx,
        "rt6-c1-bounded",
        tools=[tool(TOOL, output({"ok": True}, *entries))],
        model=[calls(call(TOOL, {}, "c1")), say("done")],
    )
    on_wire = delivered(turn(trace, "t1"))
    ctx.expect(
        len(on_wire) <= bound,
        f"one run collected {bound + 1} artifacts, over its declared bound of {bound}, and "
        f"the turn delivered {len(on_wire)} of them; RT-TOOL-6 ¶1: an implementation "
        "bounds the artifacts one run may collect",
        at=wire_pointer(trace),
    )


@check(
    "RT-TOOL-6#c1",
    variants=RECHECKS,
    through=DELIVERY,
)
def check_nothing_downstream_rechecks(ctx: CheckContext, variant: Recheck) -> None:
    """What each run collected within its bound is delivered in full, even when the list
    the last run delivers (what was held, then its own) exceeds what one run may collect."""
    collects(ctx)
    bounds, per_run, bound = _recheck_plan(ctx, variant)
    trace = _runs_of(ctx, f"rt6-c1-{variant.bound}-{variant.runs}", per_run, bounds)
    expected = [e for i, entries in enumerate(per_run) for e in _with_id(entries, f"c{i + 1}")]
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    missing = [entry for entry in expected if entry not in on_wire]
    ctx.expect(
        not missing,
        f"{variant.runs} runs each collected within the run bound of {bound} "
        f"({len(expected)} artifacts in all); the turn's messages delivered {len(on_wire)}, "
        f"without {len(missing)} of them{misplaced(wire, missing[:1])}; RT-TOOL-6 ¶1: "
        "nothing downstream re-checks what one run collected",
        at=wire_pointer(trace),
        reading="payload-size" if variant.bound == "bytes" else None,
    )


def _non_ascii_blob(size: int, tag: str) -> dict[str, object]:
    """A payload of ``size`` bytes in its largest encoding, mixing two-, three- and
    four-byte characters into ASCII."""
    return sized_payload(size, tag, unit="é" * 1_500 + "调" * 1_000 + "😀" * 100, units=1)


def _floor(name: str) -> list[dict[str, object]]:
    if name == "payload":
        return [artifact("blob", blob(PAYLOAD_FLOOR, "big"))]
    if name == "payload-non-ascii":
        return [artifact("blob", _non_ascii_blob(PAYLOAD_FLOOR, "gross"))]
    if name == "count":
        return _entries(RUN_ARTIFACT_FLOOR, "n")
    return [artifact("blob", blob(RUN_BYTES_FLOOR // 4, f"part{i}")) for i in range(4)]


@check(
    "RT-TOOL-6#c2",
    variants={n: n for n in ("payload", "payload-non-ascii", "count", "aggregate")},
    through=DELIVERY,
)
def check_floors_accepted(ctx: CheckContext, variant: str) -> None:
    """With its default bounds, a run keeps a payload of 512 KB, 50 artifacts, and 2 MB
    in aggregate, whichever way those units and the encoding are read."""
    collects(ctx)
    entries = _floor(variant)
    trace = one_turn(
        ctx,
        f"rt6-c2-{variant}",
        tools=[tool(TOOL, output({"ok": True}, *entries))],
        model=[calls(call(TOOL, {}, "c1")), say("done")],
    )
    expected = _with_id(entries, "c1")
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    missing = [entry for entry in expected if entry not in on_wire]
    ctx.expect(
        not missing,
        f"floor {show(variant)}: {len(expected)} artifact(s), "
        f"{sum(largest_size(e['payload']) for e in entries)} bytes of payload in the largest "
        "encoding (within the floors under every reading), were produced; "
        f"{len(expected) - len(missing)} of them were delivered in the "
        f"messages' toolArtifacts{misplaced(wire, missing[:1])}; warnings raised: "
        f"{warnings_text(located_warnings(trace))}; RT-TOOL-6 ¶2 accepts a payload of 512 KB, "
        "50 artifacts and 2 MB in a run",
        at=wire_pointer(trace),
        reading="payload-size",
    )
