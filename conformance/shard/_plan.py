"""Which shard runs which rule, and what names a corpus."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from conformance.cases import Case
from conformance.rules import Corpus

__all__ = ["corpus_digest", "split_rules"]


def corpus_digest(corpus: Corpus) -> str:
    """A short digest of the corpus's normative text, rule by rule: two machines with the
    same digest judge against the same clauses (shards of different corpora never merge,
    and the hunt's saved examples are never shared between them)."""
    lines = (f"{rule.id}:{rule.computed_hash}" for rule in corpus.rules)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


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
