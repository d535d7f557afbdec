"""Shapes of pauses: how a question is asked, what one consent decides, what a paused turn
a newer turn superseded still accepts."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Mapping

from reference_impl import records
from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import signature
from reference_impl.passes import Call, PassContext, PassResult, ToolNode
from reference_impl.records import TurnRow
from reference_impl.shapes._guard import SideBySide
from reference_impl.shapes._model import Shape
from reference_impl.store import new_id

__all__ = ["ASK_TOOL", "SHAPES"]

#: The stopping tool a question is asked through.
ASK_TOOL = "ask_user"


class _AsksThroughATool(Behaviour):
    """Asks the model's question as a call of a stopping tool: the thread declares an
    ``ask_user`` call, the turn pauses on it, and the answer is that call's result."""

    def ask(self, question: str) -> tuple[list[dict[str, object]], dict[str, object]]:
        call_id = f"ask_{new_id()}"
        call = {"name": ASK_TOOL, "args": {"question": question}, "tool_call_id": call_id}
        entry: dict[str, object] = {"role": "assistant", "content": "", "tool_calls": [call]}
        pending: dict[str, object] = {
            "kind": "question",
            "message": question,
            "tool": ASK_TOOL,
            "toolCallId": call_id,
        }
        return [entry], pending

    def answer_entries(self, value: str, pending: Mapping[str, object]) -> list[dict[str, object]]:
        call_id = pending.get("toolCallId")
        if not isinstance(call_id, str):
            return super().answer_entries(value, pending)
        return [{"role": "tool", "tool_call_id": call_id, "content": value}]


def _consent_key(call: Call, args: object) -> str:
    return hashlib.sha256(signature(call.name, args).encode()).hexdigest()


class _OneDecisionForTheBatch(ToolNode):
    """One approval (or decline) decides every gated call of the batch: the decision the
    operator gave the call the node paused on is given to each gated call after it."""

    def __init__(self) -> None:
        super().__init__()
        self._batch = threading.local()  # per thread: two clients may run passes at once

    def run_pass(self, ctx: PassContext, batch: list[object]) -> PassResult:
        self._batch.calls = batch
        return super().run_pass(ctx, batch)

    def consent(self, ctx: PassContext, call: Call, args: object) -> tuple[str, str | None]:
        decision, reason = super().consent(ctx, call, args)
        mine = _consent_key(call, args)
        later = False
        with ctx.store.transaction() as conn:
            for raw in getattr(self._batch, "calls", []):
                other = self.parse_call(raw)
                tool = None if other is None else ctx.workflow.tool(other.name)
                if other is None or tool is None or not tool.gate:
                    continue
                key = _consent_key(other, self.normalizer.normalize(other.args, tool.input_schema))
                if later and key != mine:
                    records.put_consent(conn, ctx.turn_id, key, decision, reason)
                later = later or key == mine
        return decision, reason


class _ConsentPerCallId(SideBySide):
    """Keys a consent by the call's identifier and keeps it for the turn: approving the
    call the node paused on approves every call declared under that identifier, and the
    batch runs side by side, so a second call under the same identifier runs too."""

    def consent(self, ctx: PassContext, call: Call, args: object) -> tuple[str, str | None]:
        if call.id is None:
            return super().consent(ctx, call, args)
        with ctx.store.transaction() as conn:
            decision = records.take_consent(conn, ctx.turn_id, _consent_key(call, args))
            by_id = f"id:{call.id}"
            if decision is not None:  # the operator's decision on the paused call
                records.put_consent(conn, ctx.turn_id, by_id, *decision)
            else:
                decision = records.take_consent(conn, ctx.turn_id, by_id)
                if decision is not None:
                    records.put_consent(conn, ctx.turn_id, by_id, *decision)
        if decision is None:
            return super().consent(ctx, call, args)  # asks: pauses the node
        return decision


