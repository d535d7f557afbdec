"""RT-TOOL-8: a model's tool arguments are normalized against the tool's own schema.

The reconciled arguments are read from the tool result's ``arguments`` (reported whether
or not validation then refused the call), else from what the tool body received; clause 1
looks at the tool body itself.  Where the rule is silent, nothing is checked: the order of
the two repairs, the number of decoding passes beyond two, and legacy references without
a semicolon.
"""

from __future__ import annotations

from collections.abc import Mapping

from conformance.checks import CheckContext, check
from conformance.checks._common import one_turn, reconciled_arguments, show
from conformance.scenarios import call, calls, say, tool


def _received(
    ctx: CheckContext, name: str, schema: Mapping[str, object], args: object, *, body: bool = False
) -> object:
    """Send ``args`` to a tool with ``schema``; return the reconciled arguments (with
    ``body``, what the tool body itself received)."""
    trace = one_turn(
        ctx,
        name,
        tools=[tool("target", schema=schema)],
        model=[calls(call("target", args, "c1")), say("done")],
    )
    return reconciled_arguments(ctx, trace, "c1", "target", body=body)


def _schema(**types: str) -> dict[str, object]:
    return {"type": "object", "properties": {name: {"type": kind} for name, kind in types.items()}}


@check("RT-TOOL-8#c1")
def check_reconciled_before_invocation(ctx: CheckContext) -> None:
    """The tool body receives the reconciled arguments, not the model's raw ones."""
    got = _received(
        ctx,
        "rt8-c1-before",
        _schema(items="array", title="string"),
        {"items": "[1, 2]", "title": "Ember &amp; Oak"},
        body=True,
    )
    ctx.need(
        got == {"items": [1, 2], "title": "Ember & Oak"},
        f"the tool received {show(got)}: the arguments were not reconciled before it ran",
    )


@check("RT-TOOL-8#c2")
def check_json_decoded_when_all_three_hold(ctx: CheckContext) -> None:
    """A JSON string is decoded for a parameter declared `array` or `object` when it parses
    to that shape."""
    got = _received(
        ctx,
        "rt8-c2-decoded",
        _schema(ops="array", meta="object"),
        {"ops": '[{"op": "add"}]', "meta": '{"a": 1}'},
    )
    ctx.need(
        got == {"ops": [{"op": "add"}], "meta": {"a": 1}},
        f"the tool received {show(got)}; both strings should have been decoded",
    )


@check("RT-TOOL-8#c3")
def check_otherwise_passed_through(ctx: CheckContext) -> None:
    """A `string` parameter is never decoded, a wrong shape is never substituted, and an
    argument failing any condition passes through unmodified."""
    args = {
        "text": '["x"]',
        "ops": '{"op":"add"}',
        "list": "not json",
        "meta": "[1]",
        "free": '{"a": 1}',
    }
    schema = _schema(text="string", ops="array", list="array", meta="object")
    got = _received(ctx, "rt8-c3-passthrough", schema, args)
    ctx.need(
        got == args,
        f"the tool received {show(got)}; every argument should have passed through unmodified",
    )


@check("RT-TOOL-8#c4")
def check_character_references_decoded_until_stable(ctx: CheckContext) -> None:
    """Every string leaf has its character references decoded, repeatedly, so a doubly
    escaped value resolves fully."""
    args = {
        "title": "Ember &amp;amp; Oak",
        "nested": {"list": ["&lt;b&gt;", "it&#39;s", "caf&#xe9;"], "deep": {"q": "&quot;"}},
    }
    got = _received(ctx, "rt8-c4-entities", {"type": "object"}, args)
    expected = {
        "title": "Ember & Oak",
        "nested": {"list": ["<b>", "it's", "café"], "deep": {"q": '"'}},
    }
    ctx.need(got == expected, f"the tool received {show(got)}, expected {show(expected)}")


@check("RT-TOOL-8#c5")
def check_keys_and_plain_text_untouched(ctx: CheckContext) -> None:
    """Keys are never modified, and text without a character reference comes back as is."""
    plain = 'Ünïcødé ✓ <b>bold</b> 100% \\ "quoted" & alone; fish & chips'
    args = {"a&amp;b": "x", "plain": plain, "list": [plain]}
    got = _received(ctx, "rt8-c5-untouched", {"type": "object"}, args)
    keys = list(got) if isinstance(got, Mapping) else got
    ctx.need(
        isinstance(got, Mapping) and "a&amp;b" in got,
        f"a key was modified: the tool received keys {show(keys)}",
    )
    ctx.need(got == args, f"text without a character reference changed: {show(got)}")
