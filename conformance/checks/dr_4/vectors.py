"""DR-4's examples as vectors: its page has no json example, so nothing is bound."""

from __future__ import annotations

from conformance.toolkit import Binding, Stage

__all__ = ["BINDINGS", "STAGES"]

#: DR-4's page has no json example.
STAGES: dict[tuple[str, str], Stage] = {}


BINDINGS: tuple[Binding, ...] = ()
