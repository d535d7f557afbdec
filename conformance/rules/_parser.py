"""Read one rule page into a :class:`Rule`, with every structural problem as a finding.

Parsing never raises on a bad page: whatever is wrong becomes a
:class:`Finding` with the file and line, and the rule is still built from whatever
could be read (``rule`` is ``None`` only when the page has no usable id).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from adapters.files import UnreadableFile, read_text
from conformance.rules._format import (
    FOOTER,
    NORMATIVE_MARKER,
    SECTION_EXAMPLE,
    SECTION_MEANING,
    SECTION_RELATED,
    SECTION_RULE,
    MetaLine,
    parse_meta_line,
)
from conformance.rules._frontmatter import FrontMatter, read_front_matter, schema_findings
from conformance.rules._markdown import Block, blocks, heading_level, inline_text
from conformance.rules._model import Clause, Finding, Rule
from conformance.rules._narrative import Narrative, parse_narrative
from conformance.rules._related import read_related
from conformance.rules._rulesection import read_clauses
from conformance.rules._splitter import collapse_whitespace

__all__ = ["ParsedPage", "parse_page"]

#: A rule page is a few KB; a file far larger is not one.
MAX_PAGE_BYTES = 1024 * 1024

_HEADING = re.compile(r"^(?P<id>\S+) — (?P<title>\S.*)$")


@dataclass(frozen=True)
class ParsedPage:
    """A page read from ``path``: the rule (if it has an id) and what is wrong with it."""

    path: Path
    rule: Rule | None
    findings: tuple[Finding, ...]
    front_matter: FrontMatter | None = None


def _text(values: Mapping[str, object], key: str) -> str:
    value = values.get(key)
    return value if isinstance(value, str) else ""


def parse_page(path: Path, text: str | None = None) -> ParsedPage:
    """Parse the rule page at ``path`` (or ``text``, reported as coming from ``path``)."""
    if text is None:
        try:
            text = read_text(path, limit=MAX_PAGE_BYTES)
        except UnreadableFile as err:
            reason = err.strerror
            return ParsedPage(
                path, None, (Finding(path, 1, "read-error", f"cannot read: {reason}"),)
            )
    lines = text.splitlines()
    front = read_front_matter(lines, path)
    findings = [*front.findings, *schema_findings(front, path)]
    values = front.values or {}
    rule_id = _text(values, "id")
    body = _Body(path, lines, front.body_line, findings)
    body.read()
    if not rule_id or front.values is None:
        return ParsedPage(path, None, tuple(findings), front)
    profiles_value = values.get("profiles")
    profiles = (
        tuple(str(item) for item in profiles_value) if isinstance(profiles_value, list) else ()
    )
    part_value = values.get("part")
    meta = body.meta
    part = part_value if isinstance(part_value, str) else (meta.part if meta else None)
    hash_value = values.get("rule_hash")
    narrative = body.narrative(rule_id)
    findings.extend(narrative.findings)
    if meta is not None:
        findings.extend(
            Finding(
                path,
                body.line_of("meta"),
                "meta-line",
                f"meta line says {name} {shown!r}, front matter says {wanted!r}",
            )
            for name, shown, wanted in meta.disagreements(values)
        )
    if body.heading_id and body.heading_id != rule_id:
        findings.append(
            Finding(
                path,
                body.heading_line,
                "heading-id",
                f"heading names {body.heading_id!r}, front matter id is {rule_id!r}",
            )
        )
    locations = [("front-matter", 1), *front.key_lines.items(), *body.locations]
    rule = Rule(
        id=rule_id,
        family=_text(values, "family"),
        title=body.title,
        level=_text(values, "level"),
        profiles=profiles,
        posture=_text(values, "posture"),
        added=_text(values, "added"),
        changed=_text(values, "changed"),
        source=_text(values, "source"),
        specification=_text(values, "specification"),
        licence=_text(values, "licence"),
        part=part,
        rule_hash=hash_value if isinstance(hash_value, str) else None,
        summary=body.summary,
        what_it_means=narrative.what_it_means,
        narrative=narrative.text,
        clauses=tuple(
            Clause(rule_id, number, clause_text, path, line)
            for number, clause_text, line in body.clauses
        ),
        examples=narrative.examples,
        names=body.names,
        referenced_by=body.referenced_by,
        path=path,
        line=body.heading_line,
        locations=tuple(locations),
    )
    return ParsedPage(path, rule, tuple(sorted(findings, key=_order)), front)


def _order(finding: Finding) -> tuple[int, str, str]:
    return (finding.line, finding.code, finding.message)


class _Body:
    """The markdown after the front matter, read section by section."""

    def __init__(
        self, path: Path, lines: Sequence[str], body_line: int, findings: list[Finding]
    ) -> None:
        self.path = path
        self.lines = list(lines[body_line - 1 :])
        self.first = body_line
        self.findings = findings
        self.title = ""
        self.heading_line = body_line
        self.meta: MetaLine | None = None
        self.heading_id = ""
        self.summary: str | None = None
        self.clauses: list[tuple[int, str, int]] = []
        self.names: tuple[str, ...] = ()
        self.referenced_by: tuple[str, ...] = ()
        self.locations: list[tuple[str, int]] = []
        self._narrative_span: tuple[int, int] | None = None

    def line_of(self, part: str) -> int:
        """The file line of a recorded part of the page (the heading line if absent)."""
        return next((line for name, line in self.locations if name == part), self.heading_line)

    def _line(self, index: int) -> int:
        return index + self.first

    def _finding(self, index: int, code: str, message: str) -> None:
        self.findings.append(Finding(self.path, self._line(index), code, message))

    def read(self) -> None:
        page = blocks(self.lines)
        position = self._read_top(page)
        sections: list[tuple[str, Block, list[Block]]] = []
        footer: list[Block] = []
        rule_line_seen = False
        # The footer starts at the first '---' after the last section heading, so a
        # thematic break inside the narrative stays part of the narrative.
        last_heading = max(
            (i for i, block in enumerate(page) if heading_level(block) == 2), default=-1
        )
        for number, block in enumerate(page[position:], start=position):
            if footer or (block.kind == "hr" and number > last_heading):
                footer.append(block)
            elif heading_level(block) == 2:
                sections.append((inline_text(block).strip(), block, []))
            elif sections:
                sections[-1][2].append(block)
            else:
                self._finding(block.start, "structure", "unexpected text before '## The rule'")
        titles = [title for title, _, _ in sections]
        for title, heading, content in sections:
            self.locations.append((_location_name(title), self._line(heading.start)))
            if title == SECTION_RULE:
                rule_line_seen = True
                self._rule_section(heading, content)
            elif title == SECTION_RELATED:
                self._related(heading, content)
        if not rule_line_seen:
            self._finding(
                len(self.lines) - 1 if self.lines else 0,
                "structure",
                "page has no '## The rule' section",
            )
        self._narrative_bounds(sections, titles, footer[0].start if footer else len(self.lines))
        self._footer(footer)

    def _read_top(self, page: Sequence[Block]) -> int:
        position = 0
        if not page or heading_level(page[0]) != 1:
            self._finding(
                page[0].start if page else 0,
                "structure",
                "page does not start with a '# ID — title' heading",
            )
        else:
            heading = page[0]
            self.heading_line = self._line(heading.start)
            self.locations.append(("heading", self.heading_line))
            match = _HEADING.match(inline_text(heading).strip())
            if match is None:
                self._finding(heading.start, "heading", "heading is not '# ID — title'")
            else:
                self.title = match["title"].strip()
                self.heading_id = match["id"]
            position = 1
        if position < len(page) and page[position].kind == "paragraph":
            self.meta = parse_meta_line(inline_text(page[position]))
            self.locations.append(("meta", self._line(page[position].start)))
            if self.meta is None:
                self._finding(
                    page[position].start,
                    "meta-line",
                    "meta line is not '*FAMILY (Part N) · level: … · profiles: … · added in …*'",
                )
            position += 1
        else:
            self._finding(
                page[position].start if position < len(page) else 0,
                "meta-line",
                "no italic meta line under the heading",
            )
        summary: list[str] = []
        while position < len(page) and page[position].kind == "paragraph":
            if not summary:
                self.locations.append(("summary", self._line(page[position].start)))
            summary.append(collapse_whitespace(inline_text(page[position])))
            position += 1
        self.summary = " ".join(summary) if summary else None
        return position

    def _rule_section(self, heading: Block, content: Sequence[Block]) -> None:
        found = read_clauses(heading, content, self.lines, NORMATIVE_MARKER)
        for index, code, message in found.problems:
            self._finding(index, code, message)
        self.clauses = [(number, text, self._line(index)) for number, text, index in found.clauses]

    def _related(self, heading: Block, content: Sequence[Block]) -> None:
        found = read_related(heading, content)
        for index, code, message in found.problems:
            self._finding(index, code, message)
        for label, index in found.label_lines:
            self.locations.append((_location_name(label), self._line(index)))
        self.names = found.names
        self.referenced_by = found.referenced_by

    def _narrative_bounds(
        self,
        sections: Sequence[tuple[str, Block, list[Block]]],
        titles: Sequence[str],
        footer_start: int,
    ) -> None:
        expected = [SECTION_RULE, SECTION_MEANING, SECTION_EXAMPLE, SECTION_RELATED]
        known = [title for title in titles if title in expected]
        if known != sorted(known, key=expected.index) or len(set(known)) != len(known):
            self._finding(
                sections[0][1].start if sections else 0,
                "structure",
                "sections must be: The rule, What it means, Example, Related rules",
            )
        narrative = [
            (title, heading)
            for title, heading, _ in sections
            if title not in (SECTION_RULE, SECTION_RELATED)
        ]
        if narrative:
            end = next(
                (
                    heading.start
                    for title, heading, _ in sections
                    if title == SECTION_RELATED and heading.start > narrative[0][1].start
                ),
                None,
            )
            self._narrative_span = (narrative[0][1].start, end if end is not None else footer_start)

    def narrative(self, rule_id: str) -> Narrative:
        """The narrative part of the page, parsed (empty if the page has none)."""
        if self._narrative_span is None:
            return parse_narrative(rule_id, [], self.first, self.path)
        start, end = self._narrative_span
        return parse_narrative(rule_id, self.lines[start:end], self._line(start), self.path)

    def _footer(self, footer: Sequence[Block]) -> None:
        if not footer or footer[0].kind != "hr":
            self._finding(
                len(self.lines) - 1 if self.lines else 0,
                "footer",
                "page does not end with '---' and the licence footer",
            )
            return
        paragraphs = [block for block in footer[1:] if block.kind == "paragraph"]
        text = " ".join(collapse_whitespace(inline_text(block)) for block in paragraphs)
        if text != collapse_whitespace(FOOTER) or len(footer) != 1 + len(paragraphs):
            where = paragraphs[0].start if paragraphs else footer[0].start
            self._finding(where, "footer", "licence footer differs from the published one")


def _location_name(title: str) -> str:
    return "-".join(title.lower().split())
