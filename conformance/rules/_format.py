"""The fixed parts of a published rule page, shared by the parser and the renderer.

A page is YAML front matter, ``# ID — title``, an italic meta line, an optional
summary paragraph, ``## The rule`` (a blockquote of numbered clauses),
the narrative (``## What it means``, ``## Example``), ``## Related rules`` and a
licence footer.  The exact strings live here so that the two directions agree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import yaml

__all__ = [
    "FOOTER",
    "FRONT_MATTER_KEYS",
    "NAMES_LABEL",
    "NONE_MARK",
    "NORMATIVE_MARKER",
    "REFERENCED_LABEL",
    "SECTION_EXAMPLE",
    "SECTION_MEANING",
    "SECTION_RELATED",
    "SECTION_RULE",
    "MetaLine",
    "parse_meta_line",
    "related_line",
    "yaml_scalar",
]

FOOTER = (
    "Rule identifiers are permanent and are never renumbered. This specification carries\n"
    "no implementation status: each implementation publishes its own standing against\n"
    "these rules. Licensed CC BY 4.0."
)
NORMATIVE_MARKER = "**Normative.** This is the rule."
SECTION_RULE = "The rule"
SECTION_MEANING = "What it means"
SECTION_EXAMPLE = "Example"
SECTION_RELATED = "Related rules"
NAMES_LABEL = "Names"
REFERENCED_LABEL = "Referenced by"
#: Written in place of an empty list of related rules (the line is never omitted).
NONE_MARK = "—"

#: Front-matter keys in page order; ``part`` and ``rule_hash`` are optional and last,
#: so a page without them is byte-identical to the published page.
FRONT_MATTER_KEYS = (
    "id",
    "family",
    "level",
    "profiles",
    "posture",
    "added",
    "changed",
    "source",
    "specification",
    "licence",
    "part",
    "rule_hash",
)

_META = re.compile(
    r"^\*(?P<family>[A-Z][A-Z0-9-]*)(?: \(Part (?P<part>[IVX]+)\))?"
    r" · level: (?P<level>[^·*]+?)"
    r" · profiles: (?P<profiles>[^·*]+?)"
    r" · added in (?P<added>[^·*\s]+)"
    r"(?: · changed in (?P<changed>[^·*\s]+))?\*$"
)


@dataclass(frozen=True)
class MetaLine:
    """What the italic line under the heading states about the rule."""

    family: str
    part: str | None
    level: str
    profiles: tuple[str, ...]
    added: str
    changed: str

    def render(self) -> str:
        """The line as a page shows it; ``changed in`` appears only when it differs."""
        family = self.family if self.part is None else f"{self.family} (Part {self.part})"
        text = (
            f"*{family} · level: {self.level} · profiles: {', '.join(self.profiles)}"
            f" · added in {self.added}"
        )
        if self.changed != self.added:
            text += f" · changed in {self.changed}"
        return text + "*"

    def disagreements(self, values: Mapping[str, object]) -> list[tuple[str, object, object]]:
        """``(field, meta line's value, front matter's value)`` for each fact that differs.

        ``part`` is compared only when the front matter states one (it is optional there).
        """
        stated: list[tuple[str, object, object]] = [
            ("family", self.family, values.get("family")),
            ("level", self.level, values.get("level")),
            ("profiles", list(self.profiles), values.get("profiles")),
            ("added", self.added, values.get("added")),
            ("changed", self.changed, values.get("changed")),
        ]
        if "part" in values:
            stated.append(("part", self.part, values.get("part")))
        return [(name, shown, wanted) for name, shown, wanted in stated if shown != wanted]


def parse_meta_line(text: str) -> MetaLine | None:
    """Read a meta line back; ``None`` if it does not have the page shape."""
    match = _META.match(text.strip())
    if match is None:
        return None
    return MetaLine(
        family=match["family"],
        part=match["part"],
        level=match["level"],
        profiles=tuple(item.strip() for item in match["profiles"].split(",")),
        added=match["added"],
        changed=match["changed"] or match["added"],
    )


def yaml_scalar(value: str) -> str:
    """``value`` as a YAML scalar: plain where YAML reads it back unchanged, else quoted.

    A JSON string literal is also a valid YAML double-quoted scalar, so quoting never
    needs its own escaping rules.
    """
    if value and "\n" not in value and value == value.strip():
        try:
            if yaml.safe_load(f"k: {value}") == {"k": value}:
                return value
        except yaml.YAMLError:
            pass
    return json.dumps(value, ensure_ascii=False)


def related_line(label: str, rule_ids: Sequence[str]) -> str:
    """One line of the ``## Related rules`` list, ``- Names: RT-TOOL-4, RT-TOOL-6``."""
    return f"- {label}: {', '.join(rule_ids) if rule_ids else NONE_MARK}"
