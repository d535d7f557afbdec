"""What the hunt's model sends: tool calls and batches of them, with the arguments they
carry (shared by the random scenarios of :mod:`conformance.hunt.strategies` and the
coherent stories of :mod:`conformance.hunt._stories`)."""

from __future__ import annotations

import functools

from hypothesis import strategies as st

__all__ = ["ARGUMENTS", "RECONCILED", "SCHEMA", "SCHEMA_TOOL", "batches", "calls"]

#: A tool whose input schema declares array, object and string parameters (RT-TOOL-8).
SCHEMA_TOOL = "delta"
SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "items": {"type": "array"},
        "meta": {"type": "object"},
        "title": {"type": "string"},
    },
}
#: Arguments of the plain tools: the same map in two key orders, a forged call id, union
#: types, special numbers in strings, non-ASCII text and escapes, a long value.
ARGUMENTS: tuple[dict[str, object], ...] = (
    {},
    {},
    {"to": "ana"},
    {"to": "bo"},
    {"a": 1, "b": [1, {"c": None}]},
    {"b": [1, {"c": None}], "a": 1},
    {"tool_call_id": "forged-in-arguments"},
    {"n": 1},
    {"n": "1"},
    {"value": "NaN"},
    {"value": "1e999"},
    {"text": 'héllo ✓ "quoted" \\ back\tslash 😀 \u2028'},
    {"note": "long " * 80},
)
#: Arguments of the ``delta`` tool: what reconciliation decodes, and what it must leave.
RECONCILED: tuple[dict[str, object], ...] = (
    {"items": "[1, 2]", "meta": '{"a": 1}', "title": "Ember &amp;amp; Oak"},
    {"items": '{"op": "add"}', "title": '["x"]'},
    {"meta": "[1]", "free": '{"a": 1}'},
    {"items": "not json", "nested": {"list": ["&lt;b&gt;", "caf&#xe9;", "plain"]}},
    {"title": "fish & chips; 100% plain"},
    {"items": '["&amp;", "caf&#233;"]', "meta": '{"k": "v", "n": [1, 2]}'},
    {"meta": '{"a": 1}', "items": "[1, 2]"},
    {"a&amp;b": "keys stay as sent", "title": "it&#39;s"},
)


def _id_strategy() -> st.SearchStrategy[object]:
    # Mostly a small id space (so repeats happen), now and then an id of a doubtful kind.
    return st.one_of(
        st.integers(1, 6).map(lambda n: f"c{n}"),
        st.integers(1, 6).map(lambda n: f"c{n}"),
        st.integers(1, 6).map(lambda n: f"c{n}"),
        st.sampled_from(("", "  ", 7)),
    )


@functools.cache
def calls(names: tuple[str, ...]) -> st.SearchStrategy[object]:
    """One tool call: usually well formed, with varied arguments and a small id space,
    sometimes without an id, sometimes with a doubtful id or name, sometimes malformed."""
    well_formed = st.builds(
        lambda name, args, call_id: {"name": name, "args": dict(args), "tool_call_id": call_id},
        st.sampled_from(names),
        st.sampled_from(ARGUMENTS),
        _id_strategy(),
    )
    reconciled = st.builds(
        lambda args, n: {"name": SCHEMA_TOOL, "args": dict(args), "tool_call_id": f"d{n}"},
        st.sampled_from(RECONCILED),
        st.integers(1, 6),
    )
    no_id = st.builds(
        lambda name, args: {"name": name, "args": dict(args)},
        st.sampled_from(names),
        st.sampled_from(ARGUMENTS),
    )
    odd = st.sampled_from(
        (
            {"name": 7, "args": {}, "tool_call_id": "c7"},  # a numeric name: an unwired tool
            {"name": "nosuch", "args": {}, "tool_call_id": "c8"},
            {"name": "alpha", "args": {}, "tool_call_id": None},
        )
    )
    malformed = st.sampled_from(
        ("not a call", 7, {"name": ""}, {"name": "  "}, {"args": {}}, {"name": ["alpha"]})
    )
    return st.one_of(
        well_formed, well_formed, well_formed, well_formed, reconciled, no_id, odd, malformed
    )


@functools.cache
def batches(names: tuple[str, ...]) -> st.SearchStrategy[tuple[object, ...]]:
    """Batches of up to three calls (sometimes empty)."""
    return st.lists(calls(names), min_size=0, max_size=3).map(tuple)
