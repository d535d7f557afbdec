"""Markdown as a list of top-level blocks with source lines, via markdown-it-py.

The parser never scans markdown by hand: markdown-it decides what is a heading, a
list item or a fenced block, and its ``token.map`` gives each block's source lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = ["Block", "blocks", "heading_level", "inline_text"]


@dataclass(frozen=True)
class Block:
    """One top-level markdown block.

    ``kind`` is the token type without ``_open`` (``heading``, ``paragraph``,
    ``blockquote``, ``ordered_list``, ``bullet_list``, ``fence``, ``hr``, …);
    ``start`` and ``end`` are 0-based source line indexes, end exclusive.
    """

    kind: str
    tokens: tuple[Token, ...]
    start: int
    end: int

    @property
    def opener(self) -> Token:
        """The block's first token (``heading_open``, ``fence``, …)."""
        return self.tokens[0]


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def blocks(lines: Sequence[str]) -> list[Block]:
    """The top-level blocks of the markdown in ``lines``, in order."""
    tokens = _parser().parse("\n".join(lines))
    result: list[Block] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        start, end = token.map if token.map else (0, 0)
        if token.nesting == 1:
            depth = 1
            close = index + 1
            while close < len(tokens) and depth:
                depth += tokens[close].nesting
                close += 1
            result.append(
                Block(token.type.removesuffix("_open"), tuple(tokens[index:close]), start, end)
            )
            index = close
        else:
            result.append(Block(token.type, (token,), start, end))
            index += 1
    return result


def heading_level(block: Block) -> int:
    """1 for ``#``, 2 for ``##``; 0 if ``block`` is not a heading."""
    if block.kind != "heading":
        return 0
    return int(block.opener.tag.removeprefix("h"))


def inline_text(block: Block) -> str:
    """The raw markdown of a heading's or paragraph's first inline run, lines joined."""
    for token in block.tokens:
        if token.type == "inline":
            return token.content
    return ""
