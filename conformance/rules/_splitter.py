"""Split a rule's normative text into clauses, exactly as the published pages do.

The upstream pages state the algorithm: collapse whitespace, then split after
``.``, ``?`` or ``!`` when that mark is outside a backtick code span and is followed
by whitespace and then a capital letter, a digit, a backtick, ``"``, ``“`` or
``(``.  There is deliberately no abbreviation handling: a sentence that would be
split wrongly is a sentence to reword, not a case to special-case.

Code spans follow CommonMark: a run of *n* backticks opens a span that the next run
of exactly *n* backticks closes; a run with no such partner is literal text.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["collapse_whitespace", "is_clause_start", "split_clauses"]

_WHITESPACE = re.compile(r"\s+")
_ENDERS = frozenset(".?!")
_OPENERS = frozenset('`"“(')


def collapse_whitespace(text: str) -> str:
    """``text`` with every whitespace run turned into one space, and trimmed."""
    return _WHITESPACE.sub(" ", text).strip()


def is_clause_start(char: str) -> bool:
    """True for a character that may begin a new clause after a sentence mark.

    Capital letters and digits are taken in the Unicode sense (categories ``Lu``
    and ``Nd``), so ``É`` starts a clause just as ``E`` does.
    """
    if char in _OPENERS:
        return True
    return unicodedata.category(char) in ("Lu", "Nd")


def _code_span_mask(text: str) -> list[bool]:
    """For each character of ``text``, whether it lies inside a code span."""
    inside = [False] * len(text)
    found = _backtick_run(text, 0)
    while found is not None:
        index, run_end = found
        width = run_end - index
        closer = _find_closing_run(text, run_end, width)
        if closer is None:
            # An opener without a partner is literal backticks; keep scanning after it.
            found = _backtick_run(text, run_end)
            continue
        for position in range(index, closer + width):
            inside[position] = True
        found = _backtick_run(text, closer + width)
    return inside


def _find_closing_run(text: str, start: int, width: int) -> int | None:
    found = _backtick_run(text, start)
    while found is not None:
        index, run_end = found
        if run_end - index == width:
            return index
        found = _backtick_run(text, run_end)
    return None


def _backtick_run(text: str, start: int) -> tuple[int, int] | None:
    """Where the first run of backticks at or after ``start`` begins and ends, if any."""
    index = text.find("`", start)
    if index < 0:
        return None
    run_end = index
    while run_end < len(text) and text[run_end] == "`":
        run_end += 1
    return index, run_end


def split_clauses(text: str) -> list[str]:
    """The clauses of ``text``; joining them with single spaces gives the collapsed text.

    An empty or all-whitespace text has no clauses.
    """
    collapsed = collapse_whitespace(text)
    if not collapsed:
        return []
    inside = _code_span_mask(collapsed)
    clauses: list[str] = []
    start = 0
    # After collapsing, a split point is "<mark> <opener>": exactly one space between.
    for index in range(len(collapsed) - 2):
        if (
            collapsed[index] in _ENDERS
            and not inside[index]
            and collapsed[index + 1] == " "
            and is_clause_start(collapsed[index + 2])
        ):
            clauses.append(collapsed[start : index + 1])
            start = index + 2
    clauses.append(collapsed[start:])
    return clauses
