"""The turns and ledgers DR-1's checks play: what each clause quantifies over, as data
(the checks themselves are in :mod:`conformance.checks.dr_1`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adapters.scenario import Answer, Reply, Restart, Return, StartTurn, Step, Wait
from conformance.checks.dr_1._ledger import done, start
from conformance.toolkit import (
    ask,
    call,
    calls,
    cut,
    failure,
    say,
    send,
    ticket,
)

__all__ = [
    "ANA",
    "BO",
    "CLASSIFIED",
    "CLEARED",
    "NESTED",
    "PAIRED",
    "READS",
    "RECORDINGS",
    "TICKET",
    "JournalRead",
    "Probe",
    "Recording",
]

# The arguments the scenarios give ``send_email`` and ``create_ticket``.
ANA: Mapping[str, object] = {"to": "ana@example.com"}
BO: Mapping[str, object] = {"to": "bo@example.com"}
TICKET: Mapping[str, object] = {"title": "Printer jam"}

NESTED = {"title": "Imprimante bloquée — 2ᵉ étage", "meta": {"floor": 2, "tags": ["urgent", "ops"]}}


@dataclass(frozen=True)
class Recording:
    """A turn whose tool calls the ledger must record: ``model`` and ``steps`` play it,
    ``outputs`` are what each call's tool returns (by call id), ``cut_before`` the call
    cut before its body ran."""

    model: tuple[Reply, ...]
    steps: tuple[Step, ...] = (StartTurn("t1"),)
    tickets: tuple[Return, ...] = ()
    outputs: Mapping[str, object] = field(default_factory=dict)
    cut_before: str | None = None


RECORDINGS: dict[str, Recording] = {
    "cut-before-the-body": Recording(
        (calls(send(ANA, "c1")), calls(send(BO, "c2")), say("done")),
        (cut("before_tool_body", on="send_email", nth=2), StartTurn("t1")),
        outputs={"c1": "sent"},
        cut_before="c2",
    ),
    "several-calls-in-one-batch": Recording(
        (
            calls(
                send(ANA, "c1"),
                call("lookup", {"id": 7}, "c2"),
                ticket(NESTED, "c3"),
                send(ANA, "c4"),
            ),
            say("done"),
        ),
        outputs={"c1": "sent", "c2": "order 7: shipped", "c3": "T-1", "c4": "sent"},
    ),
    "recoverable-failure": Recording(
        (calls(ticket(TICKET, "c1")), say("done")),
        tickets=(failure("the queue is closed"),),
        outputs={"c1": "the queue is closed"},
    ),
    "resumed-chunk": Recording(
        (calls(send(ANA, "c1")), calls(send(BO, "c2")), say("done")),
        (cut("during_model_call", nth=2), StartTurn("t1"), Wait()),
        outputs={"c1": "sent", "c2": "sent"},
    ),
    "after-a-restart": Recording(
        (calls(send(ANA, "c1")), ask("Go on?"), calls(send(BO, "c2")), say("done")),
        (StartTurn("t1"), Restart(), Answer("t1")),
        outputs={"c1": "sent", "c2": "sent"},
    ),
}


@dataclass(frozen=True)
class JournalRead:
    """A turn whose resumed chunks read the journal: ``unreturned`` calls were cut after
    their body ran (a start and no done); ``probe`` also classifies one ledger twice."""

    model: tuple[Reply, ...]
    steps: tuple[Step, ...]
    unreturned: int = 0
    probe: bool = False


READS: dict[str, JournalRead] = {
    "answered-from-the-journal": JournalRead(
        (
            calls(send(ANA, "c1"), call("lookup", {"id": 7}, "c2")),
            # r1 repeats c1: answered from the journal where DR-3 holds, run where it does
            # not; either way, the ledger must show only the bodies that really ran.
            calls(send(ANA, "r1"), send(BO, "c3")),
            say("done"),
        ),
        (cut("after_tool_done", on="lookup"), StartTurn("t1"), Wait()),
        probe=True,
    ),
    "refused-retry": JournalRead(
        (calls(send(ANA, "c1")), calls(send(ANA, "r1")), say("done")),
        (cut("after_tool_body", on="send_email"), StartTurn("t1"), Wait()),
        unreturned=1,
    ),
    "two-resumed-chunks": JournalRead(
        (
            calls(send(ANA, "c1")),
            calls(send(ANA, "r1"), call("lookup", {"id": 7}, "c2")),
            calls(send(ANA, "r2"), ticket(TICKET, "c3")),
            say("done"),
        ),
        (
            cut("after_tool_done", on="send_email"),
            cut("after_tool_done", on="lookup"),
            StartTurn("t1"),
            Wait(),
        ),
    ),
}


@dataclass(frozen=True)
class Probe:
    """A ledger handed to the journal probe, and the journal DR-1 reads from it."""

    events: tuple[dict[str, object], ...]
    completed: tuple[tuple[str, object, object], ...] = ()
    interrupted: tuple[tuple[str, object], ...] = ()


ZOE = {"to": "zoë@example.com", "body": 'line one\nline "two" \\ ✓'}
FAILED = {"success": False, "data": None, "error": "mailbox full"}

CLASSIFIED: dict[str, Probe] = {
    "one-of-each": Probe(
        (start("send_email", ANA), done("send_email", "sent"), start("create_ticket", TICKET)),
        (("send_email", ANA, "sent"),),
        (("create_ticket", TICKET),),
    ),
    "interleaved-tools": Probe(
        (
            start("send_email", ANA),
            start("lookup", {"id": 7}),
            start("create_ticket", TICKET),
            done("lookup", {"result": "shipped"}),
            done("send_email", "sent"),
        ),
        (("lookup", {"id": 7}, {"result": "shipped"}), ("send_email", ANA, "sent")),
        (("create_ticket", TICKET),),
    ),
    "failed-and-falsy-results": Probe(
        (
            start("send_email", ANA),
            done("send_email", FAILED),
            start("create_ticket", {"title": "a"}),
            done("create_ticket", ""),
            start("create_ticket", {"title": "b"}),
            done("create_ticket", 0),
        ),
        (
            ("send_email", ANA, FAILED),
            ("create_ticket", {"title": "a"}, ""),
            ("create_ticket", {"title": "b"}, 0),
        ),
    ),
    "identical-calls": Probe(
        (start("send_email", ANA), start("send_email", ANA), done("send_email", "sent")),
        (("send_email", ANA, "sent"),),
        (("send_email", ANA),),
    ),
    "nested-non-ascii-inputs": Probe(
        (start("create_ticket", NESTED), done("create_ticket", "T-9"), start("send_email", ZOE)),
        (("create_ticket", NESTED, "T-9"),),
        (("send_email", ZOE),),
    ),
}


PAIRED: dict[str, Probe] = {
    "oldest-open-start": Probe(
        (
            start("send_email", ANA),
            start("create_ticket", {"t": 1}),
            start("send_email", BO),
            done("send_email", "sent"),
            done("create_ticket", "T-1"),
        ),
        (("send_email", ANA, "sent"), ("create_ticket", {"t": 1}, "T-1")),
        (("send_email", BO),),
    ),
    "three-open-two-done": Probe(
        (
            start("send_email", ANA),
            start("send_email", BO),
            start("send_email", {"to": "cy@example.com"}),
            done("send_email", "first"),
            done("send_email", "second"),
        ),
        (("send_email", ANA, "first"), ("send_email", BO, "second")),
        (("send_email", {"to": "cy@example.com"}),),
    ),
    "done-of-another-tool-between": Probe(
        (start("send_email", ANA), start("create_ticket", TICKET), done("create_ticket", "T-1")),
        (("create_ticket", TICKET, "T-1"),),
        (("send_email", ANA),),
    ),
}


CLEAR: dict[str, object] = {"event": "clear"}
CLEARED: dict[str, Probe] = {
    "clear-then-a-new-start": Probe(
        (
            start("create_ticket", {"title": "a"}),
            CLEAR,
            start("create_ticket", {"title": "b"}),
            done("create_ticket", "T-2"),
        ),
        (("create_ticket", {"title": "b"}, "T-2"),),
    ),
    "done-after-a-clear": Probe(
        (start("create_ticket", {"title": "a"}), CLEAR, done("create_ticket", "T-9")),
    ),
    "two-tools-open": Probe(
        (
            start("send_email", ANA),
            start("create_ticket", TICKET),
            CLEAR,
            done("send_email", "sent"),
        ),
    ),
    "completed-before-the-clear": Probe(
        (
            start("send_email", ANA),
            done("send_email", "sent"),
            start("create_ticket", TICKET),
            CLEAR,
        ),
        (("send_email", ANA, "sent"),),
    ),
    # A clear may name a tool (the trace schema lets any ledger event carry one); it is a
    # clear all the same, never a done of that tool, and it resets every open call.
    "clear-naming-the-open-tool": Probe(
        (
            start("create_ticket", {"title": "a"}),
            {**CLEAR, "tool": "create_ticket"},
            start("create_ticket", {"title": "b"}),
            done("create_ticket", "T-2"),
        ),
        (("create_ticket", {"title": "b"}, "T-2"),),
    ),
    "clear-naming-another-tool": Probe(
        (start("create_ticket", {"title": "a"}), {**CLEAR, "tool": "send_email"}),
    ),
}
