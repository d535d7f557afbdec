"""``junit.xml``: one testsuite per rule, one testcase per check.

Built with ``xml.etree`` so every string is escaped by the serialiser; characters XML
cannot carry at all are shown as ``\\xNN`` first.  A clause with no checks appears as
one skipped testcase, so a coverage gap is visible in CI as well.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

from conformance._escape import xml_text
from conformance.report._labels import failure_lines, situations_phrase
from conformance.report._model import CheckResult, ClauseResult, RuleResult
from conformance.report._output import OutputFile, Rendered, RenderOptions
from conformance.report._standing import StandingReport

__all__ = ["junit_xml", "render_junit", "undrivable_junit"]


def _seconds(value: float) -> str:
    return f"{value:.3f}"


def _timing(**values: float | str | None) -> dict[str, str]:
    """``time`` and ``timestamp`` attributes for the values a report recorded (a
    reproducible report records none, and JUnit makes both optional)."""
    return {
        name: value if isinstance(value, str) else _seconds(value)
        for name, value in values.items()
        if value is not None
    }


def _element(parent: ET.Element, tag: str, **attributes: str) -> ET.Element:
    return ET.SubElement(parent, tag, {key: xml_text(value) for key, value in attributes.items()})


def _properties(parent: ET.Element, pairs: list[tuple[str, str]]) -> None:
    holder = _element(parent, "properties")
    for name, value in pairs:
        _element(holder, "property", name=name, value=value)


def _evidence_text(check: CheckResult) -> str:
    lines = failure_lines(check) + [f"{label}: {path}" for label, path in check.evidence.items()]
    return xml_text("\n".join(line for line in lines if line))


def _message(check: CheckResult) -> str:
    """The failure message: the first failed expectation, and how many more there are
    (the element's text lists them all)."""
    more = len(check.failures) - 1
    return check.message + (f" (and {more} more failed expectations)" if more > 0 else "")


def _testcase(
    suite: ET.Element,
    rule: RuleResult,
    clause: ClauseResult,
    check: CheckResult,
    expected: Mapping[str, str],
) -> tuple[int, int, int]:
    case = _element(
        suite, "testcase", classname=rule.id, name=check.name, **_timing(time=check.duration_s)
    )
    _properties(
        case,
        [("clause", clause.id), ("citation", clause.citation), ("kind", check.kind)]
        + [("situations", situations_phrase(clause))] * bool(situations_phrase(clause)),
    )
    why = expected.get(clause.check_id(check))
    if check.outcome in ("failed", "error") and why is not None:
        # Listed in the expectations file: shown as skipped, the way xfail is, so that a
        # dashboard agrees with the gate; the failure's message is kept.
        outcome = _element(
            case,
            "skipped",
            message=f"expected failure ({why}): {_message(check)}",
            type="expected-failure",
        )
        outcome.text = _evidence_text(check)
        return 0, 0, 1
    if check.outcome == "failed":
        outcome = _element(case, "failure", message=_message(check), type="does-not-conform")
        outcome.text = _evidence_text(check)
        return 1, 0, 0
    if check.outcome == "error":
        outcome = _element(case, "error", message=check.message, type=f"{check.fault}-fault")
        outcome.text = _evidence_text(check)
        return 0, 1, 0
    if check.outcome == "skipped":
        _element(case, "skipped", message=check.message, type=str(check.skip_kind))
        return 0, 0, 1
    return 0, 0, 0


def _testsuite(
    root: ET.Element, report: StandingReport, rule: RuleResult, expected: Mapping[str, str]
) -> tuple[int, ...]:
    suite = _element(root, "testsuite", name=rule.id, **_timing(timestamp=report.run.started_at))
    _properties(
        suite,
        [
            ("title", rule.title),
            ("family", rule.family),
            ("level", rule.level),
            ("standing", rule.standing),
            ("source", rule.source),
        ],
    )
    tests = failures = errors = skipped = 0
    time: float | None = 0.0
    for clause in rule.clauses:
        if not clause.checks:
            case = _element(
                suite,
                "testcase",
                classname=rule.id,
                name=f"{clause.id} has no checks",
                time=_seconds(0.0),
            )
            _properties(case, [("clause", clause.id), ("citation", clause.citation)])
            _element(
                case, "skipped", message="untested: no check covers this clause", type="untested"
            )
            tests, skipped = tests + 1, skipped + 1
            continue
        for check in clause.checks:
            failed, errored, skip = _testcase(suite, rule, clause, check, expected)
            tests, failures, errors = tests + 1, failures + failed, errors + errored
            skipped += skip
            time = None if time is None or check.duration_s is None else time + check.duration_s
    suite.attrib.update(
        tests=str(tests),
        failures=str(failures),
        errors=str(errors),
        skipped=str(skipped),
        **_timing(time=time),
    )
    return tests, failures, errors, skipped


def junit_xml(report: StandingReport, expected: Mapping[str, str] | None = None) -> bytes:
    """The JUnit XML document for ``report``, UTF-8 encoded with a declaration.

    ``expected`` maps the check ids an expectations file lists (as the gate found them)
    to where and why; those failures are written as skipped ``expected-failure``."""
    expected = expected or {}
    impl = report.implementation
    root = ET.Element(
        "testsuites",
        {
            "name": xml_text(
                f"{report.suite.name} {report.suite.version}: {impl.name} {impl.version}"
            ),
            **_timing(timestamp=report.run.started_at),
        },
    )
    totals = [0, 0, 0, 0]
    for rule in report.rules:
        for index, value in enumerate(_testsuite(root, report, rule, expected)):
            totals[index] += value
    root.attrib.update(
        tests=str(totals[0]),
        failures=str(totals[1]),
        errors=str(totals[2]),
        skipped=str(totals[3]),
        **_timing(time=report.run.duration_s),
    )
    ET.indent(root)
    body: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return body + b"\n"


def render_junit(report: StandingReport, options: RenderOptions) -> Rendered:
    """``junit.xml``."""
    del options  # JUnit carries evidence paths as text; nothing to resolve.
    return Rendered(files=(OutputFile(path="junit.xml", content=junit_xml(report)),))


def undrivable_junit(spec: str, message: str) -> bytes:
    """A JUnit document with one errored testcase, for a run whose implementation could
    not be driven at all: a CI dashboard then shows the error instead of nothing."""
    root = ET.Element("testsuites", {"name": "rttool", "tests": "1", "errors": "1"})
    suite = _element(root, "testsuite", name="rttool", tests="1", errors="1", failures="0")
    case = _element(suite, "testcase", classname="rttool", name="handshake")
    error = _element(case, "error", message=message, type="undrivable")
    error.text = xml_text(f"implementation {spec}: {message}")
    ET.indent(root)
    body: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return body + b"\n"
