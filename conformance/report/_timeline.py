"""The timeline of a trace: one row per scenario step, with what the runtime did in it.

Each row is a step of the scenario (``start_turn``, ``answer``, ``restart``, ``poll``,
...) with its outcome, then the runs it made (:mod:`._timeline_runs`), the lists the
runtime held after it, its warnings and answers (a poll, a journal), and the wire as read
after the step (only what changed since the step before).  Steps the implementation never
answered (an error ended the scenario) are listed too.  The element a failure points at
is highlighted, its message and the values it compared beside it; the step holding it
carries ``data-hit``.

Everything is a pure function of the decoded evidence and the failures: no file is read.
The size is bounded: at most :data:`STEPS` rows, lists capped, values cut with a
visible marker, and past :data:`TIMELINE_CHARS` the remaining steps show their heading
only (a step a failure lands on is always drawn in full).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from adapters.codec import to_json
from adapters.scenario import Scenario, Step
from adapters.trace import StepRecord, TurnWire
from conformance._escape import html_text
from conformance.report._drawn import DrawnEvidence
from conformance.report._timeline_runs import (
    LISTED,
    Marks,
    element,
    flags,
    left_out,
    part,
    run_html,
)
from conformance.report._timeline_values import LONG_CHARS, VALUE_CHARS, code, plain
from conformance.report._timeline_where import Mark, step_words

__all__ = ["STEPS", "TIMELINE_CHARS", "timeline_html"]

#: Steps drawn as rows (past it, only the steps failures land on).
STEPS = 200
#: Characters of one timeline past which the remaining steps show their heading only.
TIMELINE_CHARS = 150_000
_OUTCOME_TAGS = {"refused": "tag-cut", "failed": "tag-fail", "crashed": "tag-fail"}


def _arguments(step: Step) -> str:
    """A scenario step's parameters, ``turn=t1 value="yes"``."""
    raw = to_json(step)
    fields = raw if isinstance(raw, dict) else {}
    said = [
        f"{html_text(str(key))}={code(value, 80)}"
        for key, value in fields.items()
        if key != "op" and value is not None
    ]
    return " ".join(said)


def _head(index: int, scenario_step: Step | None, step: StepRecord | None) -> str:
    op = scenario_step.op if scenario_step is not None else (step.op if step else "?")
    args = _arguments(scenario_step) if scenario_step is not None else ""
    if step is None:
        outcome = '<span class="tl-unanswered">not answered</span>'
    elif step.outcome in _OUTCOME_TAGS:
        outcome = (
            f'<span class="tag {_OUTCOME_TAGS[step.outcome]}">{html_text(step.outcome)}</span>'
        )
    else:
        outcome = f'<span class="muted">{html_text(step.outcome)}</span>'
    return (
        f'<div class="tl-head"><span class="n">step {index + 1}</span>{html_text(op)} '
        f'<span class="args">{args}</span> {outcome}</div>'
    )


#: A message row's keys shown first (what was said), before its ids and times.
_SAID = ("role", "content", "metadata")


def _said_first(message: object) -> object:
    """A message row with what it says first: a cut value keeps its words, not its ids
    (the keys' order on the wire is the trace's, not this)."""
    if not isinstance(message, dict):
        return message
    first = {key: message[key] for key in _SAID if key in message}
    return {**first, **{key: value for key, value in message.items() if key not in first}}


def _changed(now: TurnWire, before: TurnWire | None) -> list[int]:
    """The indexes of ``now``'s messages that are new or changed since ``before``."""
    if before is None:
        return list(range(len(now.messages)))
    old = before.messages
    return [i for i, m in enumerate(now.messages) if i >= len(old) or old[i] != m]


