"""One run in a timeline: how it began and ended, what it was told when it resumed, its
tool passes with each call's result, its side effects, and the model's inputs
(collapsed).

The element a failure lands on is highlighted, carries its JSON pointer (``data-at``)
and shows the failure's message inside it (:class:`Marks`).  Lists are
capped (a capped list says how many it left out), but an element a failure lands on is
always drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.trace import ModelInput, Note, PassRecord, RunRecord, ToolResultRecord
from conformance._escape import html_text
from conformance.report._timeline_values import LONG_CHARS, code, plain
from conformance.report._timeline_where import Mark

__all__ = ["LISTED", "Marks", "element", "flags", "left_out", "part", "run_html"]

#: Items of one list drawn (results of a pass, side effects, messages, model inputs).
LISTED = 24
_MODEL_MESSAGES = 3  # new messages listed per model input (the last ones)
_MODEL_CHARS = 120  # characters of each


@dataclass(frozen=True)
class Marks:
    """The failures of one timeline, by the pointer of the element each lands on."""

    by_anchor: Mapping[str, tuple[Mark, ...]]

    def at(self, pointer: str) -> tuple[Mark, ...]:
        """The failures that land on the element at ``pointer``."""
        return self.by_anchor.get(pointer, ())

    def within(self, pointer: str) -> bool:
        """Whether a failure lands on the element at ``pointer`` or inside it."""
        prefix = pointer + "/"
        return any(anchor == pointer or anchor.startswith(prefix) for anchor in self.by_anchor)


def flags(marks: Sequence[Mark]) -> str:
    """Each failure's message (and the values it compared) where it landed."""
    out = []
    for mark in marks:
        versus = ""
        if mark.expected is not None and mark.got is not None:
            versus = (
                '<dl class="versus"><dt>expected</dt>'
                f"<dd><code>{plain(mark.expected, LONG_CHARS)}</code></dd>"
                f"<dt>got</dt><dd><code>{plain(mark.got, LONG_CHARS)}</code></dd></dl>"
            )
        out.append(
            f'<div class="flag" data-failure="{mark.number}">'
            f"<strong>✖ failure {mark.number}:</strong> "
            f"{plain(mark.message, 1000)}{versus}</div>"
        )
    return "".join(out)


def element(tag: str, kind: str, at: str, marks: Marks, extra: str = "") -> tuple[str, str]:
    """The opening tag of an element drawn for ``at``, highlighted when a failure lands
    on it, and the failures' flags to put inside it."""
    hit = marks.at(at)
    if not hit:  # only where a failure landed: a pointer on every element doubles a page
        return f'<{tag} class="{kind}"{extra}>', ""
    return f'<{tag} class="{kind} hit" data-at="{html_text(at)}"{extra}>', flags(hit)


def part(label: str, body: str, at: str, marks: Marks) -> str:
    """A labelled line (``ports: {...}``) drawn for the pointer ``at``."""
    head, flagged = element("div", "tl-part", at, marks)
    return f'{head}<span class="k">{html_text(label)}</span>{body}{flagged}</div>'


def left_out(count: int, what: str) -> str:
    """The line that says a capped list left ``count`` items out."""
    if count <= 0:
        return ""
    return f'<li class="tl-note">… and {count} more {html_text(what)} not shown</li>'


def _listed(count: int, base: str, marks: Marks) -> list[int]:
    """The indexes of a list drawn: the first :data:`LISTED`, and any a failure lands on."""
    return [i for i in range(count) if i < LISTED or marks.within(f"{base}/{i}")]


def _note(note: Note) -> str:
    return (
        f"completed {code(list(note.completed), LONG_CHARS)}, "
        f"interrupted {code(list(note.interrupted), LONG_CHARS)}"
    )


def _tool(name: object) -> str:
    """A tool's name as code (a name that is not a string, as JSON)."""
    return f"<code>{plain(name)}</code>" if isinstance(name, str) else code(name)


def _result_row(result: ToolResultRecord, at: str, marks: Marks) -> str:
    head, flagged = element("tr", "tl-call", at, marks)
    generated = " (made up by the runtime)" if result.generated_id else ""
    arguments = "" if result.arguments is None else code(result.arguments)
    call = plain(result.tool_call_id or "none") + generated
    return (
        f"{head}<td><code>{call}</code></td><td>{_tool(result.tool)}</td>"
        f"<td>{html_text(result.disposition)}</td><td>{arguments}</td>"
        f"<td>{code(result.result)}{flagged}</td></tr>"
    )


def _odd_batch(one: PassRecord) -> bool:
    """Whether the batch says more than its results: a call without a result, or one
    that is not a well-formed call (each result shows its call otherwise)."""
    if len(one.batch) != len(one.results):
        return True
    for call, result in zip(one.batch, one.results, strict=True):
        if not isinstance(call, dict) or call.get("name") != result.tool:
            return True
    return False


