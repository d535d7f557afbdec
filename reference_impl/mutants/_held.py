"""Mutants of the held list's bound (RT-TOOL-7 ¶5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reference_impl.behaviour import Behaviour
from reference_impl.mutants._model import Mutant, with_behaviour

__all__ = ["MUTANTS"]


class _HeldDropWithoutWarning(Behaviour):
    """Keeps the oldest within the bound and loses the rest without a word."""

    def held_split(
        self, collected: Sequence[Mapping[str, object]], room: int
    ) -> tuple[list[Mapping[str, object]], list[Mapping[str, object]]]:
        return list(collected[:room]), []


MUTANTS = (
    Mutant(
        "held-drop-without-warning",
        ("RT-TOOL-7#c5",),
        "over the held bound, the newest entries are dropped without a warning",
        with_behaviour(_HeldDropWithoutWarning),
    ),
)
