"""RT-TOOL-1's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_1`)."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import Return
from adapters.trace import Trace
from conformance.checks.rt_tool_1._result_cases import (
    ANY,
    ATTACHING,
    DISJOINT,
    RESULT_KINDS,
    Disjoint,
    Expected,
    Results,
)
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    DATA_AS_PRODUCED,
    RESERVED_KEY_REMOVED,
    RESULTS_SHAPED,
    CheckContext,
    call,
    calls,
    check,
    entries,
    listing,
    located_results,
    mapping,
    one_turn,
    output,
    plural,
    pointers,
    same_json,
    say,
    show,
    shown_key,
    tool,
)

#: The keys of a plain tool result (RT-TOOL-1 ¶1).
BASE_KEYS = frozenset({"success", "data", "error"})
CLAUSE_1 = "RT-TOOL-1 ¶1: a tool result is exactly {success, data, error}"
CLAUSE_2 = (
    "RT-TOOL-1 ¶2: `artifacts` is present only when at least one artifact was attached, "
    "and an artifact-free result keeps the plain three-key shape"
)
CLAUSE_3 = "RT-TOOL-1 ¶3: artifacts are attached beside `data`, never folded into it"


def _judge_shape(ctx: CheckContext, trace: Trace, expected: Expected, clause: str) -> None:
    """Every result reported for ``expected.call_id`` has the keys the clause allows.  A
    later result of the same call is a skipped repeat's re-emission, which may carry the
    artifacts the first execution attached or not (re-emitted-artifacts)."""
    found = located_results(trace, expected.call_id)
    ctx.expect(bool(found), f"no tool result was reported for call {expected.call_id}; {clause}")
    allowed = BASE_KEYS | ({"artifacts"} if expected.attached else set())
    for index, (at, record) in enumerate(found):
        keys = set(mapping(record.result))
        repeat = index > 0 and expected.attached > 0
        ctx.expect(
            isinstance(record.result, Mapping)
            and (keys == allowed or (repeat and keys == BASE_KEYS)),
            f"call {expected.call_id}'s result ({record.disposition}"
            + (f", {plural(expected.attached, 'artifact')} attached" if expected.attached else "")
            + f") {_described(record.result, allowed)}; {clause}",
            at=f"{at}/result",
            reading="key-order" if index == 0 else "re-emitted-artifacts",
        )


def _described(result: object, allowed: frozenset[str] | set[str]) -> str:
    """What is wrong with a result's keys, said as what was observed."""
    if not isinstance(result, Mapping):
        return f"is not a JSON object but {show(result, 80)}"
    keys = [str(key) for key in result]
    missing = sorted(allowed - set(keys))
    extra = [key for key in keys if key not in allowed]
    said = f"has keys {show(keys)}"
    if missing:
        said += f", without {show(missing)}"
    if extra:
        said += f", with {show(extra)} besides"
    return said


@check("RT-TOOL-1#c1", variants=RESULT_KINDS)
def check_result_is_success_data_error(ctx: CheckContext, variant: Results) -> None:
    """Every kind of tool result is `{success, data, error}`: `success` a boolean that says
    whether the tool succeeded, `data` what it produced, whatever JSON that is."""
    trace = variant.run(ctx, "rt1-c1-shape")
    for expected in variant.expected:
        _judge_shape(ctx, trace, expected, CLAUSE_1)
        for at, record in located_results(trace, expected.call_id):
            result = mapping(record.result)
            success = result.get("success")
            if expected.success is None:
                ctx.expect(
                    "success" not in result or isinstance(success, bool),
                    f"call {expected.call_id}'s result has success {show(success)}, not a "
                    "boolean; RT-TOOL-1 ¶1: `success` says whether the call succeeded",
                    at=f"{at}/result/success",
                    reading="declined-result",
                )
            else:
                ctx.expect(
                    "success" not in result or success is expected.success,
                    f"call {expected.call_id}'s tool {_did(expected.success)}, but its result "
                    f"has success {show(success)}; RT-TOOL-1 ¶1: `success` says whether the "
                    "call succeeded",
                    at=f"{at}/result/success",
                )
            if expected.data is not ANY and "data" in result:
                ctx.expect(
                    carries(result.get("data"), expected.data),
                    f"call {expected.call_id}'s result has data {show(result.get('data'))}, "
                    f"the tool produced {show(expected.data)}; RT-TOOL-1 ¶1: `data` is what "
                    "the tool produced"
                    + (
                        ' (as it is, or a value that is not a map as {"result": value})'
                        if not isinstance(expected.data, Mapping)
                        else ""
                    ),
                    at=f"{at}/result/data",
                    reading=BARE if not isinstance(expected.data, Mapping) else None,
                )


#: docs/interpretations.md: a value that is not a map may be carried as ``{"result": value}``
BARE = "bare-value-wrapped"


def carries(data: object, produced: object) -> bool:
    """Whether a result's ``data`` is what the tool produced: the value as it is, or a
    value that is not a map wrapped as ``{"result": value}``.  RT-TOOL-1 ¶1 names the
    result's keys ("A tool result is `{success, data, error}`"), not the form a bare
    value takes in ``data``, and the rules' own example wraps one so: RT-TOOL-3's
    result whose "`data` is a short confirmation string" carries
    ``"data": {"result": "Created node 5 (draft)."}``."""
    if same_json(data, produced):
        return True
    return (
        not isinstance(produced, Mapping)
        and isinstance(data, Mapping)
        and set(data) == {"result"}
        and same_json(data["result"], produced)
    )


