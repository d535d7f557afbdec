"""``earl.jsonld``: the report in W3C EARL, as W3C implementation reports are written.

One ``earl:Assertion`` per clause: the implementation (an ``earl:TestSubject`` and
``doap:Project``) was tested against the clause (an ``earl:TestCase`` that is part of
its rule, an ``earl:TestRequirement``) by rttool (``earl:Assertor``), automatically,
with an ``earl:TestResult`` whose outcome maps the clause's standing.  The ``@context``
is inline, so no processor needs the network.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from urllib.parse import quote

from conformance._escape import http_url
from conformance.report._labels import failure_lines, situations_phrase
from conformance.report._model import ClauseResult, RuleResult
from conformance.report._output import OutputFile, Rendered, RenderOptions
from conformance.report._standing import StandingReport
from conformance.report._values import Standing

__all__ = ["EARL_CONTEXT", "EARL_OUTCOMES", "earl_document", "render_earl"]

EARL_CONTEXT: Mapping[str, str] = MappingProxyType(
    {
        "earl": "http://www.w3.org/ns/earl#",
        "dct": "http://purl.org/dc/terms/",
        "doap": "http://usefulinc.com/ns/doap#",
        "foaf": "http://xmlns.com/foaf/0.1/",
        "xsd": "http://www.w3.org/2001/XMLSchema#",
    }
)

EARL_OUTCOMES: Mapping[Standing, str] = MappingProxyType(
    {
        "conforms": "earl:passed",
        "does-not-conform": "earl:failed",
        "not-applicable": "earl:inapplicable",
        "error": "earl:cantTell",
        "untested": "earl:untested",
    }
)

_SUBJECT = "_:implementation"
_ASSERTOR = "_:rttool"


def _rule_iri(rule_id: str) -> str:
    return "urn:rttool:rule:" + quote(rule_id, safe="")


def _clause_iri(clause: ClauseResult) -> str:
    return f"{_rule_iri(clause.rule)}:clause:{clause.number}"


def _info(clause: ClauseResult) -> str:
    problems = [
        f"{check.name}: {' | '.join(failure_lines(check)) or check.message}"
        for check in clause.checks
        if check.outcome in ("failed", "error")
    ]
    skipped = [check.message for check in clause.checks if check.outcome == "skipped"]
    return "; ".join(problems or skipped[:1] or [situations_phrase(clause)])


def _subject(report: StandingReport) -> dict[str, object]:
    impl = report.implementation
    node: dict[str, object] = {
        "@id": _SUBJECT,
        "@type": ["earl:TestSubject", "doap:Project"],
        "doap:name": impl.name,
        "doap:release": {"@type": "doap:Version", "doap:revision": impl.version},
    }
    if impl.spec:
        node["dct:description"] = f"driven as {impl.spec}"
    homepage = http_url(impl.homepage)
    if homepage:
        node["doap:homepage"] = {"@id": homepage}
    return node


def _assertor(report: StandingReport) -> dict[str, object]:
    return {
        "@id": _ASSERTOR,
        "@type": ["earl:Assertor", "earl:Software", "doap:Project"],
        "doap:name": report.suite.name,
        "doap:release": {"@type": "doap:Version", "doap:revision": report.suite.version},
    }


def _requirement(rule: RuleResult) -> dict[str, object]:
    node: dict[str, object] = {
        "@id": _rule_iri(rule.id),
        "@type": "earl:TestRequirement",
        "dct:identifier": rule.id,
        "dct:title": rule.title,
        "dct:hasPart": [{"@id": _clause_iri(clause)} for clause in rule.clauses],
    }
    if rule.source:
        node["dct:source"] = rule.source
    return node


def _assertion(report: StandingReport, clause: ClauseResult) -> dict[str, object]:
    date = {"@value": report.run.started_at, "@type": "xsd:dateTime"}
    result: dict[str, object] = {
        "@type": "earl:TestResult",
        "earl:outcome": {"@id": EARL_OUTCOMES[clause.standing]},
        "earl:info": _info(clause),
    }
    assertion: dict[str, object] = {
        "@type": "earl:Assertion",
        "earl:assertedBy": {"@id": _ASSERTOR},
        "earl:subject": {"@id": _SUBJECT},
        "earl:test": {
            "@id": _clause_iri(clause),
            "@type": "earl:TestCase",
            "dct:identifier": clause.id,
            "dct:title": clause.citation,
            "dct:description": clause.text,
            "dct:isPartOf": {"@id": _rule_iri(clause.rule)},
        },
        "earl:mode": {"@id": "earl:automatic"},
        "earl:result": result,
    }
    if report.run.started_at is not None:  # a reproducible report records no time
        result["dct:date"] = assertion["dct:date"] = date
    return assertion


def earl_document(report: StandingReport) -> dict[str, object]:
    """The EARL JSON-LD document for ``report``."""
    graph: list[dict[str, object]] = [_subject(report), _assertor(report)]
    graph += [_requirement(rule) for rule in report.rules]
    graph += [_assertion(report, clause) for rule in report.rules for clause in rule.clauses]
    return {"@context": dict(EARL_CONTEXT), "@graph": graph}


def render_earl(report: StandingReport, options: RenderOptions) -> Rendered:
    """``earl.jsonld``."""
    del options
    text = json.dumps(earl_document(report), indent=2, ensure_ascii=False) + "\n"
    return Rendered(files=(OutputFile(path="earl.jsonld", content=text.encode("utf-8")),))
