"""Durable resume: what a resumed run is told, and the history it is shown (DR-2, DR-4, DR-6).

The guide leaves the wording open; these are the reference runtime's choices
(docs/durable-resume.md):

* the nudge is :data:`NUDGE`; the note follows it after one blank line;
* a "short result" is the result's prose cut to :data:`SHORT_RESULT` characters;
* an interrupted call shows in the resumed run's history as the declared call answered by
  :data:`INTERRUPTED_PLACEHOLDER`; that is what "the history shows the interruption" means.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from reference_impl.journal import Entry, Journal

__all__ = [
    "INTERRUPTED_PLACEHOLDER",
    "NUDGE",
    "SHORT_RESULT",
    "prior_turn_text",
    "render_note",
    "resume_prompt",
    "short_result",
]

NUDGE = "Continue from where you left off."
SHORT_RESULT = 200
INTERRUPTED_PLACEHOLDER = (
    "[interrupted] This call was cut off before it returned; its outcome is unknown."
)


def short_result(result: object) -> str:
    """A journaled result as the note shows it."""
    if isinstance(result, Mapping) and "success" in result:
        if not result.get("success"):
            text = f"Error: {result.get('error')}"
        else:
            data = result.get("data")
            text = (
                data
                if isinstance(data, str)
                else json.dumps(data, ensure_ascii=False, sort_keys=True)
            )
    else:
        text = (
            result
            if isinstance(result, str)
            else json.dumps(result, ensure_ascii=False, sort_keys=True)
        )
    return text if len(text) <= SHORT_RESULT else text[: SHORT_RESULT - 1] + "…"


def _call_text(entry: Entry) -> str:
    return f"{entry.tool} {json.dumps(entry.input, ensure_ascii=False, sort_keys=True)}"


def render_note(journal: Journal) -> str:
    """The plain-text journal note for a non-empty journal."""
    lines = ["Journal of this turn's earlier attempts:"]
    if journal.completed:
        lines.append("Already completed (reuse these results; do not run them again):")
        lines += [f"- {_call_text(e)} -> {short_result(e.result)}" for e in journal.completed]
    if journal.interrupted:
        lines.append(
            "Interrupted, outcome unknown (verify the current state before assuming "
            "success or failure):"
        )
        lines += [f"- {_call_text(e)}" for e in journal.interrupted]
    return "\n".join(lines)


def resume_prompt(journal: Journal | None, note: Callable[[Journal], str] = render_note) -> str:
    """The resume prompt: the nudge, then the ``note`` on the journal when there is
    anything to say."""
    if journal is None or journal.empty:
        return NUDGE
    return f"{NUDGE}\n\n{note(journal)}"


def prior_turn_text(journal: Journal) -> str:
    """What a new turn's agent is told about the unfinished turn before it (DR-6)."""
    if journal.empty:
        return "The previous turn stopped before it finished; it had made no tool calls."
    return "The previous turn stopped before it finished. " + render_note(journal).replace(
        "Journal of this turn's earlier attempts:", "What it already did:"
    )
