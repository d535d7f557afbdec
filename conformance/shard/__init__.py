"""A run split across machines, and the standings of its shards merged into one.

* :func:`split_rules` — which shard runs which rule: a deterministic split of the selected
  rules (a rule's cases always run together, so each rule's standing comes whole from one
  shard); the hunt is split by examples instead (each shard its own seeds);
* :func:`corpus_digest` — what identifies a rule corpus across machines;
* :func:`merge_standings` — the shards' standings as the one standing an unsplit run of
  the same cases and seeds writes.

No scheduler: the CI system's matrix starts the shards, and hypothesis's example
databases share what they find (``conformance/hunt``).
"""

from conformance.shard._merge import MergeRefused, merge_standings
from conformance.shard._plan import corpus_digest, split_rules

__all__ = ["MergeRefused", "corpus_digest", "merge_standings", "split_rules"]