def _did(success: bool) -> str:
    return "succeeded" if success else "failed"


# Which entries count as attached is RT-TOOL-2 ¶3's: an implementation that keeps
# malformed ones, or attaches none at all, has broken that clause, and this one cannot be
# told from it.  A result that is not `{success, data, error}` is RT-TOOL-1 ¶1's.
@check("RT-TOOL-1#c2", variants=ATTACHING, through=(RESULTS_SHAPED, ARTIFACTS_ATTACHED))
def check_artifacts_key_only_when_attached(ctx: CheckContext, variant: Results) -> None:
    """`artifacts` appears only once at least one artifact was attached; an artifact-free
    result keeps exactly `{success, data, error}`."""
    trace = variant.run(ctx, "rt1-c2-only-when-attached")
    for expected in variant.expected:
        _judge_shape(ctx, trace, expected, CLAUSE_2)
        if not expected.attached:
            continue
        for index, (at, record) in enumerate(located_results(trace, expected.call_id)):
            attached = mapping(record.result).get("artifacts")
            if index > 0 and "artifacts" not in mapping(record.result):
                continue  # a repeat's re-emission without them (re-emitted-artifacts)
            ctx.expect(
                isinstance(attached, list) and len(attached) >= 1,
                f"call {expected.call_id}'s node attached "
                f"{plural(expected.attached, 'artifact')}, and its result's `artifacts` is "
                f"{shown_key(record.result, 'artifacts')}, not a list of them; {CLAUSE_2}",
                at=f"{at}/result/artifacts",
            )


def _written(data: dict[str, object], attached: tuple[object, ...], at: int | None) -> Return:
    """The tool's output: ``data``'s keys with the reserved key among them at ``at`` (after
    them all when ``None``)."""
    if at is None:
        return output(data, *attached)
    keys = list(data.items())
    keys.insert(at, ("artifacts", list(attached)))
    return Return(output=dict(keys))


# Artifacts folded into `data` are this clause's; `data` that is not the tool's value at
# all (a text rendering of it: RT-TOOL-1 ¶1), that keeps the reserved key (RT-TOOL-2 ¶4),
# artifacts never attached (RT-TOOL-2 ¶3) or attached in another form than a list (¶2)
# are other clauses' words, and fold nothing.
@check(
    "RT-TOOL-1#c3",
    variants=DISJOINT,
    through=(
        RESULTS_SHAPED,
        DATA_AS_PRODUCED,
        ARTIFACTS_LISTED,
        ARTIFACTS_ATTACHED,
        RESERVED_KEY_REMOVED,
    ),
)
def check_artifacts_never_folded_into_data(ctx: CheckContext, variant: Disjoint) -> None:
    """Attaching artifacts leaves `data` exactly as the tool produced it, and `data` and
    `artifacts` share nothing."""
    tools = [
        tool(f"make_{i}", _written(data, attached, variant.reserved_at))
        for i, (data, attached) in enumerate(variant.outputs)
    ]
    batch = [call(f"make_{i}", {}, f"c{i}") for i in range(len(variant.outputs))]
    trace = one_turn(ctx, "rt1-c3-disjoint", tools=tools, model=[calls(*batch), say("done")])
    for i, (data, attached) in enumerate(variant.outputs):
        marks = [str(mapping(a.get("payload")).get("url")).rsplit("/", 1)[-1] for a in attached]
        found = located_results(trace, f"c{i}")
        ctx.expect(bool(found), f"no tool result was reported for call c{i}; {CLAUSE_3}")
        for at, record in found:
            result = mapping(record.result)
            got = result.get("data")
            ctx.expect(
                same_json(got, data),
                f"call c{i}'s result has data {show(got)}, the tool produced {show(data)} "
                f"beside {plural(len(attached), 'artifact')}; {CLAUSE_3}, and attaching "
                "them changes nothing in `data`",
                at=f"{at}/result/data",
            )
            for mark in marks:
                folded = pointers(got, mark, f"{at}/result/data")
                ctx.expect(
                    not folded,
                    f"call c{i}'s artifact {show(mark)} is inside its data, at "
                    f"{listing(folded)}; {CLAUSE_3}",
                    at=folded[0] if folded else None,
                )
                ctx.expect(
                    bool(pointers(entries(result.get("artifacts")), mark)),
                    f"call c{i}'s artifact {show(mark)} is not in a list under its result's "
                    f"`artifacts` (which is {shown_key(result, 'artifacts')}); {CLAUSE_3}",
                    at=f"{at}/result",
                )
            for mark in variant.in_data:
                lifted = pointers(result.get("artifacts"), mark, f"{at}/result/artifacts")
                ctx.expect(
                    not lifted,
                    f"a map inside call c{i}'s data holds an `artifacts` key of its own, and "
                    f"its entry was attached too, at {listing(lifted)}; only the top-level "
                    f"key is reserved, and {CLAUSE_3}: the two are disjoint",
                    at=lifted[0] if lifted else None,
                )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_result_is_success_data_error,
    check_artifacts_key_only_when_attached,
    check_artifacts_never_folded_into_data,
)
