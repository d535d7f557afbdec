"""RT-TOOL-9 ¶1: the record a run keeps is its own.  A provider that numbers its call
identifiers per response (``call_0``, ``call_1``) sends the same identifier in every
conversation; a call of one conversation is never "already recorded" because another
conversation ran a call with that identifier (docs/interpretations.md, guard-scope)."""

from __future__ import annotations

from adapters.scenario import StartTurn
from conformance.toolkit import (
    CheckContext,
    call,
    calls,
    check,
    located_passes,
    located_runs,
    mapping,
    one_turn,
    output,
    say,
    show,
    tool,
)

__all__ = ["check_guard_keeps_to_its_own_conversation"]

CALL_ID = "call_0"
#: What each conversation asks the one tool, and what the tool returns to it.
ASKED: dict[str, tuple[dict[str, object], dict[str, object]]] = {
    "a": ({"customer": "ana"}, {"owner": "ana", "balance": 120}),
    "b": ({"customer": "bo"}, {"owner": "bo", "balance": 7}),
}


@check("RT-TOOL-9#c1")
def check_guard_keeps_to_its_own_conversation(ctx: CheckContext) -> None:
    """A call is skipped only when its own run recorded its identifier: two conversations
    that each send `call_0` (a provider numbering ids per response) each run their call,
    and each is answered with its own output."""
    trace = one_turn(
        ctx,
        "rt9-c1-per-conversation",
        tools=[
            tool(
                "lookup_account",
                *(output(out) for _, out in ASKED.values()),
                schema={"type": "object", "properties": {"customer": {"type": "string"}}},
            )
        ],
        model=[
            reply
            for args, _ in ASKED.values()
            for reply in (calls(call("lookup_account", args, CALL_ID)), say("done"))
        ],
        steps=[StartTurn(f"t-{name}", conversation=name) for name in ASKED],
    )
    clause = (
        "RT-TOOL-9 ¶1: a run records each call *it* has executed; a call another "
        "conversation ran under the same identifier was never executed here"
    )
    # Each conversation's call is found by its identifier, in that conversation's runs:
    # what the tool body received of its arguments is RT-TOOL-8's, not the guard's.
    ran = {
        run.conversation
        for _, run in located_runs(trace)
        for effect in run.side_effects
        if mapping(effect).get("tool") == "lookup_account"
        and mapping(effect).get("tool_call_id") == CALL_ID
    }
    for name, (args, _) in ASKED.items():
        ctx.expect(
            name in ran,
            f"conversation {name}'s call {CALL_ID} lookup_account {show(args)} never ran "
            f"(its body ran under {CALL_ID} in conversations {show(sorted(ran))}); {clause}",
        )
    passes = located_passes(trace)
    ctx.need(len(passes) >= 2, f"two conversations called a tool, {len(passes)} passes reported")
    at, _, second = passes[-1]
    named = [m for m in second.tool_messages if mapping(m).get("tool_call_id") == CALL_ID]
    if not any(isinstance(mapping(m).get("tool_call_id"), str) for m in second.tool_messages):
        # Tool messages that name no call (one observation a step, say) are the pass's one
        # call's: which call a message answers is not this clause's to judge.
        named = list(second.tool_messages)
    content = " ".join(str(mapping(m).get("content")) for m in named)
    theirs, ours = ASKED["a"][1], ASKED["b"][1]
    ctx.expect(
        str(ours["owner"]) in content and str(theirs["owner"]) not in content,
        f"conversation b's tool message for {CALL_ID} reads {show(content, 160)} (at "
        f"{at}/tool_messages), not its own output {show(ours)}; {clause}",
        reading="guard-scope",
    )
