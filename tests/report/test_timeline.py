"""The timeline of a failing check's evidence: the step, run and pass a failure points
at, highlighted; everything from the implementation escaped; the size bounded."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from adapters.codec import to_json
from adapters.scenario import Poll, Scenario
from adapters.trace import StepRecord, Trace
from conformance._escape import xml_text
from conformance.report import (
    DrawnEvidence,
    Evidence,
    FailedExpectation,
    RecordedError,
    marks_of,
    render,
    write_reports,
)
from conformance.report._drawn import DRAWN_FILE_BYTES, draw_evidence
from conformance.report._timeline import STEPS, TIMELINE_CHARS, timeline_html
from conformance.report._timeline_where import anchor_of, pointer_of
from conformance.toolkit import NOT_COMPARED, CheckContext
from tests.report.htmlscan import Scan, scan_html
from tests.report.sample import (
    EVIDENCE_C4,
    HIT_STEP,
    HOSTILE,
    sample_report,
    sample_scenario,
    sample_trace,
    write_evidence,
)

LIVE = {"script", "img", "svg", "iframe", "object", "embed", "b", "style", "link", "form"}


def _drawn() -> DrawnEvidence:
    return DrawnEvidence(scenario=sample_scenario(), trace=sample_trace())


def _scan(page: str) -> Scan:
    return scan_html(page)


def _hits(scan: Scan) -> tuple[list[str], list[str]]:
    """The pointers of the highlighted elements and the steps holding them."""
    marked = [attrs["data-at"] for _, attrs in scan.elements if "hit" in attrs.get("class", "")]
    steps = [attrs["data-step"] for _, attrs in scan.elements if "data-hit" in attrs]
    return marked, steps


@pytest.fixture
def page(tmp_path: Path) -> str:
    write_evidence(tmp_path)
    write_reports(sample_report(), tmp_path, ["html"])
    return (tmp_path / "report.html").read_text("utf-8")


def test_each_failure_is_highlighted_on_the_step_its_pointer_names(page: str) -> None:
    marked, steps = _hits(_scan(page))
    assert marked == ["/steps/2", f"/steps/{HIT_STEP}/held/t1"]
    assert steps == ["2", str(HIT_STEP)]
    assert "✖ failure 1:" in page and "2 held artifacts were lost" in page


def test_expected_is_shown_beside_got_where_the_check_compared_values(page: str) -> None:
    flag = page.split('data-failure="1"')[1].split("</div>", maxsplit=1)[0]
    assert "<dt>expected</dt>" in flag and "<dt>got</dt><dd><code>[]</code></dd>" in flag


def test_the_clause_says_where_each_failure_happened_and_links_the_timeline(page: str) -> None:
    assert 'in <a href="#timeline-1">step 4, poll › the held list of turn t1</a>' in page
    assert '<details class="timeline" id="timeline-1">' in page  # collapsed by default


def test_without_drawn_evidence_a_report_renders_as_before() -> None:
    text = render(sample_report(), "html").files[0].content.decode()
    assert '<details class="timeline"' not in text and 'class="where"' not in text


def test_a_hunt_failure_is_placed_by_the_pointer_its_message_quotes() -> None:
    quoted = FailedExpectation(message="lost it (at /steps/3/held/t1); the clause says so")
    assert pointer_of(quoted, "hunt") == "/steps/3/held/t1"
    elsewhere = FailedExpectation(message="m", scenario="another", pointer="/steps/0")
    assert pointer_of(elsewhere, "hunt") is None  # another scenario's trace: not this one


@pytest.mark.parametrize(
    ("pointer", "anchor"),
    [
        ("/steps/0/runs/0/passes/0/results/0/result/data", "/steps/0/runs/0/passes/0/results/0"),
        ("/steps/0/runs/0/passes/0/ports/executed", "/steps/0/runs/0/passes/0/ports"),
        ("/steps/0/runs/0/side_effects/0/input", "/steps/0/runs/0/side_effects/0"),
        ("/steps/0/runs/0/end", "/steps/0/runs/0"),
        ("/steps/2/runs/0/resume/nudge", "/steps/2/runs/0/resume"),
        ("/steps/2/wire/main/t1/messages/3/content", "/steps/2/wire/main/t1/messages/3"),
        ("/steps/2/outcome", "/steps/2"),
        ("/steps/0/runs/7", "/steps/0"),
        ("/steps/9/held/t1", None),
        ("/nothing", None),
    ],
)
def test_a_pointer_lands_on_the_deepest_element_drawn(pointer: str, anchor: str | None) -> None:
    assert anchor_of(sample_trace(), pointer) == anchor


def test_an_error_is_marked_on_the_step_the_implementation_did_not_answer() -> None:
    trace = sample_trace()
    drawn = DrawnEvidence(
        scenario=sample_scenario(),
        trace=replace(trace, steps=trace.steps[:2]),
        error=RecordedError(kind="crashed", message="exit status 139", step=2, op="answer"),
    )
    scan = _scan(timeline_html(drawn, marks_of(drawn, (), "crashed"), ident="t"))
    assert _hits(scan) == (["/steps/2"], ["2"])
    text = scan.joined_text()
    assert "not answered" in text and "exit status 139" in text


def _hostile_trace() -> tuple[Scenario, Trace]:
    payload = " ".join(HOSTILE)
    trace = sample_trace()
    step = trace.steps[0]
    run = replace(
        step.runs[0],
        id=payload,
        turn=payload,
        side_effects=({"tool": payload, "input": {payload: payload}},),
    )
    result = replace(run.passes[0].results[0], tool=payload, tool_call_id=payload, result=payload)
    run = replace(run, passes=(replace(run.passes[0], results=(result,), ports=payload),))
    wire = {payload: {payload: replace(step.wire["main"]["t1"], status=payload)}}
    hostile_step = replace(step, runs=(run,), wire=wire, held={payload: [payload]}, poll=payload)
    return sample_scenario(), replace(trace, scenario=payload, steps=(hostile_step,))


def test_every_string_from_the_trace_is_text_never_markup() -> None:
    scenario, trace = _hostile_trace()
    drawn = DrawnEvidence(scenario=scenario, trace=trace, problems=(HOSTILE[1],))
    failure = FailedExpectation(message=HOSTILE[0], pointer="/steps/0/poll", expected=HOSTILE[2])
    failure = replace(failure, got=HOSTILE[4])
    scan = _scan(timeline_html(drawn, marks_of(drawn, (failure,), HOSTILE[0]), ident=HOSTILE[3]))
    assert not [tag for tag, _ in scan.elements if tag in LIVE]
    assert scan.handlers() == [] and "data-pwned" not in scan.attribute_names()
    assert not [a for a in scan.tags("a") if a.get("href", "").lower().startswith("javascript")]
    text = scan.joined_text()
    for payload in HOSTILE:
        assert xml_text(payload).split(" ")[0] in text
    assert _hits(scan) == (["/steps/0/poll"], ["0"])


def test_a_long_trace_is_bounded_and_says_what_it_left_out() -> None:
    trace = sample_trace()
    huge = "x" * 200_000
    filler = replace(trace.steps[3], poll={"big": huge}, held={"t1": [huge]})
    steps = tuple(replace(filler, index=i) for i in range(STEPS + 50))
    scenario = replace(sample_scenario(), steps=tuple(Poll() for _ in steps))
    drawn = DrawnEvidence(scenario=scenario, trace=replace(trace, steps=steps))
    last = STEPS + 49
    marks = marks_of(
        drawn, (FailedExpectation(message="late", pointer=f"/steps/{last}/poll"),), "late"
    )
    text = timeline_html(drawn, marks, ident="t")
    assert len(text) < 2 * TIMELINE_CHARS
    assert "more characters)" in text and "left out: the timeline reached its size bound" in text
    assert "… and 49 more steps not shown" in text
    assert _hits(_scan(text)) == ([f"/steps/{last}/poll"], [str(last)])  # drawn though past the cap


def test_evidence_that_cannot_be_drawn_says_why_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "trace.json").write_text("[" * 500, "utf-8")
    (tmp_path / "scenario.json").write_text(json.dumps({"id": 3}), "utf-8")
    (tmp_path / "huge.json").write_bytes(b" " * (DRAWN_FILE_BYTES + 1))
    evidence = Evidence(scenario="scenario.json", trace="trace.json", counterexample="huge.json")
    report = sample_report()
    rule = report.rules[2]
    clause = replace(
        rule.clauses[2], checks=(replace(rule.clauses[2].checks[1], evidence=evidence),)
    )
    report = replace(report, rules=(replace(rule, clauses=(*rule.clauses[:2], clause)),))

    def locate(path: str) -> Path | None:
        return tmp_path / path if (tmp_path / path).is_file() else None

    drawn = draw_evidence(report, locate)[evidence]
    assert drawn.scenario is None and drawn.trace is None and drawn.finding is None
    assert [problem.split(" not drawn")[0] for problem in drawn.problems] == [
        "scenario",
        "trace",
        "counterexample",
    ]
    assert all("\n" not in problem for problem in drawn.problems)
    assert not [problem for problem in drawn.problems if str(tmp_path) in problem]
    assert drawn.problems[2].startswith("counterexample not drawn: huge.json: larger than")


def test_checks_sharing_evidence_and_failures_share_one_timeline(tmp_path: Path) -> None:
    write_evidence(tmp_path)
    report = sample_report()
    rule = report.rules[2]
    failing = rule.clauses[2].checks[1]
    twin = replace(rule.clauses[1], checks=(failing,))
    report = replace(
        report,
        rules=(
            *report.rules[:2],
            replace(rule, clauses=(rule.clauses[0], twin, rule.clauses[2])),
            *report.rules[3:],
        ),
    )
    write_reports(report, tmp_path, ["html"])
    page = (tmp_path / "report.html").read_text("utf-8")
    assert page.count('<details class="timeline"') == 1
    assert 'The same evidence and failures as <a href="#timeline-1">' in page
    assert EVIDENCE_C4.trace is not None


def test_a_check_records_the_two_values_it_compared() -> None:
    class Runner:
        def handshake(self) -> object:
            from adapters.handshake import Handshake

            return Handshake.__new__(Handshake)

        def run(self, scenario: Scenario) -> Trace:
            raise AssertionError("not run")

    ctx = CheckContext(Runner())  # type: ignore[arg-type]
    ctx.expect(False, "compared", expected=[1, 2], got="[1, 2]")
    ctx.expect(False, "one value alone", got=3)
    ctx.expect(False, "several accepted", expected=NOT_COMPARED, got=3)
    first, alone, several = ctx.failures
    assert (first.expected, first.got) == ("[1, 2]", '"[1, 2]"')
    assert (alone.expected, alone.got) == (None, None)
    assert (several.expected, several.got) == (None, None)


def test_a_step_of_the_trace_without_a_scenario_step_is_still_drawn() -> None:
    trace = sample_trace()
    extra = StepRecord(4, "poll", "ok", (), (), trace.steps[3].wire)
    drawn = DrawnEvidence(scenario=None, trace=replace(trace, steps=(*trace.steps, extra)))
    text = timeline_html(drawn, [], ident="t")
    assert text.count('class="tl-step"') == 5
    assert json.dumps(to_json(extra))  # the trace itself is untouched


def test_the_report_benchmark_draws_a_timeline_per_failing_case(tmp_path: Path) -> None:
    from bench.report import _evidence, standing_of

    report = standing_of(50, _evidence(tmp_path, 5))
    assert sum(1 for _ in report.checks()) == 50
    write_reports(report, tmp_path, ["html"])
    page = (tmp_path / "report.html").read_text("utf-8")
    assert page.count('<details class="timeline"') == 5
    assert page.count('class="flag"') >= 5  # each failure placed on its trace


def test_a_wide_step_is_bounded_too() -> None:
    trace = sample_trace()
    step = trace.steps[0]
    run = step.runs[0]
    wire = step.wire["main"]["t1"]
    wide = replace(
        step,
        runs=tuple(replace(run, id=f"run-{n}") for n in range(300)),
        held={f"t{n}": [] for n in range(300)},
        wire={"main": {f"t{n}": wire for n in range(300)}},
    )
    drawn = DrawnEvidence(scenario=sample_scenario(), trace=replace(trace, steps=(wide,)))
    failure = FailedExpectation(message="this one", pointer="/steps/0/runs/299/end")
    text = timeline_html(drawn, marks_of(drawn, (failure,), "m"), ident="t")
    assert text.count('class="tl-run') == 25  # 24, and the one the failure points at
    assert "275 more runs not shown" in text and "276 more turns not shown" in text
    assert "276 more turns that changed not shown" in text
    assert _hits(_scan(text)) == (["/steps/0/runs/299"], ["0"])
