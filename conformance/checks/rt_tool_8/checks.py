"""RT-TOOL-8's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_8`)."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.errors import SchemaViolation
from adapters.limits import TooDeep
from adapters.trace import Trace
from conformance.checks.rt_tool_8._argument_cases import (
    BEFORE,
    DECODED,
    INVOCATIONS,
    LEAVES,
    PASSED_THROUGH,
    UNTOUCHED,
    Either,
    Invocation,
    Leaves,
    Reconcile,
    Untouched,
    declared_as,
    escaped,
)
from conformance.checks.rt_tool_8._channels import (
    JSON_DECODED,
    PASS_THROUGH_NEVER_FAILS,
    REFERENCES_DECODED,
    TEXT_KEPT,
)
from conformance.toolkit import (
    BODY_GETS_THE_RECONCILIATION,
    NOT_COMPARED,
    CheckContext,
    Untested,
    call,
    calls,
    check,
    listing,
    located_results,
    located_runs,
    located_side_effects,
    one_turn,
    same_json,
    say,
    show,
    tool,
)


def reconciled(
    ctx: CheckContext, trace: Trace, call_id: str, tool_name: str, *, clause: str
) -> tuple[object, str, str, bool]:
    """What call ``call_id``'s arguments became, where that was observed, whose word it
    is, and whether the tool body ran: what the body received, else the result's reported
    ``arguments`` (docs/running-the-suite.md, "What a check reads").  A call that neither
    ran nor got a result, in a run that failed, fails ``clause``: reconciling never fails
    a run, whatever the model sent."""
    ran = located_side_effects(trace, tool_name)
    ctx.need(
        len(ran) <= 1,
        f"the tool {tool_name} ran {len(ran)} times (at {listing([at for at, _ in ran])}) "
        "for one call",
    )
    if ran:
        at, effect = ran[0]
        return effect.get("input"), f"{at}/input", "the tool body received", True
    results = located_results(trace, call_id)
    for at, result in results:
        if result.arguments is not None:
            whose = "the result reports the arguments as"
            return result.arguments, f"{at}/arguments", whose, False
    failed = [at for at, run in located_runs(trace) if run.end == "failed"]
    ctx.need(
        bool(results) or not failed,
        f"the tool {tool_name} never ran and call {call_id} got no result: the run ended "
        f"failed (at {listing([f'{at}/end' for at in failed])}); {clause}",
        at=failed[0] + "/end" if failed else None,
    )
    raise Untested(
        "the tool body did not run (its arguments failed its schema) and the harness does "
        "not report results' reconciled `arguments`"
    )


def judge_arguments(
    ctx: CheckContext, name: str, variant: Reconcile, clause: str, trace: Trace | None = None
) -> None:
    """Send ``variant.sent`` to a tool declaring ``variant.schema``; judge every argument."""
    if trace is None:
        try:
            tools = [tool("target", schema=dict(variant.schema))]
            batch = [call("target", dict(variant.sent), "c1")]
            if variant.first is not None:
                declared, arguments = variant.first
                tools.append(tool("other", schema=dict(declared)))
                batch.insert(0, call("other", dict(arguments), "c0"))
            trace = one_turn(ctx, name, tools=tools, model=[calls(*batch), say("done")])
        except SchemaViolation as err:
            if not (variant.past_limit and isinstance(err.__cause__, TooDeep)):
                raise
            raise Untested(
                "the harness's reply nests past rttool's nesting limit (at "
                f"{show(err.pointer, 120)}): the argument was decoded, which no harness can "
                "report"
            ) from err
    got, at, whose, invoked = reconciled(ctx, trace, "c1", "target", clause=clause)
    failed_before = len(ctx.failures)
    ctx.need(
        isinstance(got, Mapping),
        f"{whose} {show(got, 120)}, not the map of arguments the model sent; {clause}",
        at=at,
    )
    assert isinstance(got, Mapping)
    for key, want in variant.expected.items():
        sent = variant.sent.get(key)
        if not ctx.expect(
            key in got,
            f"the argument {show(key, 60)} is missing: {whose} keys {show(list(got), 120)}; "
            f"{clause}",
            at=at,
        ):
            continue
        value = got[key]
        accepted = want.outcomes if isinstance(want, Either) else (want,)
        ctx.expect(
            any(same_json(value, one) for one in accepted),
            f"the argument {show(key, 60)} was sent as {show(sent, 80)} and {whose} "
            f"{show(value, 80)}, expected "
            + " or ".join(show(one, 80) for one in accepted)
            + f"; {clause}",
            at=f"{at}/{key.replace('~', '~0').replace('/', '~1')}",
            reading=want.reading if isinstance(want, Either) else None,
            expected=accepted[0] if len(accepted) == 1 else NOT_COMPARED,
            got=value,
        )
    if variant.body and not invoked and len(ctx.failures) == failed_before:
        # What the body receives is what ¶1 speaks of; the reconciliation the result
        # reports is right, yet nothing was invoked with it.
        raise Untested(
            "the tool body did not run, though the reconciled arguments its result reports "
            "are right: nothing was invoked to see them reconciled before"
        )


CLAUSE_1 = "RT-TOOL-8 ¶1: before a tool is invoked, the model's arguments are reconciled"


@check("RT-TOOL-8#c1", variants=INVOCATIONS, through=(JSON_DECODED, REFERENCES_DECODED, TEXT_KEPT))
def check_reconciled_before_invocation(ctx: CheckContext, variant: Invocation) -> None:
    """The tool body receives the reconciled arguments, not the model's raw ones, wherever
    the call comes.  Which repairs reconciling makes is ¶2's and ¶4's word: where the
    runtime's reconciliation (as its result reports it) leaves one of them undone, the
    check observes through that repair, and is blocked by its clause; what stays ¶1's is
    a body handed other arguments than the reconciliation, or arguments not reconciled
    at all.  Where the body did not run (the arguments failed the tool's schema), the
    reconciled arguments its result reports are read."""
    target = call("target", dict(BEFORE.sent), "c1")
    batch = [call("other", {}, "c_other"), target] if variant.beside else [target]
    trace = one_turn(
        ctx,
        "rt8-c1-before",
        tools=[
            tool("target", schema=dict(BEFORE.schema), gate=variant.gate),
            tool("other", schema={}),
        ],
        model=[*variant.before, calls(*batch), say("done")],
        steps=list(variant.steps),
    )
    judge_arguments(ctx, "rt8-c1-before", BEFORE, CLAUSE_1, trace)


CLAUSE_2 = (
    "RT-TOOL-8 ¶2: a string is decoded as JSON where the schema declares the parameter "
    "array or object, the string parses as JSON and the parsed shape matches"
)


#: What ¶2's checks observe through: the body handed the reconciliation (¶1), and the
#: text inside a decoded value left as it was (¶5).
THROUGH_2 = (BODY_GETS_THE_RECONCILIATION, TEXT_KEPT)


@check("RT-TOOL-8#c2", variants=DECODED, through=THROUGH_2)
def check_json_decoded_when_all_three_hold(ctx: CheckContext, variant: Reconcile) -> None:
    """A JSON string is decoded for a parameter declared `array` or `object` when it parses
    to that shape."""
    judge_arguments(ctx, "rt8-c2-decoded", variant, CLAUSE_2)


CLAUSE_3 = (
    "RT-TOOL-8 ¶3: a `string` parameter is never decoded, a wrong shape never "
    "substituted, and an argument failing any condition is passed through unmodified"
)


@check("RT-TOOL-8#c3", variants=PASSED_THROUGH)
def check_otherwise_passed_through(ctx: CheckContext, variant: Reconcile) -> None:
    """A `string` parameter is never decoded, a wrong shape is never substituted, and an
    argument failing any condition passes through unmodified."""
    judge_arguments(ctx, "rt8-c3-passthrough", variant, CLAUSE_3)


CLAUSE_4 = (
    "RT-TOOL-8 ¶4: every string leaf has its character references decoded, repeatedly, "
    "until the value stops changing"
)


#: What ¶4's checks observe through: the body handed the reconciliation (¶1), the JSON
#: decoding some of their arguments also need (¶2) and the pass-through of a JSON text
#: that does not parse before its references are decoded (¶3), and the arguments' keys
#: and plain text (¶5): an argument dropped never reaches the tool.
THROUGH_4 = (BODY_GETS_THE_RECONCILIATION, JSON_DECODED, PASS_THROUGH_NEVER_FAILS, TEXT_KEPT)


@check("RT-TOOL-8#c4", variants=LEAVES, through=THROUGH_4)
def check_character_references_decoded_until_stable(ctx: CheckContext, variant: Leaves) -> None:
    """Every string leaf has its character references decoded, repeatedly, so a doubly
    escaped value resolves fully."""
    judge_arguments(
        ctx,
        "rt8-c4-entities",
        Reconcile(variant.schema, variant.sent, variant.expected),
        CLAUSE_4,
    )


@check("RT-TOOL-8#c4", name="decoded-up-to-the-declared-bound", through=THROUGH_4)
def check_decoded_up_to_the_declared_bound(ctx: CheckContext) -> None:
    """Values escaped up to the declared number of passes (``limits.normalize_passes``; at
    least two, since a doubly escaped value must resolve) decode fully; beyond it, an
    implementation may stop, but never short of the bound."""
    bound = ctx.handshake.limits.normalize_passes
    floor = 2 if bound is None else max(2, bound - 1)
    depths = (floor, floor + 1, floor + 2)
    sent = {f"d{depth}": escaped(depth) for depth in depths}
    expected: dict[str, object] = {}
    for depth in depths:
        if depth <= floor:
            expected[f"d{depth}"] = "<"
        else:
            # Decoded at least `floor` times, fully or not.
            outcomes = ["<", *(escaped(depth - j) for j in range(floor, depth))]
            expected[f"d{depth}"] = Either(tuple(outcomes), "decoding-pass-bound")
    clause = (
        f"{CLAUSE_4}; an implementation may bound the passes (the handshake declares "
        f"{show(bound)}), but a value escaped {floor} times resolves fully"
    )
    schema = declared_as(dict.fromkeys(sent, "string"))
    judge_arguments(ctx, "rt8-c4-bound", Reconcile(schema, sent, expected), clause)


def _keys(value: object, at: str = "") -> list[tuple[str, list[str]]]:
    """Every map's keys, in order, with the map's pointer."""
    out: list[tuple[str, list[str]]] = []
    if isinstance(value, Mapping):
        out.append((at, [str(key) for key in value]))
        for key, item in value.items():
            out += _keys(item, f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _keys(item, f"{at}/{index}")
    return out


CLAUSE_5 = (
    "RT-TOOL-8 ¶5: keys are never modified, and text containing no character reference "
    "is returned unchanged"
)


@check("RT-TOOL-8#c5", variants=UNTOUCHED)
def check_keys_and_plain_text_untouched(ctx: CheckContext, variant: Untouched) -> None:
    """Keys are never modified, at any depth, and text without a character reference comes
    back as it was sent (what a value holding a reference becomes is ¶4's, not judged
    here)."""
    trace = one_turn(
        ctx,
        "rt8-c5-untouched",
        tools=[tool("target", schema={"type": "object"})],
        model=[calls(call("target", dict(variant.sent), "c1")), say("done")],
    )
    got, at, whose, _ = reconciled(ctx, trace, "c1", "target", clause=CLAUSE_5)
    sent_keys = dict(_keys(variant.sent))
    for where, keys in _keys(got):
        if where in sent_keys:
            ctx.expect(
                sorted(keys) == sorted(sent_keys[where]),
                f"the map at {where or 'the top'} was sent with keys "
                f"{show(sent_keys[where], 120)} and {whose} keys {show(keys, 120)}; {CLAUSE_5}",
                at=f"{at}{where}",
                reading="key-order",
                expected=sorted(sent_keys[where]),
                got=sorted(keys),
            )
    # Only the keys and the text holding no character reference are this clause's: what
    # the references in a value decode to is RT-TOOL-8 ¶4's word, judged there.
    for where, sent, want in _plain_leaves(variant.sent, variant.expected):
        value, found = _at(got, where)
        if found and isinstance(sent, str) and not isinstance(value, str):
            # Text turned into a value (a boolean, null, a number) was decoded: ¶3's words
            # ("never decoded", "passed through unmodified"), not a change of text.
            continue
        accepted = want.outcomes if isinstance(want, Either) else (sent,)
        ctx.expect(
            found and any(same_json(value, one) for one in accepted),
            f"the text at {where} was sent as {show(sent, 80)} and {whose} "
            + (show(value, 80) if found else "nothing there")
            + ", expected "
            + " or ".join(show(one, 80) for one in accepted)
            + f"; {CLAUSE_5}",
            at=f"{at}{where}",
            reading=want.reading if isinstance(want, Either) else None,
            expected=accepted[0] if found and len(accepted) == 1 else NOT_COMPARED,
            got=value,
        )


def _pointer_token(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _plain_leaves(sent: object, want: object, at: str = "") -> list[tuple[str, object, object]]:
    """Every leaf of ``sent`` that reconciling leaves as it is (``want`` holds it
    unchanged, or an :class:`Either`), with its pointer: the text ¶5 speaks of."""
    if isinstance(want, Either):
        return [(at, sent, want)]
    if isinstance(sent, Mapping) and isinstance(want, Mapping):
        return [
            leaf
            for key, item in sent.items()
            if key in want
            for leaf in _plain_leaves(item, want[key], f"{at}/{_pointer_token(key)}")
        ]
    if isinstance(sent, list) and isinstance(want, list) and len(sent) == len(want):
        return [
            leaf
            for index, (item, wanted) in enumerate(zip(sent, want, strict=True))
            for leaf in _plain_leaves(item, wanted, f"{at}/{index}")
        ]
    return [(at, sent, want)] if same_json(sent, want) else []


def _at(value: object, pointer: str) -> tuple[object, bool]:
    """The value at ``pointer`` (one made by :func:`_plain_leaves`), and whether it is there."""
    for token in pointer.split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, Mapping) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None, False
    return value, True


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_reconciled_before_invocation,
    check_json_decoded_when_all_three_hold,
    check_otherwise_passed_through,
    check_character_references_decoded_until_stable,
    check_decoded_up_to_the_declared_bound,
    check_keys_and_plain_text_untouched,
)
