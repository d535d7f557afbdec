"""The turns DR-3's checks play: what each clause quantifies over, as data (the checks
themselves are in :mod:`conformance.checks.dr_3`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.scenario import Answer, Reply, Restart, Return, StartTurn, Step
from conformance.toolkit import (
    ask,
    call,
    calls,
    failure,
    output,
    say,
    send,
    ticket,
)

__all__ = [
    "ANA",
    "BO",
    "CONSUMED",
    "CY",
    "EVERY_PRIOR_CHUNK",
    "FRESH",
    "MATCHED",
    "READS",
    "REUSED",
    "TICKET",
    "TWICE",
    "Call",
    "Fresh",
    "Redispatch",
]

# The arguments the scenarios give ``send_email`` and ``create_ticket``.
ANA: Mapping[str, object] = {"to": "ana@example.com"}
BO: Mapping[str, object] = {"to": "bo@example.com"}
CY: Mapping[str, object] = {"to": "cy@example.com"}
TICKET: Mapping[str, object] = {"title": "Printer jam"}

Call = dict[str, object]


@dataclass(frozen=True)
class Redispatch:
    """A turn whose ``before`` calls complete (one batch) before its time limit cuts it;
    ``middle``, when given, is a chunk between, cut in turn after its last call returned;
    the resumed chunk then dispatches ``after`` (one batch, or one pass per call with
    ``separately``).  ``runs`` says how often each call of ``after`` must run (by call id),
    ``answers`` which re-dispatched calls get which completed call's journaled result
    (call id -> the original call id and what its tool returned)."""

    before: tuple[Call, ...]
    after: tuple[Call, ...]
    runs: Mapping[str, int]
    separately: bool = False
    middle: tuple[Call, ...] = ()
    restart: bool = False
    answers: Mapping[str, tuple[str, object]] = field(default_factory=dict)
    sends: tuple[Return, ...] = ()
    tickets: tuple[Return, ...] = ()
    last_cut: str = "after_tool_done"
    #: how many questions the resumed chunk asks the operator, one after the other, before
    #: it dispatches ``after`` once the last is answered
    pauses: int = 0


#: A write completed two chunks before the resumed one: the snapshot holds every prior
#: chunk of the turn, not only the one cut just before (DR-3 ¶1), so its re-dispatch is
#: blocked.  An entry missing from the snapshot breaks ¶1's words, not ¶2's, which acts
#: on "a completed entry of that snapshot".  The write completed in the chunk just before
#: is re-dispatched too: blocked, it shows the hard-block at work (¶2), so that the one
#: that ran was left out of the snapshot, not answered by no block at all.
EVERY_PRIOR_CHUNK = Redispatch(
    (send(ANA, "c1"),),
    (send(BO, "r2"), send(ANA, "r1")),
    {"r1": 0, "r2": 0},
    middle=(send(BO, "c2"),),
    answers={"r1": ("c1", "sent"), "r2": ("c2", "sent")},
)

TWICE: dict[str, Redispatch] = {
    "two-passes": Redispatch(
        (call("lookup", {"id": 7}, "c1"),),
        (send(ANA, "r1"), send(ANA, "r2")),
        {"r1": 1, "r2": 1},
        separately=True,
    ),
    "one-batch": Redispatch(
        (call("lookup", {"id": 7}, "c1"),), (send(ANA, "r1"), send(ANA, "r2")), {"r1": 1, "r2": 1}
    ),
}


ZOE = {"to": "zoë@example.com", "subject": 'Grüße ✓ "quoted" \\ back'}

REUSED: dict[str, Redispatch] = {
    "string-result": Redispatch(
        (send(ANA, "c1"),), (send(ANA, "r1"),), {"r1": 0}, answers={"r1": ("c1", "sent")}
    ),
    "map-result": Redispatch(
        (ticket(TICKET, "c1"),),
        (ticket(TICKET, "r1"),),
        {"r1": 0},
        answers={"r1": ("c1", {"id": "T-7", "queue": "ops"})},
        tickets=(output({"id": "T-7", "queue": "ops"}),),
    ),
    "failed-result": Redispatch(
        (send(ANA, "c1"),),
        (send(ANA, "r1"),),
        {"r1": 0},
        answers={"r1": ("c1", "mailbox full")},
        sends=(failure("mailbox full"),),
    ),
    "non-ascii-arguments": Redispatch(
        (send(ZOE, "c1"),),
        (send(ZOE, "r1"),),
        {"r1": 0},
        answers={"r1": ("c1", "envoyé ✓")},
        sends=(output("envoyé ✓"),),
    ),
    "after-a-restart": Redispatch(
        (send(ANA, "c1"),),
        (send(ANA, "r1"),),
        {"r1": 0},
        restart=True,
        answers={"r1": ("c1", "sent")},
    ),
    # Whether a pause ends a chunk or not, the write completed before the cut is in a
    # prior chunk: the answered run must still block it.
    "after-a-pause-in-the-resumed-chunk": Redispatch(
        (send(ANA, "c1"),),
        (send(ANA, "r1"),),
        {"r1": 0},
        pauses=1,
        answers={"r1": ("c1", "sent")},
    ),
    # The answered run pauses again: the run that carries on after the second answer
    # still blocks what the turn completed before its cut.
    "after-two-pauses-in-the-resumed-chunk": Redispatch(
        (send(ANA, "c1"),),
        (send(ANA, "r1"),),
        {"r1": 0},
        pauses=2,
        answers={"r1": ("c1", "sent")},
    ),
}


LOOKUP = {"id": 7}

READS: dict[str, Redispatch] = {
    "re-dispatched": Redispatch(
        (call("lookup", LOOKUP, "c1"),), (call("lookup", LOOKUP, "r1"),), {"r1": 1}
    ),
    "beside-a-blocked-write": Redispatch(
        (send(ANA, "c1"), call("lookup", LOOKUP, "c2")),
        (call("lookup", LOOKUP, "r1"), send(ANA, "r2")),
        {"r1": 1},
    ),
    "interrupted-then-retried": Redispatch(
        (call("lookup", LOOKUP, "c1"),),
        (call("lookup", LOOKUP, "r1"),),
        {"r1": 1},
        last_cut="after_tool_body",
    ),
    "two-chunks-later": Redispatch(
        (call("lookup", LOOKUP, "c1"),),
        (call("lookup", LOOKUP, "r1"),),
        {"r1": 1},
        middle=(send(BO, "c2"),),
    ),
}


NESTED_A = {"title": "Jam", "meta": {"floor": 3, "tags": ["a", "b"]}}
NESTED_B = {"title": "Jam", "meta": {"tags": ["a", "b"], "floor": 3}}
NESTED_C = {"title": "Jam", "meta": {"floor": 3, "tags": ["b", "a"]}}
LONG = "é" * 150  # 300 bytes of UTF-8

MATCHED: dict[str, Redispatch] = {
    "another-position": Redispatch(
        (send(ANA, "c1"), send(BO, "c2")),
        (send(BO, "r1"), send(CY, "r2"), send(ANA, "r3")),
        {"r1": 0, "r2": 1, "r3": 0},
        answers={"r1": ("c2", "sent to bo"), "r3": ("c1", "sent to ana")},
        sends=(output("sent to ana"), output("sent to bo"), output("sent to cy")),
    ),
    "keys-in-another-order": Redispatch(
        (send({"to": "ana@example.com", "subject": "Hi"}, "c1"),),
        (send({"subject": "Hi", "to": "ana@example.com"}, "r1"),),
        {"r1": 0},
    ),
    "nested-keys-in-another-order": Redispatch(
        (ticket(NESTED_A, "c1"),),
        (ticket(NESTED_C, "r2"), ticket(NESTED_B, "r1")),
        {"r2": 1, "r1": 0},
    ),
    "non-ascii-and-escapes": Redispatch(
        (send({"to": "zoë@example.com", "body": 'a\n"b" \\ ✓'}, "c1"),),
        (
            send({"to": "zoé@example.com", "body": 'a\n"b" \\ ✓'}, "r2"),
            send({"to": "zoë@example.com", "body": 'a\n"b" \\ ✓'}, "r1"),
        ),
        {"r2": 1, "r1": 0},
    ),
    "difference-past-300-bytes": Redispatch(
        (send({"to": "ana@example.com", "body": LONG + "1"}, "c1"),),
        (
            send({"to": "ana@example.com", "body": LONG + "2"}, "r2"),
            send({"to": "ana@example.com", "body": LONG + "1"}, "r1"),
        ),
        {"r2": 1, "r1": 0},
    ),
    "number-and-string": Redispatch(
        (ticket({"id": 7}, "c1"),),
        (ticket({"id": "7"}, "r2"), ticket({"id": 7}, "r1")),
        {"r2": 1, "r1": 0},
    ),
    "same-input-other-tool": Redispatch(
        (send(ANA, "c1"),), (ticket(ANA, "r2"), send(ANA, "r1")), {"r2": 1, "r1": 0}
    ),
}


CONSUMED: dict[str, Redispatch] = {
    "two-passes": Redispatch(
        (send(ANA, "c1"),), (send(ANA, "r1"), send(ANA, "r2")), {"r1": 0, "r2": 1}, separately=True
    ),
    "one-batch": Redispatch(
        (send(ANA, "c1"),), (send(ANA, "r1"), send(ANA, "r2")), {"r1": 0, "r2": 1}
    ),
    "two-completions-three-repeats": Redispatch(
        (send(ANA, "c1"), send(ANA, "c2")),
        (send(ANA, "r1"), send(ANA, "r2"), send(ANA, "r3")),
        {"r1": 0, "r2": 0, "r3": 1},
    ),
}


@dataclass(frozen=True)
class Fresh:
    """A turn never interrupted that makes one write again and again."""

    model: tuple[Reply, ...]
    steps: tuple[Step, ...]
    call_ids: tuple[str, ...]


FRESH: dict[str, Fresh] = {
    "two-turns": Fresh(
        (
            calls(send(ANA, "c1")),
            calls(send(ANA, "c2")),
            say("done"),
            calls(send(ANA, "c3")),
            say("done"),
        ),
        (StartTurn("t1"), StartTurn("t2")),
        ("c1", "c2", "c3"),
    ),
    "after-a-pause": Fresh(
        (calls(send(ANA, "c1")), ask("Go on?"), calls(send(ANA, "c2")), say("done")),
        (StartTurn("t1"), Answer("t1")),
        ("c1", "c2"),
    ),
    "after-a-restart": Fresh(
        (calls(send(ANA, "c1")), ask("Go on?"), calls(send(ANA, "c2")), say("done")),
        (StartTurn("t1"), Restart(), Answer("t1")),
        ("c1", "c2"),
    ),
}
