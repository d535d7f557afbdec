"""Read a rule's narrative: ``## What it means`` and ``## Example``.

The same reader serves a corpus page (where the narrative sits between the rule
and ``## Related rules``) and an upstream ``narrative/*.mdx`` body, so an example
means the same thing in both places.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from adapters.limits import TooDeep, loads
from conformance.rules._format import SECTION_EXAMPLE, SECTION_MEANING
from conformance.rules._markdown import Block, blocks, heading_level, inline_text
from conformance.rules._model import Example, Finding

__all__ = ["Narrative", "parse_narrative"]

_ATTRIBUTE = re.compile(r'(?P<name>[A-Za-z_][\w-]*)="(?P<value>[^"]*)"')
_ORDER = (SECTION_MEANING, SECTION_EXAMPLE)


@dataclass(frozen=True)
class Narrative:
    """What a narrative says: the "What it means" text, the examples, and the problems."""

    text: str
    what_it_means: str
    examples: tuple[Example, ...]
    findings: tuple[Finding, ...]


def _source(lines: Sequence[str], start: int, end: int) -> str:
    return "\n".join(lines[start:end]).strip()


def parse_narrative(rule_id: str, lines: Sequence[str], first_line: int, path: Path) -> Narrative:
    """Parse narrative ``lines``, whose first line is line ``first_line`` of ``path``."""
    findings: list[Finding] = []
    sections: list[tuple[str, int, list[Block]]] = []
    for block in blocks(lines):
        line = block.start + first_line
        if heading_level(block) == 2:
            title = inline_text(block).strip()
            if title not in _ORDER:
                findings.append(
                    Finding(
                        path, line, "structure", f"unexpected section {title!r} in the narrative"
                    )
                )
            elif any(title == seen for seen, _, _ in sections):
                findings.append(Finding(path, line, "structure", f"section {title!r} repeated"))
            elif (
                sections
                and sections[-1][0] in _ORDER
                and (_ORDER.index(title) < _ORDER.index(sections[-1][0]))
            ):
                findings.append(
                    Finding(
                        path,
                        line,
                        "structure",
                        f"section {title!r} must come before {sections[-1][0]!r}",
                    )
                )
            sections.append((title, block.start, []))
        elif not sections:
            findings.append(
                Finding(path, line, "structure", "narrative text before its first '##' section")
            )
        else:
            sections[-1][2].append(block)
    what_it_means = ""
    examples: tuple[Example, ...] = ()
    for position, (title, start, section_blocks) in enumerate(sections):
        end = sections[position + 1][1] if position + 1 < len(sections) else len(lines)
        if title == SECTION_MEANING and not what_it_means:
            what_it_means = _source(lines, start + 1, end)
        elif title == SECTION_EXAMPLE and not examples:
            examples = _examples(
                rule_id, section_blocks, lines, first_line=first_line, path=path, findings=findings
            )
    return Narrative(
        text=_source(lines, 0, len(lines)),
        what_it_means=what_it_means,
        examples=examples,
        findings=tuple(findings),
    )


def _examples(
    rule_id: str,
    section: Sequence[Block],
    lines: Sequence[str],
    *,
    first_line: int,
    path: Path,
    findings: list[Finding],
) -> tuple[Example, ...]:
    examples: list[Example] = []
    prose: list[str] = []

    def close_prose() -> None:
        # Prose after a block belongs to that block; prose before the first block is
        # an introduction and stays with the page text only.
        if examples and prose:
            examples[-1] = replace(examples[-1], prose_after="\n\n".join(prose))
        prose.clear()

    for block in section:
        if block.kind != "fence":
            if block.kind == "paragraph":
                prose.append(_source(lines, block.start, block.end))
            continue
        language, _, rest = block.opener.info.strip().partition(" ")
        if language != "json":
            continue
        close_prose()
        line = block.start + first_line
        attributes = {match["name"]: match["value"] for match in _ATTRIBUTE.finditer(rest)}
        missing = [name for name in ("title", "verdict") if not attributes.get(name)]
        if missing:
            findings.append(
                Finding(
                    path,
                    line,
                    "example-info",
                    f"json block has no {' or '.join(missing)} attribute",
                )
            )
        if not attributes.get("verdict"):
            continue
        example = _example(rule_id, len(examples) + 1, attributes, block, line=line, path=path)
        if example.json_error is not None:
            findings.append(Finding(path, line, "example-json", example.json_error))
        examples.append(example)
    close_prose()
    return tuple(examples)


def _example(
    rule_id: str, index: int, attributes: dict[str, str], block: Block, *, line: int, path: Path
) -> Example:
    raw = block.opener.content
    title = attributes.get("title", "")
    value: object = None
    error: str | None = None
    try:
        value = loads(raw)
    except TooDeep as err:
        error = f"example {index} ({title!r}) is not valid JSON: {err.pointer}: {err.complaint}"
    except ValueError as err:
        where = f" at block line {err.lineno}" if isinstance(err, json.JSONDecodeError) else ""
        reason = err.msg if isinstance(err, json.JSONDecodeError) else str(err)
        error = f"example {index} ({title!r}) is not valid JSON: {reason}{where}"
    return Example(
        rule_id, index, title, attributes["verdict"], value, raw, path, line, json_error=error
    )
