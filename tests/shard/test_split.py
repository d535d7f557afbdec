"""How a run is split: every selected rule to exactly one shard, every hunt batch to
exactly one shard, the same split on every runner, and ``K/N`` read strictly."""

from __future__ import annotations

import argparse

import pytest

from conformance._arguments import shard
from conformance.engine import Case, Suite, split_rules
from conformance.hunt import share
from conformance.rules import load_corpus


def _cases() -> list[Case]:
    corpus = load_corpus()
    return Suite.over(corpus).cases()


@pytest.mark.parametrize("count", [1, 2, 3, 4, 16, 40])
def test_every_rule_goes_to_exactly_one_shard_and_the_split_is_stable(count: int) -> None:
    cases = _cases()
    owners = split_rules(cases, count)
    assert set(owners) == {rule for case in cases for rule in case.rules}
    assert set(owners.values()) <= set(range(1, count + 1))
    assert split_rules(list(cases), count) == owners  # computed alike on every runner


def test_the_split_balances_the_cases() -> None:
    cases = _cases()
    owners = split_rules(cases, 4)
    loads = [sum(owners[case.rules[0]] == k for case in cases) for k in range(1, 5)]
    assert min(loads) > 0
    assert max(loads) - min(loads) <= max(
        len([c for c in cases if c.rules[0] == r]) for r in owners
    )


@pytest.mark.parametrize(("examples", "count"), [(150, 1), (150, 2), (150, 4), (30, 4), (7, 3)])
def test_the_shards_shares_of_the_hunt_add_up_to_the_whole(examples: int, count: int) -> None:
    shares = [share(examples, 25, (index, count)) for index in range(1, count + 1)]
    assert sum(shares) == examples
    assert shares[0] == max(shares)  # the first batches go to the first shards


def test_the_corpus_digest_names_the_normative_text() -> None:
    assert load_corpus().digest == load_corpus().digest
    assert len(load_corpus().digest) == 16


@pytest.mark.parametrize("text", ["0/4", "5/4", "1/0", "x/2", "2", "1/2/3", "1/999"])
def test_a_bad_shard_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        shard(text)


def test_a_shard_is_read_as_index_and_count() -> None:
    assert shard("3/4") == (3, 4)
