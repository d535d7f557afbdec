"""``allure-results/``: one Allure result per check, built with allure-python-commons.

Results use the ``allure_commons.model2`` classes and are serialised the way its file
logger does (``attr.asdict`` dropping empty fields), except that uuids and timestamps
are derived from the report, so rendering the same report twice gives the same files.
Evidence of failures is attached only when it exists inside the report directory; the
writer copies it.
"""

from __future__ import annotations

import html
import json
import uuid
from types import MappingProxyType

import attr
from allure_commons.model2 import (
    ATTACHMENT_PATTERN,
    TEST_CASE_PATTERN,
    Attachment,
    Label,
    Link,
    Parameter,
    Status,
    StatusDetails,
    TestResult,
)

from conformance._escape import http_url, safe_relative_path
from conformance.report._labels import failure_lines, situations_phrase
from conformance.report._model import CheckResult, ClauseResult, RuleResult
from conformance.report._output import CopiedFile, OutputFile, Rendered, RenderOptions
from conformance.report._standing import StandingReport

__all__ = ["render_allure"]

_DIRECTORY = "allure-results"
_NAMESPACE = uuid.UUID("5d0c3a7e-8f3b-4c2e-9a51-2f6f1e7b9c40")
_SEVERITY = MappingProxyType({"core": "critical", "extended": "normal", "optional": "minor"})
_STATUS = MappingProxyType(
    {
        "passed": Status.PASSED,
        "failed": Status.FAILED,
        "error": Status.BROKEN,
        "skipped": Status.SKIPPED,
    }
)
# Attachments are shown as text whatever they hold: an HTML or SVG attachment would be
# rendered by the Allure UI, and evidence came from the implementation.
_TYPES = MappingProxyType(
    {"json": "application/json", "yaml": "application/yaml", "yml": "application/yaml"}
)


def _categories() -> bytes:
    """``categories.json``: how the Allure UI groups results that did not pass."""
    categories = [
        {"name": "Does not conform", "matchedStatuses": ["failed"]},
        {
            "name": "Implementation faults",
            "matchedStatuses": ["broken"],
            "traceRegex": "(?s).*fault: implementation.*",
        },
        {
            "name": "Suite faults",
            "matchedStatuses": ["broken"],
            "traceRegex": "(?s).*fault: suite.*",
        },
        {"name": "Untested", "matchedStatuses": ["skipped"], "messageRegex": "(?s)untested.*"},
    ]
    return (json.dumps(categories, indent=2) + "\n").encode()


def _uuid(*parts: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, "\x1f".join(parts)))


