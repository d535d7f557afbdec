"""The standings of a split run's shards merged into one.

Which shard runs which rule is the engine's (:func:`conformance.engine.split_rules`: a
deterministic split of the selected rules, a rule's cases always together, so each
rule's standing comes whole from one shard; the hunt is split by examples instead, each
shard its own seeds); :func:`merge_standings` joins the shards' standings into the one
standing an unsplit run of the same cases and seeds writes.

No scheduler: the CI system's matrix starts the shards, and hypothesis's example
databases share what they find (``conformance/hunt``).
"""

from conformance.shard._merge import MergeRefused, merge_standings

__all__ = ["MergeRefused", "merge_standings"]
