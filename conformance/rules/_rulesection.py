"""Read ``## The rule``: the normative blockquote and its numbered clauses.

Markdown renumbers ordered lists when it renders them, so a page whose clauses
read 1, 2, 4 would still *look* right; the numbers are therefore read from the
source lines themselves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from conformance.rules._markdown import Block
from conformance.rules._splitter import collapse_whitespace

__all__ = ["RuleSection", "read_clauses"]

_LITERAL_NUMBER = re.compile(r"^[\s>]*(?P<number>[0-9]+)[.)]")


@dataclass(frozen=True)
class RuleSection:
    """Clauses as ``(number, text, line index)`` and problems as ``(line index, code, text)``.

    Line indexes are 0-based within the page body.
    """

    clauses: tuple[tuple[int, str, int], ...]
    problems: tuple[tuple[int, str, str], ...]


def read_clauses(
    heading: Block, content: Sequence[Block], lines: Sequence[str], marker: str
) -> RuleSection:
    """The clauses under the ``## The rule`` heading; ``marker`` opens the blockquote."""
    problems: list[tuple[int, str, str]] = []
    quotes = [block for block in content if block.kind == "blockquote"]
    if len(quotes) != 1 or len(content) != 1:
        problems.append(
            (heading.start, "structure", "'## The rule' must hold exactly one blockquote")
        )
    if not quotes:
        return RuleSection((), tuple(problems))
    quote = quotes[0]
    clauses: list[tuple[int, str, int]] = []
    marker_seen = False
    tokens = quote.tokens
    index = 1
    while index < len(tokens) - 1:
        token = tokens[index]
        start = token.map[0] if token.map else quote.start
        if token.level != 1 or token.nesting == -1:
            index += 1
            continue
        if token.type == "paragraph_open" and not marker_seen and not clauses:
            text = collapse_whitespace(tokens[index + 1].content)
            if text != marker:
                problems.append((start, "structure", f"the blockquote must open with {marker!r}"))
            marker_seen = True
        elif token.type == "ordered_list_open":
            index = _list_items(tokens, index, lines, clauses, problems)
            continue
        else:
            what = "bullet list" if token.type == "bullet_list_open" else token.type
            problems.append(
                (start, "structure", f"unexpected {what} in the rule: clauses are a numbered list")
            )
        index += 1
    if not marker_seen:
        problems.append((quote.start, "structure", f"the blockquote must open with {marker!r}"))
    if not clauses:
        problems.append((quote.start, "structure", "the rule has no numbered clauses"))
    return RuleSection(tuple(clauses), tuple(problems))


def _list_items(
    tokens: Sequence[Token],
    index: int,
    lines: Sequence[str],
    clauses: list[tuple[int, str, int]],
    problems: list[tuple[int, str, str]],
) -> int:
    """Consume one ordered list starting at ``tokens[index]``; returns the index after it."""
    depth = 0
    item_start = 0
    parts: list[str] = []
    while index < len(tokens):
        token = tokens[index]
        depth += token.nesting
        if token.type == "list_item_open" and depth == 2:
            item_start = token.map[0] if token.map else 0
            parts = []
        elif token.type == "inline":
            parts.append(token.content)
        elif token.type == "list_item_close" and depth == 1:
            _add_clause(item_start, parts, lines, clauses, problems)
        index += 1
        if depth == 0:
            break
    return index


def _add_clause(
    start: int,
    parts: Sequence[str],
    lines: Sequence[str],
    clauses: list[tuple[int, str, int]],
    problems: list[tuple[int, str, str]],
) -> None:
    expected = len(clauses) + 1
    match = _LITERAL_NUMBER.match(lines[start]) if start < len(lines) else None
    literal = int(match["number"]) if match else None
    if literal != expected:
        problems.append(
            (start, "clause-numbering", f"clause numbered {literal} where {expected} was expected")
        )
    text = collapse_whitespace(" ".join(parts))
    if not text:
        problems.append((start, "structure", f"clause {expected} is empty"))
    clauses.append((expected, text, start))
