"""How ``rttool rules`` says what it found: pure functions of the rule layer's results
(a lint report, the corpus, a rule with its cases, the pages written, the comparison
with upstream), in text or JSON.  Control characters from a page are shown as
``\\uXXXX``, never sent to the terminal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from conformance.cli import plural
from conformance.cli._output import Output, json_output, text

if TYPE_CHECKING:
    from conformance.engine import BoundCase, ClauseSituations
    from conformance.rules import Comparison, Corpus, LintReport, Rule

__all__ = [
    "ClauseCases",
    "clean_lines",
    "compared_text",
    "lint_output",
    "listing_json",
    "listing_text",
    "rule_json",
    "rule_text",
    "upstream_warnings",
    "written_text",
]

#: Under each clause, its cases (``rttool rules show ID --cases``); ``None`` without.
ClauseCases: TypeAlias = Mapping[str, Sequence["BoundCase"]] | None
#: Under each clause, the situations it names (shown with its cases); ``None`` without.
ClauseNotes: TypeAlias = Mapping[str, "ClauseSituations"] | None

# Control characters from a page never reach the terminal as themselves.
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_CONTROL = {code: f"\\u{code:04x}" for code in (*range(0x20), *range(0x7F, 0xA0), *_BIDI)}


def _clean(line: str) -> str:
    return line.translate(_CONTROL)


def clean_lines(lines: Iterable[str]) -> str:
    """``lines``, each ended by a newline, control characters shown."""
    return text(_clean(line) for line in lines)


def lint_output(report: LintReport) -> Output:
    """A line per finding (``PATH:LINE: CODE: message``), then the counts on standard
    error."""
    counts = (
        f"{plural(report.files, 'file')}, {plural(report.errors, 'error')}, "
        f"{plural(report.warnings, 'warning')}\n"
    )
    return Output(clean_lines(str(finding) for finding in report.findings), counts)


def listing_json(corpus: Corpus) -> Output:
    """A JSON object per rule: its facts and how many clauses and examples it has."""
    return json_output(
        [
            {
                "id": rule.id,
                "title": rule.title,
                "level": rule.level,
                "profiles": list(rule.profiles),
                "posture": rule.posture,
                "clauses": len(rule.clauses),
                "examples": len(rule.examples),
                "file": str(rule.path),
            }
            for rule in corpus
        ]
    )


def listing_text(corpus: Corpus) -> Output:
    """A table of the rules, a row each, then the counts of the corpus."""
    header = ("ID", "LEVEL", "POSTURE", "PROFILES", "CLAUSES", "EXAMPLES", "TITLE")
    table = [header] + [
        (
            rule.id,
            rule.level,
            rule.posture,
            ",".join(rule.profiles),
            str(len(rule.clauses)),
            str(len(rule.examples)),
            rule.title,
        )
        for rule in corpus
    ]
    widths = [max(len(row[column]) for row in table) for column in range(len(header) - 1)]
    rows = [
        "  ".join(
            [
                *(
                    cell.rjust(width) if column in (4, 5) else cell.ljust(width)
                    for column, (cell, width) in enumerate(zip(row, widths, strict=False))
                ),
                row[-1],
            ]
        )
        for row in table
    ]
    return Output(clean_lines([*rows, _summary(corpus)]))


def _summary(corpus: Corpus) -> str:
    parts = []
    for family in corpus.families:
        rules = [rule for rule in corpus if rule.family == family]
        clauses = sum(len(rule.clauses) for rule in rules)
        examples = sum(len(rule.examples) for rule in rules)
        parts.append(f"{family}: {len(rules)} rules, {clauses} clauses, {examples} examples")
    return (
        f"{len(corpus)} rules, {len(corpus.clauses)} clauses, "
        f"{len(corpus.examples)} examples ({'; '.join(parts)})"
    )


def _case_json(case: BoundCase) -> dict[str, object]:
    return {
        "id": case.id,
        "kind": case.kind,
        "name": case.name,
        "file": case.file,
        "line": case.line,
    }


def _situations_json(notes: ClauseNotes, clause_id: str) -> dict[str, object]:
    note = None if notes is None else notes.get(clause_id)
    if note is None:
        return {}
    named = [{"words": words, "file": file, "line": line} for words, file, line in note.named]
    return {"situations": named, "without_situations": note.none_because}


def _rule_json(
    rule: Rule, cases: ClauseCases = None, notes: ClauseNotes = None
) -> dict[str, object]:
    return {
        "id": rule.id,
        "family": rule.family,
        "title": rule.title,
        "level": rule.level,
        "profiles": list(rule.profiles),
        "posture": rule.posture,
        "added": rule.added,
        "changed": rule.changed,
        "part": rule.part,
        "source": rule.source,
        "specification": rule.specification,
        "licence": rule.licence,
        "rule_hash": rule.rule_hash,
        "computed_hash": rule.computed_hash,
        "summary": rule.summary,
        "normative_text": rule.normative_text,
        "clauses": [
            {
                "id": clause.id,
                "citation": clause.citation,
                "number": clause.number,
                "text": clause.text,
                "line": clause.line,
                **(
                    {}
                    if cases is None
                    else {"cases": [_case_json(case) for case in cases.get(clause.id, ())]}
                ),
                **_situations_json(notes, clause.id),
            }
            for clause in rule.clauses
        ],
        "what_it_means": rule.what_it_means,
        "examples": [
            {
                "id": example.id,
                "index": example.index,
                "title": example.title,
                "verdict": example.verdict,
                "value": example.value,
                "line": example.line,
                "prose_after": example.prose_after,
            }
            for example in rule.examples
        ],
        "names": list(rule.names),
        "referenced_by": list(rule.referenced_by),
        "file": str(rule.path),
        "line": rule.line,
    }


def rule_json(rule: Rule, cases: ClauseCases = None, notes: ClauseNotes = None) -> Output:
    """The rule as JSON, with each clause's cases and situations when they were asked for."""
    return json_output(_rule_json(rule, cases, notes))


