"""Fixed reports for the report tests: a realistic one and a hostile one."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from adapters.codec import to_json
from adapters.scenario import (
    Answer,
    FailWriteBack,
    Poll,
    Reply,
    Return,
    Scenario,
    StartTurn,
    Tool,
    call,
)
from adapters.trace import (
    ModelInput,
    PassRecord,
    ResumeRecord,
    RunRecord,
    StepRecord,
    ToolResultRecord,
    Trace,
    TurnWire,
)
from conformance.report import (
    CheckResult,
    ClauseResult,
    Evidence,
    FailedExpectation,
    HuntFigures,
    HuntSummary,
    ImplementationInfo,
    RuleResult,
    RunInfo,
    StandingReport,
    SuiteInfo,
)

SOURCE = "https://flowdrop.example/spec/rules/{}"
EVIDENCE_C4 = Evidence(
    scenario="evidence/RT-TOOL-7/c4/scenario.json",
    trace="evidence/RT-TOOL-7/c4/trace.json",
    counterexample="evidence/RT-TOOL-7/c4/counterexample.json",
)
#: The step of the sample trace whose held list the failing check points at.
HIT_STEP = 3
_ARTIFACT = {"type": "link", "payload": {"url": "https://toy.example/a"}, "tool_call_id": "c1"}


def _message(role: str, content: str, **more: object) -> dict[str, object]:
    return {"role": role, "content": content, **more}


def _wire(status: str, *messages: object) -> TurnWire:
    return TurnWire(status, False, messages, [])


def sample_scenario() -> Scenario:
    """The scenario of the sample's failing hunt check: a pause holding an artifact, a
    write-back armed to fail, the answer, a poll."""
    return Scenario(
        id="hunt",
        steps=(StartTurn("t1"), FailWriteBack(), Answer("t1"), Poll()),
        tools=(Tool("emit", (Return(output={"ok": True, "artifacts": [_ARTIFACT]}),)),),
        model=(Reply(tool_calls=(call("emit", {}, "c1"),)), Reply(question="Go on?")),
    )


def sample_trace() -> Trace:
    """What the toy runtime did with :func:`sample_scenario`: the failed write-back
    reported ok, and the held artifact gone (at ``/steps/3/held/t1``)."""
    asked = _wire("paused", _message("user", "Hello"), _message("assistant", "Go on?"))
    result = {"success": True, "data": {"ok": True}, "error": None, "artifacts": [_ARTIFACT]}
    first = RunRecord(
        id="run-1",
        turn="t1",
        conversation="main",
        cause="start",
        end="paused",
        model_inputs=(ModelInput((_message("user", "Hello"),)),),
        passes=(
            PassRecord(
                batch=(call("emit", {}, "c1"),),
                ports={"tool_artifacts": [_ARTIFACT], "executed": ["c1"]},
                exposed={"tool_artifacts": False},
                results=(ToolResultRecord("emit", "c1", "executed", result, {}),),
                tool_messages=(_message("tool", '{"ok": true}', tool_call_id="c1"),),
                outcome={"succeeded": 1, "failed": 0},
                paused=True,
            ),
        ),
        side_effects=({"tool": "emit", "input": {}, "tool_call_id": "c1"},),
    )
    second = RunRecord(
        id="run-2",
        turn="t1",
        conversation="main",
        cause="answer",
        end="completed",
        model_inputs=(ModelInput((_message("user", "Hello"), _message("user", "yes"))),),
        passes=(),
        side_effects=(),
        resume=ResumeRecord(nudge="yes"),
    )
    done = _wire(
        "completed", *asked.messages, _message("user", "yes"), _message("assistant", "Done.")
    )
    return Trace(
        scenario="hunt",
        steps=(
            StepRecord(
                0,
                "start_turn",
                "ok",
                (first,),
                (),
                {"main": {"t1": asked}},
                held={"t1": [_ARTIFACT]},
            ),
            StepRecord(
                1,
                "fail_write_back",
                "ok",
                (),
                (),
                {"main": {"t1": asked}},
                held={"t1": [_ARTIFACT]},
            ),
            StepRecord(2, "answer", "ok", (second,), (), {"main": {"t1": done}}, held={"t1": []}),
            StepRecord(
                3,
                "poll",
                "ok",
                (),
                (),
                {"main": {"t1": done}},
                held={"t1": []},
                poll={"messages": 4},
            ),
        ),
    )


def _json_file(value: object) -> str:
    return json.dumps(to_json(value), indent=2) + "\n"


EVIDENCE_FILES = {
    "evidence/RT-TOOL-7/c4/scenario.json": _json_file(sample_scenario()),
    "evidence/RT-TOOL-7/c4/trace.json": _json_file(sample_trace()),
    "evidence/RT-TOOL-7/c4/counterexample.json": json.dumps(
        {"invariant": "held-artifacts-survive-failed-write-back", "message": "lost"}
    )
    + "\n",
}

#: Strings an implementation might send to break out of every format.
HOSTILE = (
    "<script>document.body.setAttribute('data-pwned','1')</script>",
    "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">",
    "\"><svg onload=\"document.body.setAttribute('data-pwned','1')\">",
    "javascript:document.body.setAttribute('data-pwned','1')",
    "| pipe | `tick` [link](javascript:alert(1)) ![img](x) **bold** <b>&amp;</b> ]]> --> \x01",
)


def _passed(name: str, duration: float = 0.01) -> CheckResult:
    return CheckResult(name=name, outcome="passed", duration_s=duration)


def _untested(name: str, capability: str) -> CheckResult:
    return CheckResult(
        name=name,
        outcome="skipped",
        skip_kind="untested",
        message=f"untested: needs capability {capability}",
    )


def _not_applicable(name: str) -> CheckResult:
    return CheckResult(
        name=name,
        outcome="skipped",
        skip_kind="not-applicable",
        message="not-applicable: profile durable-resume not claimed",
    )


def _clause(rule: str, number: int, text: str, *checks: CheckResult) -> ClauseResult:
    return ClauseResult(id=f"{rule}#c{number}", rule=rule, number=number, text=text, checks=checks)


def _rules() -> tuple[RuleResult, ...]:
    rt1 = RuleResult(
        id="RT-TOOL-1",
        title="A tool call produces exactly one result",
        family="RT-TOOL",
        level="extended",
        profiles=("runtime",),
        source=SOURCE.format("RT-TOOL-1"),
        clauses=(
            ClauseResult(
                id="RT-TOOL-1#c1",
                rule="RT-TOOL-1",
                number=1,
                text="Every call gets a result.",
                checks=(replace(_passed("one-result-per-call"), reached=("a call",)),),
                situations=("a call",),
            ),
            _clause("RT-TOOL-1", 2, "Results keep call order.", _passed("order-kept", 0.02)),
            _clause(
                "RT-TOOL-1",
                3,
                "A result names its call.",
                _passed("result-names-call"),
                _untested("names-survive-restart", "restart"),
            ),
        ),
    )
    rt5 = RuleResult(
        id="RT-TOOL-5",
        title="Optional plain-text lifting",
        family="RT-TOOL",
        level="optional",
        profiles=("runtime",),
        source=SOURCE.format("RT-TOOL-5"),
        clauses=(
            _clause("RT-TOOL-5", 1, "Plain text may be lifted.", _untested("lifted", "gates")),
            # its check passed, but reached only one of the two situations its text names
            ClauseResult(
                id="RT-TOOL-5#c2",
                rule="RT-TOOL-5",
                number=2,
                text="Lifted text is kept whether or not it was shown.",
                checks=(replace(_passed("kept-either-way"), reached=("lifted text shown",)),),
                situations=("lifted text shown", "lifted text not shown"),
            ),
        ),
    )
    failing = CheckResult(
        name="held-artifacts-survive-failed-write-back",
        outcome="failed",
        message="2 held artifacts were lost after the write-back failed",
        duration_s=0.25,
        evidence=EVIDENCE_C4,
        kind="hunt",
        failures=(
            FailedExpectation(
                message="2 held artifacts were lost after the write-back failed",
                scenario="hunt",
                pointer="/steps/3/held/t1",
                expected=json.dumps([_ARTIFACT]),
                got="[]",
            ),
            FailedExpectation(
                message="the failed write-back was reported with outcome ok",
                scenario="hunt",
                pointer="/steps/2/outcome",
                reading="rt-tool-7-4-failed-write-back",
            ),
        ),
        hunt=HuntFigures(judged=321, exercised=17),
    )
    rt7 = RuleResult(
        id="RT-TOOL-7",
        title="A pause does not destroy artifacts, and does not deliver them twice",
        family="RT-TOOL",
        level="extended",
        profiles=("runtime",),
        source=SOURCE.format("RT-TOOL-7"),
        clauses=(
            _clause("RT-TOOL-7", 1, "Artifacts are held durably.", _passed("held-on-pause")),
            _clause("RT-TOOL-7", 2, "Taking is destructive.", _untested("taken-once", "restart")),
            _clause(
                "RT-TOOL-7",
                4,
                "A write-back that fails puts them back.",
                _passed("write-back-ok"),
                failing,
            ),
        ),
    )
    rt9 = RuleResult(
        id="RT-TOOL-9",
        title="A repeated call id re-emits the stored result",
        family="RT-TOOL",
        level="extended",
        profiles=("runtime",),
        source=SOURCE.format("RT-TOOL-9"),
        clauses=(
            _clause(
                "RT-TOOL-9",
                2,
                "The stored result is re-emitted.",
                CheckResult(
                    name="repeat-re-emits-stored-result",
                    outcome="error",
                    fault="implementation",
                    message="implementation crashed: exit status 139",
                    kind="vector",
                ),
            ),
        ),
    )
    dr1 = RuleResult(
        id="DR-1",
        title="A completed write is never run twice",
        family="DR",
        level="core",
        profiles=("durable-resume",),
        source="rttool durable-resume rules, docs/durable-resume.md",
        clauses=(_clause("DR-1", 1, "The journal is consulted.", _passed("journal-read")),),
    )
    dr2 = RuleResult(
        id="DR-2",
        title="An interrupted write is refused on identical retry",
        family="DR",
        level="core",
        profiles=("durable-resume",),
        source="rttool durable-resume rules, docs/durable-resume.md",
        clauses=(_clause("DR-2", 1, "Retry is refused.", _not_applicable("retry-refused")),),
    )
    dr3 = RuleResult(
        id="DR-3",
        title="The nudge is recorded",
        family="DR",
        level="core",
        profiles=("durable-resume",),
        source="rttool durable-resume rules, docs/durable-resume.md",
        clauses=(_clause("DR-3", 1, "The nudge is recorded."),),
    )
    return rt1, rt5, rt7, rt9, dr1, dr2, dr3


def sample_report() -> StandingReport:
    """A report with every standing, outcome, skip kind and evidence kind."""
    return StandingReport(
        implementation=ImplementationInfo(
            name="toy-runtime",
            version="2.3.0",
            homepage="https://toy.example/runtime",
            spec="http://127.0.0.1:8080",
            profiles=("runtime",),
            capabilities=("gates", "interrupt_points:before_tool"),
        ),
        suite=SuiteInfo(name="rttool", version="0.1.0"),
        run=RunInfo(
            started_at="2025-01-02T03:04:05+00:00",
            duration_s=12.5,
            seed=1234,
            levels=("core", "extended", "optional"),
            ci=True,
            spec="FlowDrop Workflow Specification 1.0-draft",
        ),
        rules=_rules(),
        warnings=("RT-TOOL-7: held list bound not stated by the implementation",),
        hunt=HuntSummary(budget_s=5.0, elapsed_s=4.75, examples=321, counterexamples=1, shrinks=40),
    )


def write_evidence(directory: Path) -> None:
    """Create the evidence files :func:`sample_report` names, under ``directory``."""
    for relative, text in EVIDENCE_FILES.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def hostile_report() -> StandingReport:
    """The sample report with every implementation-sourced string made hostile."""
    report = sample_report()
    payload = " ".join(HOSTILE)
    rules = list(report.rules)
    rules[0] = replace(rules[0], title=HOSTILE[4])
    rt7 = rules[2]
    hostile_checks = tuple(
        CheckResult(
            name=f"hostile-{index} {text}",
            outcome="failed",
            message=text,
            evidence=Evidence(scenario=text, trace="../../etc/passwd", counterexample=text),
            failures=(
                FailedExpectation(message=text, scenario=text, pointer=text, reading=text),
                FailedExpectation(message=f"second {text}", pointer=f"/{text}"),
            ),
        )
        for index, text in enumerate(HOSTILE)
    )
    # Clause text is shown with its `code spans` as code: make the spans hostile too.
    hostile_text = f"`</code>{HOSTILE[0]}` {HOSTILE[4]} `{HOSTILE[1]}` ``{HOSTILE[2]}``"
    clause = replace(
        rt7.clauses[2], text=hostile_text, checks=rt7.clauses[2].checks + hostile_checks
    )
    rules[2] = replace(rt7, clauses=(*rt7.clauses[:2], clause))
    return replace(
        report,
        implementation=replace(
            report.implementation,
            name=f"evil {HOSTILE[0]}",
            version=HOSTILE[2],
            homepage=HOSTILE[3],
            spec=HOSTILE[1],
            profiles=(HOSTILE[4],),
        ),
        rules=tuple(rules),
        warnings=(payload,),
    )


def with_hunt_checks(
    report: StandingReport, change: Callable[[CheckResult], CheckResult | None]
) -> StandingReport:
    """``report`` with every hunt check replaced by ``change(check)`` (dropped on ``None``)
    and no hunt summary: how a run whose hunt ended otherwise would look."""

    def changed(checks: tuple[CheckResult, ...]) -> tuple[CheckResult, ...]:
        out = (change(check) if check.kind == "hunt" else check for check in checks)
        return tuple(check for check in out if check is not None)

    rules = tuple(
        replace(rule, clauses=tuple(replace(c, checks=changed(c.checks)) for c in rule.clauses))
        for rule in report.rules
    )
    return replace(report, hunt=None, rules=rules)


def without_hunt(report: StandingReport) -> StandingReport:
    """``report`` as a run with ``--no-hunt`` would give it."""
    return with_hunt_checks(report, lambda check: None)
