"""The standings of a split run's shards merged into one.

Which shard runs which rule is the engine's (:func:`conformance.engine.split_rules`: a
deterministic split of the selected rules, a rule's cases always together, so each
rule's standing comes whole from one shard; the hunt is split by examples instead, each
shard its own seeds); :func:`merge_standings` joins the shards' standings into the one
standing an unsplit run of the same cases and seeds writes, after recomputing each
shard's share (:func:`recomputed_share`) rather than believing the shard's own record.

No scheduler: the CI system's matrix starts the shards, and hypothesis's example
databases share what they find (``conformance/hunt``).
"""

from conformance.shard._merge import Merged, merge_standings
from conformance.shard._verify import MergeRefused, Planner, Share, recomputed_share

__all__ = ["MergeRefused", "Merged", "Planner", "Share", "merge_standings", "recomputed_share"]
