"""DR-4 ¶2 across a pause in the resumed chunk.  A write is cut after its body ran; the
resumed run sends it again identically (refused), then pauses (the model asks the
operator a question, or a gated call waits for approval); once the operator answers,
the model sends the identical write once more.

Whether the pause ends the chunk, the text does not say (docs/rules.md).  Either way the
run the answer starts is a run of the interrupted turn, resuming it, and its history
still shows the interrupted call (and the refusal, which told the model the outcome is
unknown): the suite already refuses a retry two chunks after the cut, and a pause is no
more than a chunk boundary at most.  So the identical write is refused there too: a
refusal that stops holding once the resumed run pauses would let through the blind
resend of a write whose outcome is unknown that the clause exists to stop."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import Approve, FailLedgerRead, StartTurn
from adapters.trace import RunRecord, Trace
from conformance.checks.dr_4._calls import ANA
from conformance.checks.dr_4._history import (
    FIRST,
    GUARD,
    expect_not_reported_succeeded,
    shows_the_interrupted_call,
)
from conformance.toolkit import (
    CHUNK_PAUSES,
    CONTINUES_ON_ITS_OWN,
    CheckContext,
    ChunkPause,
    Untested,
    calls,
    check,
    cut,
    listing,
    located_runs,
    mapping,
    one_turn,
    output,
    ran,
    resume,
    runs_of,
    say,
    send,
    show,
    tool,
)

__all__ = ["check_gated_retry_refused_once_approved", "check_refusal_outlasts_a_pause"]


def _dispatching(trace: Trace, call_id: str) -> tuple[str, RunRecord] | None:
    """The run of turn t1 whose batches sent ``call_id``."""
    for at, run in located_runs(trace):
        sent = {str(mapping(c).get("tool_call_id")) for one in run.passes for c in one.batch}
        if run.turn == "t1" and call_id in sent:
            return at, run
    return None


def _sent_from_the_history(
    ctx: CheckContext, trace: Trace, call_id: str, when: str, otherwise: str
) -> str:
    """The pointer of the run of turn t1 that sent the retry ``call_id`` from a history
    showing the interrupted call; the case is untested without one."""
    found = _dispatching(trace, call_id)
    if found is None:
        said, _ = runs_of(trace, call_id)
        raise Untested(
            f"no run of turn t1 sent the retry {call_id} {when} (it {said}): {otherwise}"
        )
    at, run = found
    if not shows_the_interrupted_call(ctx, run):
        raise Untested(
            f"the history the retry {call_id} was sent from does not mention the interrupted "
            "call; DR-4 ¶2 refuses a retry only when it shows the interruption"
        )
    return at


@dataclass(frozen=True)
class Paused:
    """How the resumed run pauses, and whether the ledger read fails as the answer carries
    the paused chunk on (its journal then knows nothing; its history still shows the
    interruption)."""

    pause: ChunkPause
    unreadable: bool = False


PAUSED: dict[str, Paused] = {
    **{name: Paused(pause) for name, pause in CHUNK_PAUSES.items()},
    "after-a-question-the-ledger-unreadable": Paused(ChunkPause(), unreadable=True),
}


@check("DR-4#c2", variants=PAUSED, through=(CONTINUES_ON_ITS_OWN,))
def check_refusal_outlasts_a_pause(ctx: CheckContext, variant: Paused) -> None:
    """A refusal holds after the resumed run pauses: the identical retry sent once the
    operator answers, from a history that still shows the interruption, does not run,
    even where the ledger cannot be read as the answer carries the chunk on."""
    pause = variant.pause
    trace = one_turn(
        ctx,
        "dr4-c2-across-a-pause",
        tools=pause.tools(),
        model=[
            calls(send(ANA, FIRST)),
            calls(send(ANA, "r1")),
            pause.reply("Should I try the email again?"),
            calls(send(ANA, "r2")),
            say("done"),
        ],
        steps=[
            cut("after_tool_body", on="send_email"),
            StartTurn("t1"),
            resume(ctx, "time_limit"),
            *([FailLedgerRead()] if variant.unreadable else []),
            pause.answer("t1"),
        ],
    )
    if ran(trace, "r1"):
        raise Untested(
            "the identical retry r1 sent before the pause ran, so no refusal preceded the "
            "pause (guard-only-when-history-shows judges that retry)"
        )
    at = _sent_from_the_history(
        ctx, trace, "r2", "after the operator answered", "the turn did not carry on past the pause"
    )
    where = ran(trace, "r2")
    ctx.expect(
        not where,
        f"the identical retry r2 of the interrupted send_email {show(dict(ANA))}, sent after "
        f"the pause, ran (at {listing(where)}), though the history it was sent from shows "
        f"the interrupted call (at {at}/model_inputs/0) and an earlier retry was refused; "
        f"{GUARD}, and a pause does not end that",
        at=where[0] if where else None,
        reading="history-shows-the-interruption",
    )
    expect_not_reported_succeeded(ctx, trace, "r2", bool(where))


@check("DR-4#c2", through=(CONTINUES_ON_ITS_OWN,))
def check_gated_retry_refused_once_approved(ctx: CheckContext) -> None:
    """The interrupted write is itself behind a consent gate: its identical retry in the
    resumed run waits for approval, and once approved it does not run, since the history
    the run carries on from still shows the interruption (refusing it before the gate is
    as good)."""
    trace = one_turn(
        ctx,
        "dr4-c2-gated-retry",
        tools=[tool("send_email", output("sent"), output("sent again"), gate=True)],
        model=[calls(send(ANA, FIRST)), calls(send(ANA, "r1")), say("done")],
        steps=[
            cut("after_tool_body", on="send_email"),
            StartTurn("t1"),
            Approve("t1"),
            resume(ctx, "time_limit"),
            Approve("t1"),
        ],
    )
    if not ran(trace, FIRST):
        raise Untested("the first send_email did not run once approved, so nothing was interrupted")
    at = _sent_from_the_history(ctx, trace, "r1", "after the cut", "the turn did not resume")
    where = ran(trace, "r1")
    ctx.expect(
        not where,
        f"the identical retry r1 of the interrupted send_email {show(dict(ANA))}, held for "
        f"approval and then approved, ran (at {listing(where)}), though the history it was "
        f"sent from shows the interrupted call (at {at}/model_inputs/0); {GUARD}, and an "
        "approval carries on from that history",
        at=where[0] if where else None,
        reading="history-shows-the-interruption",
    )
