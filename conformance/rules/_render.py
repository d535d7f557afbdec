"""Write a :class:`Rule` as a published rule page.

The layout is the published one, byte for byte: a page rendered without the two
optional front-matter fields (``part``, ``rule_hash``) is identical to the page
the specification publishes for that rule.
"""

from __future__ import annotations

from conformance.rules._format import (
    FOOTER,
    NAMES_LABEL,
    NORMATIVE_MARKER,
    REFERENCED_LABEL,
    SECTION_RELATED,
    SECTION_RULE,
    MetaLine,
    related_line,
    yaml_scalar,
)
from conformance.rules._model import Rule

__all__ = ["render_page"]


def _front_matter(rule: Rule, optional_fields: bool) -> list[str]:
    profiles = ", ".join(yaml_scalar(profile) for profile in rule.profiles)
    lines = [
        "---",
        f"id: {yaml_scalar(rule.id)}",
        f"family: {yaml_scalar(rule.family)}",
        f"level: {yaml_scalar(rule.level)}",
        f"profiles: [{profiles}]",
        f"posture: {yaml_scalar(rule.posture)}",
        f"added: {yaml_scalar(rule.added)}",
        f"changed: {yaml_scalar(rule.changed)}",
        f"source: {yaml_scalar(rule.source)}",
        f"specification: {yaml_scalar(rule.specification)}",
        f"licence: {yaml_scalar(rule.licence)}",
    ]
    if optional_fields and rule.part is not None:
        lines.append(f"part: {yaml_scalar(rule.part)}")
    if optional_fields and rule.rule_hash is not None:
        lines.append(f"rule_hash: {yaml_scalar(rule.rule_hash)}")
    lines.append("---")
    return lines


def render_page(rule: Rule, *, optional_fields: bool = True) -> str:
    """The page for ``rule``.

    With ``optional_fields`` the front matter also carries ``part`` and
    ``rule_hash`` where the rule has them.  The page ends without a final newline,
    as the published pages do.
    """
    meta = MetaLine(rule.family, rule.part, rule.level, rule.profiles, rule.added, rule.changed)
    lines = _front_matter(rule, optional_fields)
    lines += ["", f"# {rule.id} — {rule.title}", "", meta.render(), ""]
    if rule.summary:
        lines += [rule.summary, ""]
    lines += [f"## {SECTION_RULE}", "", f"> {NORMATIVE_MARKER}"]
    for clause in rule.clauses:
        lines += [">", f"> {clause.number}. {clause.text}"]
    # The published pages leave two blank lines after the blockquote.
    lines += ["", ""]
    if rule.narrative:
        lines += [rule.narrative, ""]
    lines += [
        f"## {SECTION_RELATED}",
        "",
        related_line(NAMES_LABEL, rule.names),
        related_line(REFERENCED_LABEL, rule.referenced_by),
        "",
        "---",
        "",
        FOOTER,
    ]
    return "\n".join(lines)
