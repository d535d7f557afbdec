"""What an application built on smolagents can serve of a conversation: the agent's memory.

smolagents has no message store and no turn read of its own; an application reads the
agent's memory (``agent.memory.steps``, which ``RunResult.steps`` also returns), one step
at a time.  Each memory step is one row: a ``TaskStep`` is the user's message, an
``ActionStep`` the assistant's step, with the calls it made, the observations the tools
gave back (or the error that ended the step) and its output, as smolagents serialises
them.  The step's timing, token usage and the model's whole input are left out: they are
bookkeeping, not the conversation.  A turn's rows run from its ``TaskStep`` to the next
turn's.  smolagents keeps no turn result: a turn's ``toolArtifacts`` is ``null``.
"""

from __future__ import annotations

from typing import Any

from smolagents import ActionStep, PlanningStep, TaskStep
from smolagents.utils import make_json_serializable

__all__ = ["row_of"]


def row_of(conversation: str, index: int, step: object) -> dict[str, Any]:
    """Memory step ``index`` of ``conversation``'s agent, as a row."""
    row: dict[str, Any] = {"id": f"{conversation}-{index}", "sessionId": conversation}
    if isinstance(step, TaskStep):
        return row | {"role": "user", "content": step.task}
    if isinstance(step, PlanningStep):
        return row | {"role": "assistant", "content": step.plan}
    if isinstance(step, ActionStep):
        return row | {
            "role": "assistant",
            "content": _text(step.model_output),
            "step_number": step.step_number,
            "tool_calls": [call.dict() for call in step.tool_calls or []],
            "observations": step.observations,
            "error": step.error.dict() if step.error is not None else None,
            "action_output": make_json_serializable(step.action_output),
            "is_final_answer": step.is_final_answer,
        }
    return row | {"role": "system", "content": str(step)}


def _text(output: object) -> str:
    if isinstance(output, list):
        return "\n".join(str(part.get("text", "")) for part in output if isinstance(part, dict))
    return "" if output is None else str(output)
