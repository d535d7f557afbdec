"""Read ``## Related rules``: the ``- Names:`` and ``- Referenced by:`` lines.

Both lines are always present; an empty list is written as ``—``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from conformance.rules._format import NAMES_LABEL, NONE_MARK, REFERENCED_LABEL
from conformance.rules._markdown import Block
from conformance.rules._splitter import collapse_whitespace

__all__ = ["RelatedSection", "read_related"]

_LINE = re.compile(r"^(?P<label>[^:]+):\s*(?P<ids>.*)$")
_RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[0-9]+$")


@dataclass(frozen=True)
class RelatedSection:
    """The two lists, the 0-based line index of each label, and problems found."""

    names: tuple[str, ...]
    referenced_by: tuple[str, ...]
    label_lines: tuple[tuple[str, int], ...]
    problems: tuple[tuple[int, str, str], ...]


def read_related(heading: Block, content: Sequence[Block]) -> RelatedSection:
    """The related-rule lists under the ``## Related rules`` heading."""
    problems: list[tuple[int, str, str]] = []
    seen: dict[str, tuple[str, ...]] = {}
    label_lines: list[tuple[str, int]] = []
    lists = [block for block in content if block.kind == "bullet_list"]
    if len(lists) != 1 or len(content) != 1:
        problems.append(
            (heading.start, "structure", "'## Related rules' must hold exactly one bullet list")
        )
    for block in lists:
        for token in block.tokens:
            if token.type != "inline" or token.map is None:
                continue
            index = token.map[0]
            match = _LINE.match(collapse_whitespace(token.content))
            label = match["label"] if match else ""
            if match is None or label not in (NAMES_LABEL, REFERENCED_LABEL) or label in seen:
                problems.append(
                    (
                        index,
                        "structure",
                        f"related-rules line must be '- {NAMES_LABEL}: …' or "
                        f"'- {REFERENCED_LABEL}: …', once each",
                    )
                )
                continue
            label_lines.append((label, index))
            seen[label] = _ids(match["ids"].strip(), index, problems)
    for label in (NAMES_LABEL, REFERENCED_LABEL):
        if label not in seen:
            problems.append((heading.start, "structure", f"no '- {label}:' line"))
    return RelatedSection(
        names=seen.get(NAMES_LABEL, ()),
        referenced_by=seen.get(REFERENCED_LABEL, ()),
        label_lines=tuple(label_lines),
        problems=tuple(problems),
    )


def _ids(text: str, index: int, problems: list[tuple[int, str, str]]) -> tuple[str, ...]:
    if text in (NONE_MARK, ""):
        return ()
    ids = tuple(item.strip() for item in text.split(","))
    for rule_id in ids:
        if not _RULE_ID.match(rule_id):
            problems.append((index, "structure", f"{rule_id!r} is not a rule id"))
    return tuple(rule_id for rule_id in ids if _RULE_ID.match(rule_id))