def _serialise(item: TestResult) -> bytes:
    data = attr.asdict(item, filter=lambda _, value: bool(value) or value is False)
    return (json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode()


def _attachment(result_uuid: str, label: str, path: str) -> tuple[Attachment, CopiedFile]:
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    mime = _TYPES.get(suffix, "text/plain")
    extension = suffix if suffix in _TYPES else "txt"
    name = ATTACHMENT_PATTERN.format(prefix=_uuid(result_uuid, label), ext=extension)
    return (
        Attachment(name=label, source=name, type=mime),
        CopiedFile(source=path, target=f"{_DIRECTORY}/{name}"),
    )


def _trace(check: CheckResult) -> str:
    lines = [f"{label}: {path}" for label, path in check.evidence.items()]
    if check.fault:
        lines.append(f"fault: {check.fault}")
    return "\n".join(lines)


def _labels(rule: RuleResult, clause: ClauseResult, kind: str) -> list[Label]:
    pairs = [
        ("epic", rule.family),
        ("feature", f"{rule.id}: {rule.title}"),
        ("story", clause.citation),
        ("severity", _SEVERITY[rule.level]),
        ("parentSuite", rule.family),
        ("suite", rule.id),
        ("subSuite", clause.citation),
        ("tag", rule.level),
        ("tag", kind),
        ("framework", "rttool"),
    ]
    return [Label(name=name, value=value) for name, value in pairs]


def _result(
    report: StandingReport,
    rule: RuleResult,
    clause: ClauseResult,
    check: CheckResult | None,
    *,
    start_ms: int,
    options: RenderOptions,
) -> tuple[TestResult, list[CopiedFile]]:
    impl = report.implementation
    name = check.name if check else f"{clause.id} has no checks"
    check_id = f"{clause.id}::{name}"
    result_uuid = _uuid(report.run.started_at or "", impl.name, impl.version, check_id)
    duration_ms = round(1000 * check.duration_s) if check and check.duration_s else 0
    outcome = check.outcome if check else "skipped"
    message = (
        "\n".join(failure_lines(check)) or check.message
        if check
        else "untested: no check covers this clause"
    )
    attachments: list[Attachment] = []
    copies: list[CopiedFile] = []
    if check is not None and outcome in ("failed", "error"):
        for label, path in check.evidence.items():
            if path in options.existing_evidence and safe_relative_path(path):
                attachment, copy = _attachment(result_uuid, label, path)
                attachments.append(attachment)
                copies.append(copy)
    source = http_url(rule.source)
    result = TestResult(
        uuid=result_uuid,
        historyId=_uuid(impl.name, check_id),
        testCaseId=_uuid(check_id),
        fullName=f"{rule.id}.{check_id}",
        name=name,
        titlePath=[rule.family, rule.id, clause.citation],
        status=_STATUS[outcome],
        stage="finished",
        statusDetails=StatusDetails(message=message, trace=_trace(check) if check else None),
        # The UI renders descriptionHtml as HTML: the clause text goes in escaped.
        descriptionHtml=f"<p>{html.escape(f'{clause.citation}: {clause.text}', quote=True)}</p>"
        + (f"<p>{html.escape(situations_phrase(clause))}</p>" if situations_phrase(clause) else ""),
        labels=_labels(rule, clause, check.kind if check else "check"),
        links=[Link(type="link", url=source, name=rule.id)] if source else [],
        parameters=[
            Parameter(name="clause", value=clause.id),
            Parameter(name="implementation", value=f"{impl.name} {impl.version}"),
        ],
        attachments=attachments,
        start=start_ms,
        stop=start_ms + duration_ms,
    )
    return result, copies


def _properties_escape(text: str) -> str:
    """``text`` as a Java properties value: ASCII only, separators escaped."""
    out: list[str] = []
    for index, char in enumerate(text):
        if char in "\\=:#!" or (char == " " and index == 0):
            out.append("\\" + char)
        elif " " <= char <= "~":
            out.append(char)
        else:
            out += [f"\\u{unit:04x}" for unit in _utf16_units(char)]
    return "".join(out)


def _utf16_units(char: str) -> list[int]:
    encoded = char.encode("utf-16-be", errors="replace")
    return [int.from_bytes(encoded[i : i + 2], "big") for i in range(0, len(encoded), 2)]


def _environment(report: StandingReport) -> bytes:
    impl, run = report.implementation, report.run
    pairs = [
        ("implementation", f"{impl.name} {impl.version}"),
        ("implementation.spec", impl.spec),
        ("suite", f"{report.suite.name} {report.suite.version}"),
        ("spec", run.spec),
        ("started_at", run.started_at or ""),
        ("seed", "" if run.seed is None else str(run.seed)),
        ("levels", ",".join(run.levels)),
    ]
    text = "".join(f"{key}={_properties_escape(value)}\n" for key, value in pairs)
    return text.encode("ascii")


def render_allure(report: StandingReport, options: RenderOptions) -> Rendered:
    """``allure-results/``: results, categories, environment, and evidence to copy."""
    files: list[OutputFile] = []
    copies: list[CopiedFile] = []
    started = report.run.started
    clock = int(started.timestamp() * 1000) if started is not None else 0
    for rule in report.rules:
        for clause in rule.clauses:
            for check in clause.checks or (None,):
                result, attached = _result(
                    report, rule, clause, check, start_ms=clock, options=options
                )
                clock = result.stop
                name = TEST_CASE_PATTERN.format(prefix=result.uuid)
                files.append(OutputFile(path=f"{_DIRECTORY}/{name}", content=_serialise(result)))
                copies += attached
    files.append(OutputFile(path=f"{_DIRECTORY}/categories.json", content=_categories()))
    files.append(
        OutputFile(path=f"{_DIRECTORY}/environment.properties", content=_environment(report))
    )
    return Rendered(files=tuple(files), copies=tuple(copies))
