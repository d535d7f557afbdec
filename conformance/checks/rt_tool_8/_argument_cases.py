"""The arguments RT-TOOL-8's checks send: JSON text for every declared type, character
references in every kind of string leaf, keys and text to leave alone."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.scenario import Answer, Approve, Reply, StartTurn, Step
from conformance.toolkit import ask, call, calls

__all__ = [
    "BEFORE",
    "DECODED",
    "INVOCATIONS",
    "LEAVES",
    "LONG",
    "PASSED_THROUGH",
    "PLAIN",
    "UNTOUCHED",
    "Either",
    "Invocation",
    "Leaves",
    "Reconcile",
    "Untouched",
    "declared_as",
    "declared_for",
    "escaped",
]


@dataclass(frozen=True)
class Either:
    """An argument whose outcome the text leaves open: any of ``outcomes`` is accepted."""

    outcomes: tuple[object, ...]
    reading: str


def declared_as(types: Mapping[str, object] | None = None, **named: object) -> dict[str, object]:
    """A tool's schema declaring each parameter of ``types`` (and ``named``) by its type
    (a type name, a list of them, or a whole property schema)."""
    types = {**(types or {}), **named}
    return {
        "type": "object",
        "properties": {
            name: kind if isinstance(kind, dict) else {"type": kind} for name, kind in types.items()
        },
    }


@dataclass(frozen=True)
class Reconcile:
    """Arguments sent to a tool with ``schema``, and what each must become; ``past_limit``:
    decoded, an argument would nest past rttool's one nesting limit, which no harness can
    report (``adapters.limits.MAX_DEPTH``)."""

    schema: Mapping[str, object]
    sent: Mapping[str, object]
    expected: Mapping[str, object]
    body: bool = False
    past_limit: bool = False
    #: another tool's schema and the arguments it is called with first, in the same
    #: batch: what each tool declares is its own, whatever the other declares
    first: tuple[Mapping[str, object], Mapping[str, object]] | None = None


BEFORE = Reconcile(
    declared_as(items="array", title="string"),
    {"items": "[1, 2]", "title": "Ember &amp;amp; Oak"},
    {"items": [1, 2], "title": "Ember & Oak"},
    body=True,
)


@dataclass(frozen=True)
class Invocation:
    """Where the call to ``target`` (id ``c1``) comes: ``before`` replies come first,
    ``beside`` puts a call to another tool first in its batch, ``gate`` gates it."""

    before: tuple[Reply, ...] = ()
    beside: bool = False
    gate: bool = False
    steps: tuple[Step, ...] = (StartTurn("t1"),)


INVOCATIONS: dict[str, Invocation] = {
    "first-call": Invocation(),
    "second-call-of-a-batch": Invocation(beside=True),
    "later-pass": Invocation(before=(calls(call("other", {}, "c0")),)),
    "approved-gated-call": Invocation(gate=True, steps=(StartTurn("t1"), Approve("t1"))),
    "after-an-answer": Invocation(before=(ask("Go on?"),), steps=(StartTurn("t1"), Answer("t1"))),
}


LONG = json.dumps(list(range(20_000)))

#: JSON text of lists nested past rttool's nesting limit (128): decoded, it could not be
#: reported; passed through, it is a string like any other.
DEEP = "[" * 130 + "]" * 130


DECODED: dict[str, Reconcile] = {
    "array-and-object": Reconcile(
        declared_as(ops="array", meta="object"),
        {"ops": '[{"op": "add"}]', "meta": '{"a": 1}'},
        {"ops": [{"op": "add"}], "meta": {"a": 1}},
    ),
    "empty-and-nested": Reconcile(
        declared_as(a="array", o="object", deep="array", map="object"),
        {"a": "[]", "o": "{}", "deep": "[[1], [2, [3]]]", "map": '{"a": {"b": [1]}}'},
        {"a": [], "o": {}, "deep": [[1], [2, [3]]], "map": {"a": {"b": [1]}}},
    ),
    "whitespace-escapes-and-non-ascii": Reconcile(
        declared_as(a="array", e="array", raw="object"),
        {"a": " \n[1, 2]\t ", "e": '["\\u00e9", "\\n", "\\"q\\""]', "raw": '{"été": "😀"}'},
        {"a": [1, 2], "e": ["é", "\n", '"q"'], "raw": {"été": "😀"}},
    ),
    "numbers-in-every-notation": Reconcile(
        declared_as(n="array", s="array"),
        {"n": "[1.5e3, -0, 0.1, 10000000000000000000000, -7]", "s": '["NaN", "Infinity"]'},
        {"n": [1500, 0, 0.1, 1e22, -7], "s": ["NaN", "Infinity"]},
    ),
    # A union naming array or object (and not string) declares the parameter that shape
    # to one reading, and is not the word `array` to another: either is accepted
    # (docs/interpretations.md, union-types).  Beside them, a parameter declared `array`
    # alone is decoded under both.
    "union-types": Reconcile(
        declared_as(a=["array", "null"], o=["object", "integer"], plain="array"),
        {"a": "[1]", "o": '{"k": 1}', "plain": "[2]"},
        {
            "a": Either(([1], "[1]"), "union-types"),
            "o": Either(({"k": 1}, '{"k": 1}'), "union-types"),
            "plain": [2],
        },
    ),
    "keys-in-an-unusual-order": Reconcile(
        declared_as(o="object"),
        {"o": '{"z": 1, "a": 2, "m": {"y": 0, "b": 1}}'},
        {"o": {"z": 1, "a": 2, "m": {"y": 0, "b": 1}}},
    ),
    "a-long-value": Reconcile(declared_as(a="array"), {"a": LONG}, {"a": list(range(20_000))}),
    "after-a-tool-declaring-the-same-name-a-string": Reconcile(
        declared_as(rows="array"),
        {"rows": "[1, 2]"},
        {"rows": [1, 2]},
        first=(declared_as(rows="string"), {"rows": "[1, 2]"}),
    ),
}


#: Text a lenient parser reads as something else, each sent to a `string` parameter.
LITERALS = {"t": "true", "f": "false", "n": "null", "none": "None", "zero": "0", "list": "[]"}

PASSED_THROUGH: dict[str, Reconcile] = {
    "declared-string": Reconcile(
        declared_as(text="string", obj="string", u=["string", "array"]),
        {"text": '["x"]', "obj": '{"a": 1}', "u": "[1]"},
        {
            "text": '["x"]',
            "obj": '{"a": 1}',
            "u": Either(("[1]", [1]), "union-with-string"),
        },
    ),
    "shape-mismatch": Reconcile(
        declared_as(ops="array", meta="object", a="array", b="array", c="object", d="object"),
        {"ops": '{"op":"add"}', "meta": "[1]", "a": '"s"', "b": "1", "c": "true", "d": "null"},
        {"ops": '{"op":"add"}', "meta": "[1]", "a": '"s"', "b": "1", "c": "true", "d": "null"},
    ),
    "not-json": Reconcile(
        declared_as(a="array", b="array", c="object", d="array", e="array", f="object"),
        {"a": "not json", "b": "[1,", "c": "{'a': 1}", "d": "", "e": "[1] x", "f": '{"a": 1,}'},
        {"a": "not json", "b": "[1,", "c": "{'a': 1}", "d": "", "e": "[1] x", "f": '{"a": 1,}'},
    ),
    "already-decoded": Reconcile(
        declared_as(tags="array", meta="object"),
        {"tags": ["a"], "meta": {"k": 1}},
        {"tags": ["a"], "meta": {"k": 1}},
    ),
    # What such an argument becomes is not judged: decoded (all three conditions of ¶2
    # hold) no harness can report it, and the case is untested; but reconciling it never
    # fails the run, and the call gets its result.
    "json-nested-past-the-nesting-limit": Reconcile(
        declared_as(deep="array"), {"deep": DEEP}, {}, past_limit=True
    ),
    "special-numbers": Reconcile(
        declared_as(a="array", b="object", c="array", d="array", e="array"),
        {"a": "[NaN]", "b": '{"x": Infinity}', "c": "NaN", "d": "[-Infinity]", "e": "[1e999]"},
        {
            "a": "[NaN]",
            "b": '{"x": Infinity}',
            "c": "NaN",
            "d": "[-Infinity]",
            # A valid JSON number no double holds: parsed (to a list whose item a JSON
            # encoder then writes as null, as JavaScript's does) or refused.
            "e": Either(("[1e999]", [None]), "out-of-range-numbers"),
        },
    ),
    "after-a-tool-declaring-the-same-name-an-array": Reconcile(
        declared_as(lines="string"),
        {"lines": "[1, 2]"},
        {"lines": "[1, 2]"},
        first=(declared_as(lines="array"), {"lines": "[1, 2]"}),
    ),
    # What a lenient parser reads as a boolean, null, a number or a list is text to a
    # parameter declared `string`, and to one the schema does not declare: "A parameter
    # declared `string` is never decoded", and "an argument that fails any of the three
    # is passed through unmodified" (¶3).  Turning "true" into true is a decoding, ¶3's
    # words, not a change of text ¶5 speaks of: the value is no longer text at all.
    "literals-a-lenient-parser-reads": Reconcile(
        declared_as(dict.fromkeys(("t", "f", "n", "none", "zero", "list"), "string")),
        {
            **LITERALS,
            "loose_true": "True",
            "loose_none": "None",
        },
        {**LITERALS, "loose_true": "True", "loose_none": "None"},
    ),
    "undeclared-parameters": Reconcile(
        {"type": "object", "properties": {"other": {"type": "string"}, "untyped": {}}},
        {"free": '{"a": 1}', "list": "[1]", "untyped": "[2]"},
        {"free": '{"a": 1}', "list": "[1]", "untyped": "[2]"},
    ),
}


def escaped(levels: int, text: str = "lt;") -> str:
    """``<`` escaped ``levels`` times: ``&lt;``, ``&amp;lt;``, ``&amp;amp;lt;``..."""
    return "&" + "amp;" * (levels - 1) + text


def _nested(depth: int, leaf: object) -> object:
    value = leaf
    for level in range(depth):
        value = {f"k{level}": value} if level % 2 else [value]
    return value


def declared_for(sent: Mapping[str, object], **types: object) -> dict[str, object]:
    """A schema declaring every argument of ``sent``, so that a runtime whose tools take
    only what they declare (a function's own parameters) receives them all: a text
    ``string``, anything else without a type (what ¶2 and ¶3 make of a list or a map
    sent as itself is theirs, not the references'); ``types`` overrides one (a JSON text
    declared ``array``)."""
    kinds: dict[str, object] = {
        key: "string" if isinstance(value, str) else {} for key, value in sent.items()
    }
    return declared_as(kinds, **types)


@dataclass(frozen=True)
class Leaves:
    """Arguments whose string leaves hold references (``types``: the declared type of an
    argument sent as JSON text; every other argument is declared as :func:`declared_for`
    says, which ¶4 does not look at: references are decoded whatever the schema says)."""

    sent: Mapping[str, object]
    expected: Mapping[str, object]
    types: Mapping[str, str] = field(default_factory=dict)

    @property
    def schema(self) -> dict[str, object]:
        """The tool's schema."""
        return declared_for(self.sent, **self.types)


LEAVES: dict[str, Leaves] = {
    "doubly-escaped": Leaves({"title": "Ember &amp;amp; Oak"}, {"title": "Ember & Oak"}),
    "every-kind-of-reference": Leaves(
        {
            "named": "&lt;b&gt; &quot;q&quot; caf&eacute; &hearts; a&nbsp;b &hellip;",
            "numeric": "it&#39;s caf&#233; &#xE9; &#X1F600; &#128512;",
            "double": "&amp;#233; &amp;lt; &amp;#x1F600;",
        },
        {
            "named": '<b> "q" café ♥ a\u00a0b …',
            "numeric": "it's café é 😀 😀",
            "double": "é < 😀",
        },
    ),
    "every-string-leaf": Leaves(
        {
            "list": ["&lt;b&gt;", ["&amp;amp;"]],
            "deep": _nested(20, "&amp;quot;"),
            "mixed": [1, True, None, "&amp;lt;"],
            "ops": '["&amp;amp;", "x"]',
        },
        {
            "list": ["<b>", ["&"]],
            "deep": _nested(20, '"'),
            "mixed": [1, True, None, "<"],
            "ops": ["&", "x"],
        },
        {"ops": "array"},
    ),
    # The line separator sits inside the text: what happens to whitespace at a text's
    # ends is ¶5's ("text containing no character reference is returned unchanged").
    "non-ascii-around-references": Leaves(
        {"t": "日本&amp;amp;語\u2028😀&lt; ü&#252;"}, {"t": "日本&語\u2028😀< üü"}
    ),
    "escaped-json-text": Leaves(
        {"ops": "[&quot;a&quot;]", "title": "&amp;amp;"},
        {"ops": Either(('["a"]', ["a"]), "repair-order"), "title": "&"},
        {"ops": "array"},
    ),
}


PLAIN = {
    "ampersand": "fish & chips",
    "brand": "AT&T",
    "and": "a && b; c",
    "empty-ref": "&;",
    "hash": "&#;",
    "hex": "&#x;",
    "unknown": "&bogus;",
    "marks": 'Ünïcødé ✓ <b>bold</b> 100% \\ "quoted"',
    "empty": "",
    "padded": "  padded  ",
    "controls": "line\nbreak\ttab\r\u0001",
    "long": "x" * 50_000 + " & y",
}


@dataclass(frozen=True)
class Untouched:
    """Arguments whose keys (and text without references) must come back as sent;
    ``expected`` is what reconciling makes of them: a leaf it changes holds a character
    reference (RT-TOOL-8 ¶4's), and RT-TOOL-8 ¶5 judges only the keys and the rest."""

    sent: Mapping[str, object]
    expected: Mapping[str, object]


UNTOUCHED: dict[str, Untouched] = {
    "keys-with-references": Untouched(
        {"a&amp;b": "x", "&lt;k&gt;": {"in&amp;ner": ["&#39;"]}, "list": [{"k&quot;": 1}]},
        {"a&amp;b": "x", "&lt;k&gt;": {"in&amp;ner": ["'"]}, "list": [{"k&quot;": 1}]},
    ),
    "plain-text": Untouched(
        {
            **PLAIN,
            "numbers": [0, 1.5, -1, True, False, None],
            "legacy": "fish &amp chips",
        },
        {
            **PLAIN,
            "numbers": [0, 1.5, -1, True, False, None],
            "legacy": Either(("fish &amp chips", "fish & chips"), "references-without-semicolon"),
        },
    ),
    "keys-in-an-unusual-order": Untouched(
        {"z": "&amp;amp;", "a": "1", "m": {"y": "2", "b": "&lt;"}, "&amp;": "k"},
        {"z": "&", "a": "1", "m": {"y": "2", "b": "<"}, "&amp;": "k"},
    ),
}