class _DeclinesWithoutReason(ToolNode):
    """A decline is a plain no: the declined call's result carries no reason."""

    def declined(self, reason: str | None) -> dict[str, object]:
        return self.policy.tool_result(
            success=False, output=None, error="This tool call is rejected."
        )


class _LatestTurnOnly(Behaviour):
    """Resumes a paused turn only while it is the conversation's latest: once a new
    message started a newer turn, an answer or a decision on the older one is refused."""

    def may_resume(self, conn: sqlite3.Connection, turn: TurnRow) -> bool:
        turns = records.list_turns(conn, turn.conversation_id)
        return bool(turns) and turns[-1].id == turn.id


SHAPES: tuple[Shape, ...] = (
    Shape(
        "question-as-a-stopping-tool",
        "legal",
        "the model's question is a call of a stopping tool (ask_user): the thread declares "
        "the call, the turn pauses on it, and the answer comes back as that call's result",
        (
            "ADK (adk_request_input, a long-running tool)",
            "PydanticAI (a deferred tool call, CallDeferred)",
        ),
        ("RT-TOOL-7#c1",),
        "no clause says how a question is put to the user; the pause is a pause "
        '("Artifacts produced before a run pauses are held", RT-TOOL-7 ¶1), and the stopping '
        "call is the runtime's own, not a call of the model's batch: it is neither run as "
        "a tool nor guarded",
        lambda: Components(behaviour=_AsksThroughATool()),
    ),
    Shape(
        "one-decision-for-every-gate",
        "legal",
        "one approval (or decline) decides every gated call of the batch: the operator's "
        "decision on the call the turn paused on is given to each gated call after it",
        ("PydanticAI (DeferredToolResults carries a decision for every deferred call at once)",),
        ("RT-TOOL-9#c4", "RT-TOOL-2#c5"),
        'no clause says what one consent covers; each call is still "re-asked and executed '
        'once approved" (RT-TOOL-9 ¶4), and a call the decision declined carries no '
        "artifacts (RT-TOOL-2 ¶5). A later decline step finds nothing left to decide",
        lambda: Components(node=_OneDecisionForTheBatch()),
    ),
    Shape(
        "consent-keyed-by-call-id",
        "legal",
        "a consent is keyed by the call's identifier and lasts the turn, and a batch runs "
        "side by side: approving one of two gated calls that share an identifier runs the "
        "other as well",
        (),
        ("RT-TOOL-9#c1", "RT-TOOL-9#c4"),
        "no clause says what a consent covers, and RT-TOOL-9 keys a call by its identifier "
        '("A run records each tool call it has executed, keyed by the call identifier", ¶1): '
        "two calls under one identifier are, to it, one call. A batch run side by side may "
        "run an identifier repeated inside it twice (interpretations: same-batch-repeats)",
        lambda: Components(node=_ConsentPerCallId()),
    ),
    Shape(
        "decline-without-a-reason",
        "legal",
        "a declined call's result is a plain refusal that carries no reason",
        ("ADK (tool confirmation is a yes or a no: 'This tool call is rejected.')",),
        ("RT-TOOL-2#c5",),
        'RT-TOOL-2 ¶5 asks of a declined call only that it "carries no artifacts"; no clause '
        "says what its result tells the model",
        lambda: Components(node=_DeclinesWithoutReason()),
    ),
    Shape(
        "superseded-paused-turn-refused",
        "legal",
        "a paused turn that a newer turn of its conversation superseded can no longer be "
        "answered, approved or declined: the step is refused",
        ("LangGraph and PydanticAI (as their harnesses drive them)",),
        ("RT-TOOL-7#c1",),
        "no clause speaks of a paused turn a newer one superseded (docs/mapping-a-framework.md: "
        '"none of these is a verdict by itself"); its held artifacts stay held, never '
        "exposed (RT-TOOL-7 ¶1)",
        lambda: Components(behaviour=_LatestTurnOnly()),
    ),
)
