"""Where a failure points in a trace: the element of the timeline it lands on, and the
same place in words ("step 3, answer t1 › run run-2 › pass 1 › call c1").

A failure names what it observed by a JSON pointer into its scenario's trace
(``/steps/1/runs/0/passes/0/results/3/result/data``).  The timeline draws an element for
each step, run, pass, tool result, side effect, held list and turn on the wire, each
carrying its own pointer; a failure lands on the deepest of them its pointer leads
through.  A hunt's failure carries no pointer of its own: its message quotes where it
saw what it reports, ``(at /steps/1/runs/0/passes/0/results/0)``, and that is used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from adapters.scenario import Scenario
from adapters.trace import RunRecord, StepRecord, Trace
from conformance.report._drawn import DrawnEvidence
from conformance.report._model import FailedExpectation

__all__ = ["Mark", "anchor_of", "marks_of", "pointer_of", "step_words", "tokens"]

# A pointer a message quotes: "(at /steps/1/runs/0/passes/0/results/0)".
_QUOTED = re.compile(r"\(at (/(?:steps|ledger)(?:/[^\s),;]*)?)")
#: the parts of a pass, a run and a step the timeline draws apart
_PASS_PARTS = frozenset({"batch", "ports", "exposed", "tool_messages", "outcome"})
# (a step's outcome and a run's end are in their headings: a failure there lands on it)
_RUN_PARTS = frozenset({"interruption", "resume", "prior_turn_note"})
_STEP_PARTS = frozenset({"poll", "journal", "error", "open_collections"})


@dataclass(frozen=True)
class Mark:
    """One failure as the timeline shows it: its number among the check's failures, its
    message, the values it compared, the pointer of the element it lands on (``None``:
    on no step) and that place in words."""

    number: int
    message: str
    anchor: str | None
    where: str
    expected: str | None = None
    got: str | None = None


def tokens(pointer: str) -> list[str]:
    """The reference tokens of a JSON pointer, unescaped (``~1`` is ``/``, ``~0`` ``~``)."""
    if not pointer.startswith("/"):
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _index(parts: Sequence[str], at: int, length: int) -> int | None:
    """``parts[at]`` as an index below ``length``, else ``None``."""
    if len(parts) <= at or not parts[at].isdigit():
        return None
    index = int(parts[at])
    return index if index < length else None


def _in_run(run: RunRecord, parts: list[str], base: str) -> str:
    if len(parts) < 1:
        return base
    part = parts[0]
    if part == "passes" and (k := _index(parts, 1, len(run.passes))) is not None:
        pass_base = f"{base}/passes/{k}"
        rest = parts[2:]
        one = run.passes[k]
        if rest and rest[0] == "results" and (m := _index(rest, 1, len(one.results))) is not None:
            return f"{pass_base}/results/{m}"
        return f"{pass_base}/{rest[0]}" if rest and rest[0] in _PASS_PARTS else pass_base
    if part == "side_effects" and (m := _index(parts, 1, len(run.side_effects))) is not None:
        return f"{base}/side_effects/{m}"
    if part == "model_inputs" and run.model_inputs:
        m = _index(parts, 1, len(run.model_inputs))
        return f"{base}/model_inputs" + ("" if m is None else f"/{m}")
    return f"{base}/{part}" if part in _RUN_PARTS and getattr(run, part) is not None else base


def _in_step(step: StepRecord, parts: list[str], base: str) -> str:
    if not parts:
        return base
    part = parts[0]
    if part == "runs" and (j := _index(parts, 1, len(step.runs))) is not None:
        return _in_run(step.runs[j], parts[2:], f"{base}/runs/{j}")
    if part == "wire":
        turn = step.wire.get(parts[1], {}).get(parts[2]) if len(parts) >= 3 else None
        if turn is None:
            return f"{base}/wire"
        at = f"{base}/wire/{_escape(parts[1])}/{_escape(parts[2])}"
        rest = parts[3:]
        if rest[:1] == ["messages"] and (m := _index(rest, 1, len(turn.messages))) is not None:
            return f"{at}/messages/{m}"
        if rest[:1] == ["toolArtifacts"] or (rest[:1] == ["pending"] and turn.pending is not None):
            return f"{at}/{rest[0]}"
        return at
    if part == "held" and step.held is not None:
        if len(parts) >= 2 and parts[1] in step.held:
            return f"{base}/held/{_escape(parts[1])}"
        return f"{base}/held"
    if part == "warnings" and (m := _index(parts, 1, len(step.warnings))) is not None:
        return f"{base}/warnings/{m}"
    return f"{base}/{part}" if part in _STEP_PARTS and getattr(step, part) is not None else base


def anchor_of(trace: Trace, pointer: str) -> str | None:
    """The pointer of the deepest element the timeline draws that ``pointer`` leads
    through (``None`` when it leads through none: not a step of this trace)."""
    parts = tokens(pointer)
    if parts[:1] == ["ledger"] and trace.ledger is not None:
        return "/ledger"
    if parts[:1] != ["steps"] or (i := _index(parts, 1, len(trace.steps))) is None:
        return None
    return _in_step(trace.steps[i], parts[2:], f"/steps/{i}")


def pointer_of(failure: FailedExpectation, scenario_id: str | None) -> str | None:
    """The pointer ``failure`` names in the trace of ``scenario_id``: its own (unless it
    names another scenario's trace), else the first its message quotes."""
    if failure.pointer is not None:
        if failure.scenario is None or scenario_id is None or failure.scenario == scenario_id:
            return failure.pointer
        return None
    quoted = _QUOTED.search(failure.message)
    return quoted.group(1) if quoted else None


def step_words(scenario: Scenario | None, trace: Trace | None, index: int) -> str:
    """A step in words: ``step 3, answer t1``."""
    op = ""
    subject = ""
    if scenario is not None and index < len(scenario.steps):
        step = scenario.steps[index]
        op = step.op
        subject = str(getattr(step, "turn", "") or "")
    elif trace is not None and index < len(trace.steps):
        op = trace.steps[index].op
    return f"step {index + 1}" + (f", {op}" if op else "") + (f" {subject}" if subject else "")


def _run_words(run: RunRecord) -> str:
    return f"run {run.id} of turn {run.turn} ({run.cause}, ended {run.end})"


def where_words(drawn: DrawnEvidence, anchor: str) -> str:
    """The place ``anchor`` (an element's pointer) names, in words."""
    trace = drawn.trace
    parts = tokens(anchor)
    if trace is None or parts[:1] != ["steps"]:
        return "the run-event ledger" if parts[:1] == ["ledger"] else "the trace"
    index = int(parts[1])
    words = [step_words(drawn.scenario, trace, index)]
    step = trace.steps[index]
    rest = parts[2:]
    if rest[:1] == ["runs"]:
        run = step.runs[int(rest[1])]
        words.append(_run_words(run))
        rest = rest[2:]
        if rest[:1] == ["passes"]:
            number = int(rest[1])
            words.append(f"pass {number + 1}")
            one = run.passes[number]
            rest = rest[2:]
            if rest[:1] == ["results"]:
                result = one.results[int(rest[1])]
                call = result.tool_call_id or "without id"
                words.append(f"call {call} to {result.tool} ({result.disposition})")
            elif rest:
                words.append(rest[0].replace("_", " "))
        elif rest[:1] == ["side_effects"]:
            words.append(f"side effect {int(rest[1]) + 1}")
        elif rest:
            words.append(rest[0].replace("_", " "))
    elif rest[:1] == ["wire"]:
        words.append("the wire read after it" + (f", turn {rest[2]}" if len(rest) > 2 else ""))
        if rest[3:4] == ["messages"]:
            words.append(f"message {int(rest[4]) + 1}")
        elif len(rest) > 3:
            words.append(rest[3])
    elif rest[:1] == ["held"]:
        words.append("the held list" + (f" of turn {rest[1]}" if len(rest) > 1 else "s"))
    elif rest:
        words.append(rest[0].replace("_", " "))
    return " › ".join(words)


def marks_of(
    drawn: DrawnEvidence, failures: Sequence[FailedExpectation], message: str
) -> list[Mark]:
    """Each failure as a :class:`Mark` on ``drawn``'s trace (a check without listed
    failures, an error, is one mark: its message, on the step its record names)."""
    trace = drawn.trace
    scenario_id = trace.scenario if trace is not None else None
    marks: list[Mark] = []
    for number, failure in enumerate(failures, 1):
        pointer = pointer_of(failure, scenario_id)
        anchor = anchor_of(trace, pointer) if trace is not None and pointer else None
        where = where_words(drawn, anchor) if anchor else "not at a step of this trace"
        marks.append(Mark(number, failure.message, anchor, where, failure.expected, failure.got))
    if not failures and drawn.error is not None:
        marks.append(
            Mark(1, drawn.error.message or message, _error_anchor(drawn), _error_words(drawn))
        )
    return marks


def _error_anchor(drawn: DrawnEvidence) -> str | None:
    """The row of the step an error record names (``None``: a step no row draws)."""
    step = drawn.error.step if drawn.error is not None else None
    planned = len(drawn.scenario.steps) if drawn.scenario is not None else 0
    answered = len(drawn.trace.steps) if drawn.trace is not None else 0
    return None if step is None or step >= max(planned, answered) else f"/steps/{step}"


def _error_words(drawn: DrawnEvidence) -> str:
    step = drawn.error.step if drawn.error is not None else None
    if step is None:
        return "after the last step answered"
    return step_words(drawn.scenario, drawn.trace, step) + ", which was not answered"
