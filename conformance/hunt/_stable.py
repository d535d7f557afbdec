"""Strategies labelled the same in every process, so that a seeded search shrinks the
same way wherever it runs.

Hypothesis labels ``st.just(value)`` and ``st.sampled_from(values)`` by ``hash`` of the
values, and its shrinker orders some of its passes by label.  Strings hash the same in
every process only under a fixed ``PYTHONHASHSEED`` (``rttool`` sets one for a
reproducible run: ``conformance/reproducible.py``), and before Python 3.12 ``hash(None)``,
and with it the hash of every dataclass or tuple holding ``None``, is the object's
address, which differs from one process to the next.  These two draw exactly what
``st.just`` and ``st.sampled_from`` draw (nothing, and one index), but are labelled by the
hash of the values' text (``repr``), the same in every process under a fixed seed.  A
value whose ``repr`` shows an address would be unstable again: give such a value a
``repr`` of its own.  ``tests/conformance/test_hunt_reproducible.py`` holds the hunt's
strategies to these two for every value that is not text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

__all__ = ["fixed", "one_of_values"]

T = TypeVar("T")


def fixed(value: T) -> st.SearchStrategy[T]:
    """``st.just(value)``, labelled by ``repr(value)`` (values that print alike are one)."""
    return st.just(repr(value)).map(lambda _: value)


def one_of_values(values: Sequence[T]) -> st.SearchStrategy[T]:
    """``st.sampled_from(values)``, the same index drawn, labelled by the values' reprs."""
    chosen = tuple(values)
    return st.sampled_from(tuple(f"{index}:{value!r}" for index, value in enumerate(chosen))).map(
        lambda named: chosen[int(named.partition(":")[0])]
    )
