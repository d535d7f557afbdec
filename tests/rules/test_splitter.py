"""The clause splitter: the published algorithm, and its properties under hypothesis."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from conformance.rules import collapse_whitespace, split_clauses


def test_splits_after_a_sentence_mark_before_a_capital() -> None:
    assert split_clauses("One thing. Another thing? Yes! Done.") == [
        "One thing.",
        "Another thing?",
        "Yes!",
        "Done.",
    ]


def test_splits_before_a_digit_a_backtick_a_quote_or_a_parenthesis() -> None:
    text = 'A. 2 b. `c` d. "e" f. “g” h. (i) j.'
    assert split_clauses(text) == ["A.", "2 b.", "`c` d.", '"e" f.', "“g” h.", "(i) j."]


def test_does_not_split_before_lowercase_or_without_whitespace() -> None:
    assert split_clauses("Use e.g. this. It works.x Then.") == [
        "Use e.g. this.",
        "It works.x Then.",
    ]


def test_has_no_abbreviation_handling() -> None:
    assert split_clauses("Ask Dr. Smith.") == ["Ask Dr.", "Smith."]


def test_never_splits_inside_a_code_span() -> None:
    assert split_clauses("Call `a. B` now. Then stop.") == ["Call `a. B` now.", "Then stop."]
    assert split_clauses("Run ``x`. Y`` here.") == ["Run ``x`. Y`` here."]


def test_an_unmatched_backtick_is_literal() -> None:
    assert split_clauses("A ` tick. Then more.") == ["A ` tick.", "Then more."]


def test_collapses_whitespace_first() -> None:
    assert split_clauses("  One\n\tthing.\n\n  Two  things. ") == ["One thing.", "Two things."]
    assert split_clauses(" \n ") == []


def test_capitals_are_unicode_capitals() -> None:
    assert split_clauses("Un. École.") == ["Un.", "École."]


_PLAIN = st.text(alphabet=st.sampled_from(list('aB1 .?!"“(\n\t')), min_size=1, max_size=30)
_INNER = st.text(alphabet=st.sampled_from(list("aB1.?! ")), min_size=1, max_size=12).filter(
    lambda inner: inner.strip() == inner and "  " not in inner
)


@st.composite
def _texts_with_spans(draw: st.DrawFn) -> str:
    """Plain runs alternating with single-backtick code spans (never adjacent)."""
    count = draw(st.integers(min_value=0, max_value=4))
    parts = [draw(_PLAIN)]
    for _ in range(count):
        parts.append(f"`{draw(_INNER)}`")
        parts.append(draw(_PLAIN))
    return "".join(parts)


@given(st.text(alphabet=st.sampled_from(list('aZ9 .?!`"“(\n')), max_size=80))
def test_rejoining_the_clauses_gives_the_collapsed_text(text: str) -> None:
    assert " ".join(split_clauses(text)) == collapse_whitespace(text)


@given(st.text(alphabet=st.sampled_from(list('aZ9 .?!`"“(\n')), max_size=80))
def test_splitting_is_idempotent(text: str) -> None:
    for clause in split_clauses(text):
        assert split_clauses(clause) == [clause]


@given(_texts_with_spans())
def test_never_splits_inside_backticks(text: str) -> None:
    collapsed = collapse_whitespace(text)
    clauses = split_clauses(text)
    boundaries = []
    position = 0
    for clause in clauses[:-1]:
        position += len(clause)
        boundaries.append(position)
        position += 1
    for span in re.finditer(r"`[^`]+`", collapsed):
        assert not any(span.start() < boundary < span.end() for boundary in boundaries)
