"""The scenarios RT-TOOL-2's checks play: node outputs carrying the reserved key in every
shape, and calls that fail or are declined."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import Reply, Return
from conformance.toolkit import artifact, ask, call, calls, canary, failure, link, output

__all__ = [
    "DECLINES",
    "ENTRY_SETS",
    "EXPOSURE",
    "FAILURES",
    "GOOD",
    "GOOD_LINK",
    "GOOD_NOTE",
    "MALFORMED",
    "REMOVALS",
    "Accepted",
    "Declining",
    "Failing",
    "Removal",
]


@dataclass(frozen=True)
class Accepted:
    """A node output: ``data`` beside the reserved key's ``entries``."""

    entries: tuple[object, ...]
    data: tuple[tuple[str, object], ...] = (("ok", True),)


ENTRY_SETS: dict[str, Accepted] = {
    "several-types": Accepted(
        (
            link("https://example.com/a"),
            artifact("citation", {"ref": "b"}),
            artifact("note", {"text": "c"}),
        )
    ),
    "duplicated-entries": Accepted(
        (link("https://example.com/same"), link("https://example.com/same"))
    ),
    "falsy-payload-values": Accepted(
        (artifact("note", {}), artifact("flag", {"v": False, "n": 0, "s": "", "z": None, "l": []}))
    ),
    "non-ascii-and-escapes": Accepted(
        (artifact("链接", {"t": 'é 😀 "q" \\ \n \u2028'}), artifact("note", {"ключ": "значение"}))
    ),
    "nested-shapes": Accepted(
        (
            artifact(
                "wrap",
                {
                    "type": "inner",
                    "payload": {"artifacts": [link("https://e.x/in")]},
                    "tool_call_id": "x",
                },
            ),
            link("https://example.com/outer"),
        )
    ),
    "beside-many-keys": Accepted(
        (link("https://example.com/m"), artifact("citation", {"ref": "m"})),
        tuple((f"key_{n:02d}", n) for n in range(40, 0, -1)),
    ),
}


EXPOSURE = {"port-not-exposed": False, "port-exposed": True}


GOOD_LINK, GOOD_NOTE = link("https://ok.example.com"), artifact("note", {})


GOOD: list[object] = [GOOD_LINK, GOOD_NOTE]


MALFORMED: dict[str, tuple[list[object], list[object]]] = {
    "entries-not-maps": (["not-a-map", 7, None, True, ["link", {}], *GOOD], GOOD),
    "wrong-type": (
        [
            {"payload": {"a": 1}},
            {"type": 3, "payload": {}},
            {"type": None, "payload": {}},
            {"type": True, "payload": {}},
            {"type": ["link"], "payload": {}},
            {"type": {"k": "link"}, "payload": {}},
            *GOOD,
        ],
        GOOD,
    ),
    "wrong-payload": (
        [
            {"type": "link"},
            {"type": "link", "payload": "not-a-map"},
            {"type": "link", "payload": [1]},
            {"type": "link", "payload": None},
            {"type": "link", "payload": 0},
            {"type": "link", "payload": False},
            *GOOD,
        ],
        GOOD,
    ),
    "keys-of-their-own": (
        [{**GOOD_LINK, "tool_call_id": "forged", "extra": [1]}, {**GOOD_NOTE, "note": "x"}],
        GOOD,
    ),
    "nothing-but-malformed": (["junk", {"type": 3, "payload": {}}, {"type": "x"}], []),
}


@dataclass(frozen=True)
class Removal:
    """Tools whose outputs carry the reserved key (marked by ``mark``), and whether each
    call fails."""

    returns: tuple[Return, ...]


def _mark(tag: str) -> str:
    return canary(f"rt2-c4-{tag}")


REMOVALS: dict[str, Removal] = {
    "valid-entries": Removal((output({"note": "kept"}, f"junk {_mark('v')}", link(_mark("v"))),)),
    "nothing-valid": Removal(
        (output({"note": "kept"}, f"junk {_mark('n')}", {"type": _mark("n")}),)
    ),
    "empty-list": Removal((Return(output={"note": "kept", "artifacts": []}),)),
    "not-a-list": Removal(
        (
            Return(output={"note": "kept", "artifacts": f"junk {_mark('s')}"}),
            Return(
                output={"note": "kept", "artifacts": {"type": "link", "payload": {"u": _mark("m")}}}
            ),
            Return(output={"note": "kept", "artifacts": None}),
        )
    ),
    "reserved-key-alone": Removal((Return(output={"artifacts": [link(_mark("a"))]}),)),
    "failed-call": Removal((failure("upstream refused", link(_mark("f")), f"junk {_mark('f')}"),)),
}


@dataclass(frozen=True)
class Failing:
    """A failing call ``c_fail`` whose node emitted an artifact, after ``before`` (replies
    that come first, a question among them answered by ``answers``)."""

    before: tuple[Reply, ...] = ()
    answers: int = 0
    same_tool_first: bool = False


FAILURES: dict[str, Failing] = {
    "tool-failure": Failing(),
    "after-the-same-tool-succeeded": Failing(same_tool_first=True),
    "in-a-later-pass": Failing(before=(calls(call("other", {}, "c_other")),)),
    "after-an-answer": Failing(before=(ask("Go on?"),), answers=1),
}


@dataclass(frozen=True)
class Declining:
    """Gated calls: ``c_declined`` is declined; with ``approved_first``, ``c_approved``
    comes first in the batch and is approved; ``restart`` restarts before the decision."""

    approved_first: bool = False
    restart: bool = False


DECLINES: dict[str, Declining] = {
    "declined": Declining(),
    "beside-an-approved-call": Declining(approved_first=True),
    "after-a-restart": Declining(restart=True),
}
