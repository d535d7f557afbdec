"""What a model was told, read from ``model_inputs`` (DR-2, DR-4, DR-5, DR-6).

The durable-resume rules speak of what a resumed run, or a new turn, is told: a note after
the nudge, a history that shows an interruption, a prior turn's calls.  The evidence is
what the model received (``runs[].model_inputs``), never the harness's own account of it
(``resume.note``, ``prior_turn_note``).  A runtime words the note as it likes, so a call is
recognised by its parts: its tool name and every value of its input, each as the text
itself or as JSON (escaped or not).  A message's text is its ``content`` when that is a
string, or the text of its parts when it is a list of parts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.trace import RunRecord
from conformance.toolkit._shown import show

__all__ = [
    "ResumePrompt",
    "leaves",
    "names_call",
    "resume_prompt",
    "shows",
    "text_of",
    "unnamed",
]


def text_of(message: object) -> str:
    """The text of one message: its string ``content``, or the ``text`` of its parts."""
    if not isinstance(message, Mapping):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") if isinstance(p, Mapping) else p for p in content]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def _forms(value: str) -> set[str]:
    """``value`` as a text may carry it: itself, or JSON-escaped (non-ASCII kept or not)."""
    return {value, json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]}


def shows(text: str, value: object) -> bool:
    """Whether ``text`` carries the scalar ``value`` (a string, a number, a boolean)."""
    if isinstance(value, bool):
        return any(word in text for word in (json.dumps(value), str(value)))
    if isinstance(value, int | float):
        return json.dumps(value) in text
    if isinstance(value, str):
        return any(form in text for form in _forms(value) if form)
    return value is None and ("null" in text or "None" in text)


def leaves(value: object) -> list[object]:
    """The scalar values inside a JSON value (keys left out), in order."""
    if isinstance(value, Mapping):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def names_call(text: str, tool: str, args: object) -> bool:
    """Whether ``text`` names the call: its tool name and every non-empty value of its
    input."""
    wanted = [leaf for leaf in leaves(args) if leaf not in ("", None)]
    return shows(text, tool) and all(shows(text, leaf) for leaf in wanted)


@dataclass(frozen=True)
class ResumePrompt:
    """Where a resumed run's first model input holds the nudge, and what follows it.

    ``index`` is the message holding the (last) nudge; ``note`` the text right after the
    nudge: the rest of that message when there is any, else the next message's text
    (docs/interpretations.md#right-after-the-nudge); ``note_index`` the message it is in;
    ``before`` the text of the nudge's message before the nudge.
    """

    messages: tuple[object, ...]
    index: int
    before: str
    note: str
    note_index: int | None

    @property
    def message(self) -> str:
        """The whole text of the message holding the nudge."""
        return text_of(self.messages[self.index])

    @property
    def after(self) -> Sequence[object]:
        """The messages after the one holding the nudge."""
        return self.messages[self.index + 1 :]


def resume_prompt(run: RunRecord, nudge: str) -> ResumePrompt | None:
    """The resume prompt of ``run``'s first model input, or ``None`` when no message
    holds the nudge."""
    if not run.model_inputs:
        return None
    messages = tuple(run.model_inputs[0].messages)
    holding = [i for i, m in enumerate(messages) if nudge in text_of(m)]
    if not holding:
        return None
    index = holding[-1]
    text = text_of(messages[index])
    cut = text.rfind(nudge)
    before, rest = text[:cut], text[cut + len(nudge) :]
    if rest.strip():
        return ResumePrompt(messages, index, before, rest, index)
    if index + 1 < len(messages):
        return ResumePrompt(messages, index, before, text_of(messages[index + 1]), index + 1)
    return ResumePrompt(messages, index, before, "", None)


def unnamed(prompt: ResumePrompt | None, what: str) -> str:
    """A failure message's opening for a note that does not name ``what`` (``the completed
    call send_email {...}``): what the model read right after the nudge, or that nothing
    followed it."""
    if prompt is None:
        return f"the model input holds no nudge, so no note names {what}"
    if not prompt.note.strip():
        return f"nothing follows the nudge, so no note names {what}"
    return f"the note right after the nudge, {show(prompt.note, 160)}, does not name {what}"
