"""What DR-2 reads of a resume prompt beyond the note: the messages a runtime appended
after the nudge's message (¶4: nothing, for an empty journal), and the length up to which
a result is short already (¶2)."""

from __future__ import annotations

from adapters.trace import RunRecord, Trace
from conformance.toolkit import ResumePrompt

__all__ = ["SHORT", "appended"]

#: A result whose text is at most this many characters is short already: the note shows it
#: whole (docs/interpretations.md#short-result).
SHORT = 40


def appended(trace: Trace, run: RunRecord, prompt: ResumePrompt) -> list[tuple[int, object]]:
    """The messages after the nudge's message that are new: no other run's model input
    held them (a runtime may put history after the nudge, never a note of its own)."""
    seen = [
        m
        for other in trace.runs()
        if other is not run
        for i in other.model_inputs
        for m in i.messages
    ]
    start = prompt.index + 1
    return [(start + k, m) for k, m in enumerate(prompt.after) if m not in seen]