def _turn_wire(label: str, now: TurnWire, before: TurnWire | None, at: str, marks: Marks) -> str:
    head, flagged = element("li", "tl-wire", at, marks)
    offered = ", Continue offered" if now.continueOffered else ""
    count = len(now.messages)
    changed = _changed(now, before)
    kept = set(changed[-LISTED:])  # the latest changes, and any a failure points at
    shown = [i for i in changed if i in kept or marks.within(f"{at}/messages/{i}")]
    parts = [
        f"{head}<code>{plain(label)}</code>: {plain(now.status)}{offered}, {count} message"
        f"{'s' * (count != 1)}" + (f", {len(changed)} new or changed" if before else ""),
        flagged,
    ]
    if shown:
        items = "".join(
            element("li", "tl-message", f"{at}/messages/{i}", marks)[0]
            + code(_said_first(now.messages[i]))
            + flags(marks.at(f"{at}/messages/{i}"))
            + "</li>"
            for i in shown
        )
        parts.append(
            f'<ol class="tl-list">{left_out(len(changed) - len(shown), "messages")}{items}</ol>'
        )
    moved = before is None or now.toolArtifacts != before.toolArtifacts
    if moved or marks.within(f"{at}/toolArtifacts"):
        parts.append(
            part("toolArtifacts", code(now.toolArtifacts, LONG_CHARS), f"{at}/toolArtifacts", marks)
        )
    if now.pending is not None:
        parts.append(part("pending", code(now.pending), f"{at}/pending", marks))
    return "".join(parts) + "</li>"


def _wire(
    step: StepRecord, before: Mapping[str, Mapping[str, TurnWire]], at: str, marks: Marks
) -> str:
    """The wire after the step: each turn that changed (or that a failure points at)."""
    items: list[str] = []
    same = more = 0
    for conversation, turns in step.wire.items():
        for turn, now in turns.items():
            earlier = before.get(conversation, {}).get(turn)
            pointer = f"{at}/{_token(conversation)}/{_token(turn)}"
            if now == earlier and not marks.within(pointer):
                same += 1
                continue
            if len(items) >= LISTED and not marks.within(pointer):
                more += 1
                continue
            label = turn if conversation == "main" else f"{conversation}/{turn}"
            items.append(_turn_wire(label, now, earlier, pointer, marks))
    if not items and not marks.within(at):
        return ""
    items.append(left_out(more, "turns that changed"))
    unchanged = f" ({same} turn{'s' * (same != 1)} unchanged)" if same else ""
    head, flagged = element("div", "tl-part", at, marks)
    label = f'<span class="k">wire read after the step{unchanged}</span>'
    return f'{head}{label}{flagged}<ul class="tl-list">{"".join(items)}</ul></div>'


def _token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _step_body(
    step: StepRecord, before: Mapping[str, Mapping[str, TurnWire]], at: str, marks: Marks
) -> list[str]:
    lines: list[str] = []
    if step.error is not None:
        coded = f"{plain(step.error.code)}: " if step.error.code else ""
        said = coded + plain(step.error.message, LONG_CHARS)
        lines.append(part("error", said, f"{at}/error", marks))
    runs = [j for j in range(len(step.runs)) if j < LISTED or marks.within(f"{at}/runs/{j}")]
    for j in runs:
        lines += run_html(step.runs[j], f"{at}/runs/{j}", marks)
    if len(runs) < len(step.runs):
        lines.append(f'<p class="tl-note">{len(step.runs) - len(runs)} more runs not shown</p>')
    if step.held is not None and (step.held or marks.within(f"{at}/held")):
        turns = [
            (turn, value)
            for number, (turn, value) in enumerate(step.held.items())
            if number < LISTED or marks.within(f"{at}/held/{_token(turn)}")
        ]
        held = "".join(
            part(f"turn {turn}", code(value, LONG_CHARS), f"{at}/held/{_token(turn)}", marks)
            for turn, value in turns
        )
        if len(turns) < len(step.held):
            held += f'<p class="tl-note">{len(step.held) - len(turns)} more turns not shown</p>'
        head, flagged = element("div", "tl-part", f"{at}/held", marks)
        lines.append(f'{head}<span class="k">held after the step</span>{flagged}{held}</div>')
    for m, warning in enumerate(step.warnings[:LISTED]):
        said = f"{plain(warning.code)}: {plain(warning.message, LONG_CHARS)}"
        lines.append(part("warning", said, f"{at}/warnings/{m}", marks))
    if step.open_collections or marks.within(f"{at}/open_collections"):
        lines.append(
            part(
                "open collections",
                code(list(step.open_collections or ())),
                f"{at}/open_collections",
                marks,
            )
        )
    for name, value in (("poll", step.poll), ("journal", step.journal)):
        if value is not None:
            lines.append(part(name, code(value, LONG_CHARS), f"{at}/{name}", marks))
    lines.append(_wire(step, before, f"{at}/wire", marks))
    return lines


