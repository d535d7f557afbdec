"""A run that is one shard of several: which shard runs which rule, its share of the
cases, and the record of it its standing carries (which shard, what it left to the
others).  The hunt is split by examples instead: each shard searches its own batches
(:func:`conformance.hunt.share`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from conformance.engine._case import Case
from conformance.rules import Corpus

__all__ = ["ShardPlan", "shard_cases", "split_rules"]


@dataclass(frozen=True)
class ShardPlan:
    """Shard ``index`` of ``count``: the selected rules it runs and those it leaves, and
    the digest of the corpus it split."""

    index: int
    count: int
    corpus: str
    rules: tuple[str, ...]
    left: tuple[str, ...]


def split_rules(cases: Sequence[Case], count: int) -> dict[str, int]:
    """Each rule with a case that is not a hunt, mapped to the shard (from 1) that runs it.

    Rules go whole, heaviest first, each to the shard with the fewest cases so far (the
    first such shard on a tie), so the split depends on the cases alone: every runner
    computes the same one.  A rule's cases stay together so that its standing in the
    merged report is the one an unsplit run builds, check for check, in the same order.
    """
    weights: dict[str, int] = {}
    for case in cases:
        for rule in case.rules:
            # A rule reached only by the hunt weighs nothing, but is still someone's.
            weights[rule] = weights.get(rule, 0) + (case.kind != "hunt")
    load = [0] * count
    owner: dict[str, int] = {}
    order = sorted(weights, key=lambda rule: (-weights[rule], list(weights).index(rule)))
    for rule in order:
        shard = min(range(count), key=lambda index: (load[index], index))
        owner[rule] = shard + 1
        load[shard] += weights[rule]
    return {rule: owner[rule] for rule in weights}


def shard_cases(
    corpus: Corpus, cases: Sequence[Case], shard: tuple[int, int] | None
) -> tuple[list[Case], ShardPlan | None]:
    """The cases shard ``(K, N)`` runs: every case of the rules the split gives it, and
    every hunt case (the hunt is split by examples, each shard searching its own batches).
    Without a shard, every case and no plan."""
    if shard is None:
        return list(cases), None
    index, count = shard
    owners = split_rules(cases, count)
    order = [rule.id for rule in corpus.rules if rule.id in owners]
    mine = tuple(rule for rule in order if owners[rule] == index)
    left = tuple(rule for rule in order if owners[rule] != index)
    kept = [case for case in cases if case.kind == "hunt" or set(case.rules) & set(mine)]
    return kept, ShardPlan(index, count, corpus.digest, mine, left)