def _pass(number: int, one: PassRecord, at: str, marks: Marks) -> list[str]:
    head, flagged = element("li", "tl-pass", at, marks)
    tags = ""
    if one.paused:
        tags += '<span class="tag tag-pause">paused here</span>'
    if one.cut:
        tags += '<span class="tag tag-cut">cut off here: only the calls below returned</span>'
    calls = len(one.batch)
    lines = [
        head,
        f"<div>pass {number + 1}: {calls} call{'s' * (calls != 1)} in the batch{tags}</div>",
        flagged,
    ]
    shown = _listed(len(one.results), f"{at}/results", marks)
    if shown:
        lines.append(
            '<table class="tl-calls"><thead><tr><th>call</th><th>tool</th><th>disposition</th>'
            "<th>arguments</th><th>result</th></tr></thead><tbody>"
        )
        lines += [_result_row(one.results[i], f"{at}/results/{i}", marks) for i in shown]
        lines.append("</tbody></table>")
        if len(shown) < len(one.results):
            lines.append(f'<p class="tl-note">{len(one.results) - len(shown)} more results</p>')
    if _odd_batch(one) or marks.within(f"{at}/batch"):
        lines.append(part("batch", code(list(one.batch), LONG_CHARS), f"{at}/batch", marks))
    for name, value in (("ports", one.ports), ("exposed", one.exposed), ("outcome", one.outcome)):
        lines.append(part(name, code(value, LONG_CHARS), f"{at}/{name}", marks))
    written = code(list(one.tool_messages), LONG_CHARS)
    lines.append(part("tool messages written", written, f"{at}/tool_messages", marks))
    return [*lines, "</li>"]


def _inputs(inputs: Sequence[ModelInput], at: str, marks: Marks) -> list[str]:
    """The model's inputs, collapsed: each call's message count and what it added."""
    opened = " open" if marks.within(at) else ""
    head, flagged = element("details", "tl-part", at, marks, opened)
    count = len(inputs)
    lines = [head, f"<summary>the model was called {count} time{'s' * (count != 1)}</summary>"]
    lines += [flagged, '<ol class="tl-list">']
    before: tuple[object, ...] = ()
    for index in _listed(count, at, marks):
        messages = inputs[index].messages
        earlier = index > 0 and messages[: len(before)] == before
        new = messages[len(before) :] if earlier else messages
        said = "new: " if earlier else ""
        listed = ", ".join(code(m, _MODEL_CHARS) for m in new[-_MODEL_MESSAGES:])
        skipped = (
            f"{len(new) - _MODEL_MESSAGES} earlier, then " if len(new) > _MODEL_MESSAGES else ""
        )
        item, item_flags = element("li", "tl-input", f"{at}/{index}", marks)
        sent = f"{len(messages)} message{'s' * (len(messages) != 1)}"
        lines.append(f"{item}{sent}; {said}{skipped}{listed}{item_flags}</li>")
        before = messages
    lines.append(left_out(count - len(_listed(count, at, marks)), "model calls"))
    return [*lines, "</ol>", "</details>"]


def run_html(run: RunRecord, at: str, marks: Marks) -> list[str]:
    """One run of a step, with everything it did."""
    head, flagged = element("div", "tl-run", at, marks)
    ended = run.end
    tag = {"paused": "tag-pause", "interrupted": "tag-cut", "failed": "tag-fail"}.get(ended)
    said = f"ended {html_text(ended)}"
    end = f'<span class="tag {tag}">{said}</span>' if tag else said
    where = "" if run.conversation == "main" else f" in conversation {plain(run.conversation)}"
    lines = [
        head,
        f"<div><strong>run <code>{plain(run.id)}</code></strong> of turn "
        f"<code>{plain(run.turn)}</code>{where}: began by {html_text(run.cause)}, {end}</div>",
        flagged,
    ]
    if run.resume is not None:
        told = f"the nudge {code(run.resume.nudge, LONG_CHARS)}"
        if run.resume.note is not None:
            told += f" and a journal note: {_note(run.resume.note)}"
        label = "told on resuming"
        lines.append(
            part(
                label, f'<span class="tag tag-resume">resumed</span> {told}', f"{at}/resume", marks
            )
        )
    if run.prior_turn_note is not None:
        note = _note(run.prior_turn_note)
        lines.append(part("told of an earlier turn", note, f"{at}/prior_turn_note", marks))
    if run.interruption is not None:
        lines.append(
            part("cut by", code(run.interruption, LONG_CHARS), f"{at}/interruption", marks)
        )
    if run.passes:
        lines.append('<ol class="tl-passes">')
        for k in _listed(len(run.passes), f"{at}/passes", marks):
            lines += _pass(k, run.passes[k], f"{at}/passes/{k}", marks)
        lines += [
            left_out(
                len(run.passes) - len(_listed(len(run.passes), f"{at}/passes", marks)), "passes"
            ),
            "</ol>",
        ]
    if run.side_effects:
        lines.append(
            '<div class="tl-part"><span class="k">tool bodies ran</span></div><ol class="tl-list">'
        )
        shown = _listed(len(run.side_effects), f"{at}/side_effects", marks)
        for m in shown:
            item, item_flags = element("li", "tl-effect", f"{at}/side_effects/{m}", marks)
            lines.append(f"{item}{code(run.side_effects[m])}{item_flags}</li>")
        lines += [left_out(len(run.side_effects) - len(shown), "side effects"), "</ol>"]
    if run.model_inputs:
        lines += _inputs(run.model_inputs, f"{at}/model_inputs", marks)
    return [*lines, "</div>"]
