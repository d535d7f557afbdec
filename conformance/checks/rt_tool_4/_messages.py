"""Which of a turn's messages RT-TOOL-4's checks look at: the assistant's, and those whose
``toolArtifacts`` carry a given artifact."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.trace import TurnWire
from conformance.toolkit import entries, pointers

__all__ = ["assistant_indexes", "carrying"]


def assistant_indexes(wire: TurnWire | None) -> list[int]:
    """The indexes of the turn's assistant messages."""
    if wire is None:
        return []
    return [
        index
        for index, row in enumerate(wire.messages)
        if isinstance(row, Mapping) and row.get("role") == "assistant"
    ]


def carrying(wire: TurnWire | None, needle: str) -> list[int]:
    """The indexes of the messages whose ``toolArtifacts`` mention ``needle``."""
    if wire is None:
        return []
    return sorted(
        {
            index
            for index, row in enumerate(wire.messages)
            if isinstance(row, Mapping) and pointers(entries(row.get("toolArtifacts")), needle)
        }
    )