def _head(rule: Rule) -> list[str]:
    part = f" (Part {rule.part})" if rule.part else ""
    lines = [
        f"{rule.id} — {rule.title}",
        f"{rule.family}{part} · level {rule.level} · profiles {', '.join(rule.profiles)} · "
        f"posture {rule.posture} · added {rule.added} · changed {rule.changed}",
        f"source: {rule.source}",
        f"file: {rule.path}:{rule.line}",
    ]
    return lines + (["", rule.summary] if rule.summary else [])


def _case_lines(cases: Sequence[BoundCase]) -> list[str]:
    """One line per case under its clause: kind, name, and ``file:line`` of its code."""
    if not cases:
        return ["      (no case)"]
    width = max(len(case.name) for case in cases)
    return [
        f"      {case.kind:<6}  {case.name:<{width}}  {case.file}:{case.line}" for case in cases
    ]


def _situation_lines(notes: ClauseNotes, clause_id: str) -> list[str]:
    """Under a clause, each situation it names with ``file:line`` of its test, or why it
    names none."""
    note = None if notes is None else notes.get(clause_id)
    if note is None:
        return []
    if not note.named:
        return [f"      names no situation: {note.none_because or '(no reason given)'}"]
    return [f"      situation  {words}  {file}:{line}" for words, file, line in note.named]


def rule_text(rule: Rule, cases: ClauseCases = None, notes: ClauseNotes = None) -> Output:
    """The rule: its facts, its clauses (each with its cases and situations, when asked
    for), its examples, its names and what refers to it."""
    lines = [*_head(rule), "", "Clauses:"]
    for clause in rule.clauses:
        lines.append(f"  {clause.citation}  [{clause.id}, line {clause.line}]  {clause.text}")
        if cases is not None:
            lines += _case_lines(cases.get(clause.id, ()))
        lines += _situation_lines(notes, clause.id)
    if rule.examples:
        lines += ["", "Examples:"]
        lines += [
            f"  {example.id}  verdict={example.verdict}  line {example.line}  {example.title}"
            for example in rule.examples
        ]
    lines += [
        "",
        f"Names: {', '.join(rule.names) or '—'}",
        f"Referenced by: {', '.join(rule.referenced_by) or '—'}",
    ]
    return Output(clean_lines(lines))


def upstream_warnings(notes: Sequence[object]) -> Output:
    """The upstream checkout's notes, as warnings on standard error."""
    return Output(err=clean_lines(f"warning: upstream: {note}" for note in notes))


def written_text(written: Sequence[Path]) -> Output:
    """A line per page written."""
    return Output(clean_lines(f"wrote {path}" for path in written))


def compared_text(results: Sequence[Comparison]) -> Output:
    """A line per rule compared with upstream."""
    return Output(clean_lines(str(result) for result in results))