def _rows(drawn: DrawnEvidence, marks: Marks) -> list[str]:
    scenario, trace = drawn.scenario, drawn.trace
    planned = scenario.steps if scenario is not None else ()
    answered = trace.steps if trace is not None else ()
    count = max(len(planned), len(answered))
    rows: list[str] = []
    size = skipped = 0
    before: Mapping[str, Mapping[str, TurnWire]] = MappingProxyType({})
    for index in range(count):
        at = f"/steps/{index}"
        hit = marks.within(at)
        if index >= STEPS and not hit:
            skipped += 1
            continue
        step = answered[index] if index < len(answered) else None
        head, flagged = element(
            "li", "tl-step", at, marks, f' data-step="{index}"' + (' data-hit="1"' if hit else "")
        )
        row = [head, _head(index, planned[index] if index < len(planned) else None, step), flagged]
        if step is not None and (size < TIMELINE_CHARS or hit):
            row += _step_body(step, before, at, marks)
        elif step is not None:
            row.append('<p class="tl-note">left out: the timeline reached its size bound</p>')
        if step is not None:
            before = step.wire
        text = "".join(row) + "</li>"
        size += len(text)
        rows.append(text)
    rows.append(left_out(skipped, "steps"))
    return rows


def _marks(marks: Sequence[Mark]) -> Marks:
    by_anchor: dict[str, tuple[Mark, ...]] = {}
    for mark in marks:
        if mark.anchor is not None:
            by_anchor[mark.anchor] = (*by_anchor.get(mark.anchor, ()), mark)
    return Marks(MappingProxyType(by_anchor))


def _summary(drawn: DrawnEvidence, marks: Sequence[Mark]) -> str:
    scenario, trace = drawn.scenario, drawn.trace
    name = scenario.id if scenario is not None else (trace.scenario if trace else "")
    count = len(scenario.steps) if scenario is not None else len(trace.steps) if trace else 0
    placed = [mark for mark in marks if mark.anchor is not None]
    where = ""
    if placed:
        first = placed[0].anchor or ""
        index = int(first.split("/")[2]) if first.startswith("/steps/") else None
        if index is not None:
            where = f"; failure at {html_text(step_words(scenario, trace, index))}"
    return (
        f"<summary>Timeline of scenario <code>{plain(name, VALUE_CHARS)}</code>: {count} step"
        f"{'s' * (count != 1)}{where}</summary>"
    )


def _script(scenario: Scenario | None) -> str:
    """The scenario's tools and model replies, collapsed."""
    if scenario is None:
        return ""
    tools = ", ".join(
        plain(tool.name)
        + (" (gated)" if tool.gate else "")
        + (" (read only)" if tool.read_only else "")
        for tool in scenario.tools[:LISTED]
    )
    replies = "".join(
        f"<li>{code(to_json(reply), LONG_CHARS)}</li>" for reply in scenario.model[:LISTED]
    )
    return (
        f'<details class="tl-part"><summary>the script: tools {tools or "none"}; '
        f'{len(scenario.model)} model replies</summary><ol class="tl-list">{replies}'
        f"{left_out(len(scenario.model) - LISTED, 'replies')}</ol></details>"
    )


def timeline_html(
    drawn: DrawnEvidence, marks: Sequence[Mark], *, ident: str, opened: bool = False
) -> str:
    """The timeline of ``drawn`` with ``marks`` placed, as one ``<details>`` element with
    the id ``ident`` (collapsed unless ``opened``)."""
    placed = _marks(marks)
    unplaced = [mark for mark in marks if mark.anchor is None]
    lines = [
        f'<details class="timeline" id="{html_text(ident)}"{" open" if opened else ""}>',
        _summary(drawn, marks),
    ]
    lines += [f'<p class="tl-note">{plain(problem, LONG_CHARS)}</p>' for problem in drawn.problems]
    if unplaced:
        lines.append(flags(unplaced))
    if drawn.finding is not None and drawn.finding.invariant:
        lines.append(
            '<p class="tl-note">a counterexample the hunt found and shrank, breaking the '
            f"invariant <code>{plain(drawn.finding.invariant)}</code></p>"
        )
    lines.append(_script(drawn.scenario))
    lines += ['<ol class="tl-steps">', *_rows(drawn, placed), "</ol>"]
    if drawn.trace is not None and drawn.trace.ledger is not None:
        lines.append(
            part("run-event ledger", code(list(drawn.trace.ledger), LONG_CHARS), "/ledger", placed)
        )
    return "".join(lines) + "</details>"
