"""A run that is one shard of several: its share of the cases, and the record of it its
standing carries (which shard, what it left to the others, its share of the hunt)."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.cases import Case
from conformance.rules import Corpus

__all__ = ["ShardPlan", "shard_cases"]


@dataclass(frozen=True)
class ShardPlan:
    """Shard ``index`` of ``count``: the selected rules it runs and those it leaves."""

    index: int
    count: int
    corpus: str
    rules: tuple[str, ...]
    left: tuple[str, ...]


def shard_cases(
    corpus: Corpus, cases: list[Case], shard: tuple[int, int] | None
) -> tuple[list[Case], ShardPlan | None]:
    """The cases shard ``(K, N)`` runs: every case of the rules the split gives it, and
    every hunt case (the hunt is split by examples, each shard searching its own batches).
    Without a shard, every case and no plan."""
    if shard is None:
        return cases, None
    from conformance.shard import corpus_digest, split_rules

    index, count = shard
    owners = split_rules(cases, count)
    order = [rule.id for rule in corpus.rules if rule.id in owners]
    mine = tuple(rule for rule in order if owners[rule] == index)
    left = tuple(rule for rule in order if owners[rule] != index)
    kept = [case for case in cases if case.kind == "hunt" or set(case.rules) & set(mine)]
    return kept, ShardPlan(index, count, corpus_digest(corpus), mine, left)
