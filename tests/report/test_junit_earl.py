"""JUnit parsed back, and the EARL document's structure."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from hypothesis import HealthCheck, given, settings

from conformance._escape import xml_text
from conformance.report import StandingReport, junit_xml, render
from conformance.report._earl import EARL_OUTCOMES, earl_document
from tests.report.sample import sample_report
from tests.report.strategies import reports

EARL = "http://www.w3.org/ns/earl#"
VALID_OUTCOMES = {
    f"{EARL}{word}" for word in ("passed", "failed", "inapplicable", "cantTell", "untested")
}


def test_junit_has_one_suite_per_rule_and_one_case_per_check() -> None:
    report = sample_report()
    root = ET.fromstring(junit_xml(report))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == [rule.id for rule in report.rules]
    rt7 = suites[2]
    cases = rt7.findall("testcase")
    assert {case.get("classname") for case in cases} == {"RT-TOOL-7"}
    assert [case.get("name") for case in cases] == [
        "held-on-pause",
        "taken-once",
        "write-back-ok",
        "held-artifacts-survive-failed-write-back",
    ]
    failing = cases[3]
    clause = failing.find("properties/property[@name='clause']")
    assert clause is not None
    assert clause.get("value") == "RT-TOOL-7#c4"
    failure = failing.find("failure")
    assert failure is not None
    assert failure.get("message") == (
        "2 held artifacts were lost after the write-back failed (and 1 more failed expectations)"
    )
    assert "reading: https://" in (failure.text or "")
    assert "evidence/RT-TOOL-7/c4/trace.json" in (failure.text or "")
    skipped = cases[1].find("skipped")
    assert skipped is not None
    assert skipped.get("message") == "untested: needs capability restart"
    assert (rt7.get("tests"), rt7.get("failures"), rt7.get("skipped")) == ("4", "1", "1")


def test_junit_maps_errors_and_clauses_without_checks() -> None:
    root = ET.fromstring(junit_xml(sample_report()))
    error = root.find("testsuite[@name='RT-TOOL-9']/testcase/error")
    assert error is not None
    assert error.get("type") == "implementation-fault"
    empty = root.find("testsuite[@name='DR-3']/testcase")
    assert empty is not None
    assert empty.get("name") == "DR-3#c1 has no checks"
    assert empty.find("skipped") is not None
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("14", "1", "1")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_junit_always_parses(report: StandingReport) -> None:
    root = ET.fromstring(junit_xml(report))
    names = [case.get("name") for case in root.iter("testcase")]
    # Characters XML cannot carry are shown as \xNN; everything else comes back as written.
    expected = [xml_text(check.name) for _, _, check in report.checks()]
    assert [name for name in names if not (name or "").endswith(" has no checks")] == expected


def _expand(compact: str, context: dict[str, str]) -> str:
    prefix, _, rest = compact.partition(":")
    return context[prefix] + rest if prefix in context else compact


def test_earl_structure() -> None:
    report = sample_report()
    rendered = render(report, "earl").files[0]
    assert rendered.path == "earl.jsonld"
    document = json.loads(rendered.content)
    context = document["@context"]
    assert context["earl"] == EARL
    assert context["dct"] == "http://purl.org/dc/terms/"
    assert context["doap"] == "http://usefulinc.com/ns/doap#"
    assert context["foaf"] == "http://xmlns.com/foaf/0.1/"
    nodes = {node["@id"]: node for node in document["@graph"] if "@id" in node}
    assertions = [node for node in document["@graph"] if node.get("@type") == "earl:Assertion"]
    assert len(assertions) == sum(len(rule.clauses) for rule in report.rules)
    for assertion in assertions:
        subject = nodes[assertion["earl:subject"]["@id"]]
        assert "earl:TestSubject" in subject["@type"]
        assert subject["doap:name"] == "toy-runtime"
        assert subject["doap:release"]["doap:revision"] == "2.3.0"
        assert "earl:Assertor" in nodes[assertion["earl:assertedBy"]["@id"]]["@type"]
        assert assertion["earl:mode"]["@id"] == "earl:automatic"
        test = assertion["earl:test"]
        assert test["@type"] == "earl:TestCase"
        assert report.clause(test["dct:identifier"]) is not None
        assert nodes[test["dct:isPartOf"]["@id"]]["@type"] == "earl:TestRequirement"
        result = assertion["earl:result"]
        assert result["@type"] == "earl:TestResult"
        assert _expand(result["earl:outcome"]["@id"], context) in VALID_OUTCOMES
        assert result["dct:date"]["@value"] == report.run.started_at


def test_earl_outcome_per_standing() -> None:
    report = sample_report()
    document = earl_document(report)
    outcomes = {
        node["earl:test"]["dct:identifier"]: node["earl:result"]["earl:outcome"]["@id"]
        for node in document["@graph"]  # type: ignore[attr-defined]
        if node.get("@type") == "earl:Assertion"
    }
    assert outcomes["RT-TOOL-1#c1"] == "earl:passed"
    assert outcomes["RT-TOOL-7#c4"] == "earl:failed"
    assert outcomes["DR-2#c1"] == "earl:inapplicable"
    assert outcomes["RT-TOOL-9#c2"] == "earl:cantTell"
    assert outcomes["DR-3#c1"] == "earl:untested"
    assert set(EARL_OUTCOMES) == {
        "conforms",
        "does-not-conform",
        "not-applicable",
        "error",
        "untested",
    }


def test_expected_failures_are_written_as_skipped_with_their_reason() -> None:
    import xml.etree.ElementTree as ET

    from conformance.report import junit_xml
    from tests.report.sample import sample_report

    report = sample_report()
    target = "RT-TOOL-7#c4::held-artifacts-survive-failed-write-back"
    plain = ET.fromstring(junit_xml(report))
    listed = ET.fromstring(junit_xml(report, {target: "exp.yaml:3: known since 2.3"}))
    assert int(listed.get("failures") or 0) == int(plain.get("failures") or 0) - 1
    assert int(listed.get("skipped") or 0) == int(plain.get("skipped") or 0) + 1
    case = next(c for c in listed.iter("testcase") if c.get("name") == target.split("::")[1])
    skipped = case.find("skipped")
    assert skipped is not None and case.find("failure") is None
    assert skipped.get("type") == "expected-failure"
    assert (skipped.get("message") or "").startswith("expected failure (exp.yaml:3: known")
