"""The corpus linter: every problem of every page as a ``PATH:LINE: CODE: message`` line.

The parser reports what is wrong with one page's shape; the linter adds what needs
the meaning of the page (clause splitting, hashes, verdicts) or the other pages
(duplicate ids, related-rule links).  What counts as a known verdict, which
``(rule, verdict)`` pairs are bound to a check, and which clauses are covered by
one are parameters (:class:`LintPolicy`), so the suite's own bindings can be
plugged in without the linter knowing about them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from conformance.rules._corpus import parse_pages
from conformance.rules._model import Finding, Rule, Severity, rule_sort_key
from conformance.rules._parser import ParsedPage
from conformance.rules._splitter import split_clauses
from conformance.rules._vocabulary import KNOWN_VERDICTS, UPSTREAM_FAMILIES, upstream_source_url

__all__ = ["LintPolicy", "LintReport", "lint", "lint_pages"]


@dataclass(frozen=True)
class LintPolicy:
    """What the linter checks examples and clauses against.

    ``verdicts``: the known verdict words.  ``bound``: if given, the
    ``(rule_id, verdict)`` pairs some check is bound to; an example whose pair is
    missing is an error (``verdict-unbound``).  ``covered``: if given, the clause ids
    some check covers; any other clause is a warning (``clause-uncovered``).
    """

    verdicts: frozenset[str] = KNOWN_VERDICTS
    bound: frozenset[tuple[str, str]] | None = None
    covered: frozenset[str] | None = None


@dataclass(frozen=True)
class LintReport:
    """The findings of one lint run, sorted by file and line."""

    findings: tuple[Finding, ...]
    files: int = 0
    rules: tuple[Rule, ...] = field(default=(), repr=False)

    @property
    def errors(self) -> int:
        """How many findings are errors."""
        return sum(1 for finding in self.findings if finding.is_error)

    @property
    def warnings(self) -> int:
        """How many findings are warnings."""
        return len(self.findings) - self.errors


def lint(paths: Sequence[Path] | None = None, policy: LintPolicy | None = None) -> LintReport:
    """Lint the pages under ``paths`` (default: the bundled corpus).

    Cross-page checks see only these pages: linting one file does not complain that
    the rules it names are absent beyond a warning.
    """
    return lint_pages(parse_pages(paths), policy or LintPolicy())


def lint_pages(pages: Sequence[ParsedPage], policy: LintPolicy) -> LintReport:
    """Lint already-parsed ``pages`` under ``policy``."""
    findings: list[Finding] = [finding for page in pages for finding in page.findings]
    rules = [page.rule for page in pages if page.rule is not None]
    for rule in rules:
        findings.extend(_rule_findings(rule, policy))
    findings.extend(_cross_findings(rules))
    ordered = sorted(
        set(findings), key=lambda item: (str(item.path), item.line, item.code, item.message)
    )
    return LintReport(tuple(ordered), len(pages), tuple(rules))


def _rule_findings(rule: Rule, policy: LintPolicy) -> list[Finding]:
    found: list[Finding] = []

    def add(line: int, code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        found.append(Finding(rule.path, line, code, message, severity))

    if rule.id != rule.path.stem:
        add(
            rule.line_of("id"),
            "id-filename",
            f"id {rule.id!r} differs from the file name {rule.path.name!r}",
        )
    if rule.rule_hash is not None and rule.rule_hash != rule.computed_hash:
        add(
            rule.line_of("rule_hash"),
            "rule-hash",
            f"rule_hash {rule.rule_hash} is not the hash of the normative text "
            f"({rule.computed_hash})",
        )
    if rule.family in UPSTREAM_FAMILIES and rule.source:
        expected = upstream_source_url(rule.id, rule.family)
        if rule.source != expected:
            add(rule.line_of("source"), "source", f"source should be {expected}")
    for clause in rule.clauses:
        pieces = split_clauses(clause.text)
        if len(pieces) > 1:
            add(
                clause.line,
                "clause-split",
                f"clause {clause.number} splits into {len(pieces)} clauses",
            )
        if policy.covered is not None and clause.id not in policy.covered:
            add(
                clause.line,
                "clause-uncovered",
                f"{clause.id} is covered by no check",
                Severity.WARNING,
            )
    for before, after in zip(rule.clauses, rule.clauses[1:], strict=False):
        if len(split_clauses(f"{before.text} {after.text}")) < 2:
            add(
                after.line,
                "clause-split",
                f"clauses {before.number} and {after.number} are one clause",
            )
    if not any(item.code == "clause-split" for item in found) and rule.clauses:
        whole = split_clauses(rule.normative_text)
        if whole != [clause.text for clause in rule.clauses]:
            add(
                rule.line_of("the-rule"),
                "clause-split",
                f"the normative text splits into {len(whole)} clauses, the page lists "
                f"{len(rule.clauses)}",
            )
    for example in rule.examples:
        if example.verdict not in policy.verdicts:
            add(
                example.line,
                "verdict-unknown",
                f"example {example.index} has unknown verdict {example.verdict!r}",
            )
        elif policy.bound is not None and (rule.id, example.verdict) not in policy.bound:
            add(
                example.line,
                "verdict-unbound",
                f"verdict {example.verdict!r} of {rule.id} is bound to no check",
            )
    for part, ids in (("names", rule.names), ("referenced-by", rule.referenced_by)):
        if list(ids) != sorted(set(ids), key=rule_sort_key):
            add(
                rule.line_of(part),
                "related-order",
                "related rules must be listed once each, by rule number",
            )
    return found


def _cross_findings(rules: Sequence[Rule]) -> list[Finding]:
    found: list[Finding] = []
    first: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in first:
            found.append(
                Finding(
                    rule.path,
                    rule.line_of("id"),
                    "id-duplicate",
                    f"id {rule.id!r} is also the id of {first[rule.id].path}",
                )
            )
        else:
            first[rule.id] = rule
    for rule in first.values():
        for name in rule.names:
            if name not in first:
                found.append(
                    Finding(
                        rule.path,
                        rule.line_of("names"),
                        "related-unknown",
                        f"names {name}, which is not in the corpus",
                        Severity.WARNING,
                    )
                )
        naming = {other.id for other in first.values() if rule.id in other.names}
        line = rule.line_of("referenced-by")
        for other in sorted(naming - set(rule.referenced_by), key=rule_sort_key):
            found.append(
                Finding(
                    rule.path,
                    line,
                    "referenced-by",
                    f"{other} names {rule.id} but is not listed as referencing it",
                )
            )
        for other in rule.referenced_by:
            if other not in first:
                found.append(
                    Finding(
                        rule.path,
                        line,
                        "related-unknown",
                        f"referenced by {other}, which is not in the corpus",
                        Severity.WARNING,
                    )
                )
            elif other not in naming:
                found.append(
                    Finding(
                        rule.path,
                        line,
                        "referenced-by",
                        f"{other} is listed as referencing {rule.id} but does not name it",
                    )
                )
    return found
