"""The words the rule corpus is written in, kept as data in exactly one place.

Verdicts are the words an example's ``verdict="…"`` attribute may carry.  The
RT-TOOL words are the upstream specification's own; the DR words belong to
rttool's durable-resume rules.  Everything that checks a verdict (the linter, and
later the suite's example bindings) reads these tuples rather than its own copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "DR_VERDICTS",
    "FAMILY_ORDER",
    "KNOWN_VERDICTS",
    "LICENCE",
    "RT_TOOL_VERDICTS",
    "UPSTREAM_FAMILIES",
    "UPSTREAM_SPECIFICATION",
    "VERDICTS_BY_FAMILY",
    "upstream_source_url",
]

#: The eighteen verdict words the upstream RT-TOOL narratives use.
RT_TOOL_VERDICTS: tuple[str, ...] = (
    "produced",
    "surfaced",
    "held",
    "reported",
    "plain",
    "attached",
    "mixed",
    "lifted",
    "dropped",
    "kept",
    "sent",
    "decoded",
    "skipped",
    "recorded",
    "resumed",
    "resent",
    "idle",
    "active",
)

#: The verdict words of rttool's own durable-resume (DR) examples.
DR_VERDICTS: tuple[str, ...] = (
    "ledger",
    "journal",
    "journaled",
    "noted",
    "bare",
    "completed",
    "redispatched",
    "ran",
    "cut",
    "capped",
)

#: Which family introduced which verdicts (a verdict is known corpus-wide, not per family).
VERDICTS_BY_FAMILY: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"RT-TOOL": RT_TOOL_VERDICTS, "DR": DR_VERDICTS}
)

#: Every verdict the linter accepts by default.
KNOWN_VERDICTS: frozenset[str] = frozenset(RT_TOOL_VERDICTS) | frozenset(DR_VERDICTS)

#: Families in corpus order: the upstream family first, then rttool's own.
FAMILY_ORDER: tuple[str, ...] = ("RT-TOOL", "DR")

#: Families whose rules are imported from the upstream specification.  Only these
#: can be ``missing`` or ``extra`` when the corpus is compared with upstream.
UPSTREAM_FAMILIES: frozenset[str] = frozenset({"RT-TOOL"})

#: The ``specification`` field of every page imported from upstream.
UPSTREAM_SPECIFICATION = "FlowDrop Workflow Specification 1.0-draft"

#: The licence every page carries, upstream or rttool's own.
LICENCE = "CC BY 4.0"


def upstream_source_url(rule_id: str, family: str) -> str:
    """The published address of an upstream rule page (``…/rt-tool/rt-tool-7``)."""
    return f"https://flowdrop.io/spec/rules/{family.lower()}/{rule_id.lower()}"
