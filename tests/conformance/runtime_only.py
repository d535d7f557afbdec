"""A harness for the reference runtime (or one of its mutants) that claims the runtime
profile only, as an agent framework without durable resume would."""

from __future__ import annotations

from adapters.protocol import Message
from reference_impl.harness import ReferenceHarness


class RuntimeOnly:
    """The reference harness, its handshake narrowed to the `runtime` profile."""

    def __init__(self, mutant: str | None = None) -> None:
        self._inner = ReferenceHarness(mutant or None)

    def request(self, message: Message) -> Message:
        reply = self._inner.request(message)
        if message.get("cmd") == "hello":
            return {**reply, "profiles": ["runtime"]}
        return reply


def create(mutant: str | None = None) -> RuntimeOnly:
    """``python:tests.conformance.runtime_only:create?mutant=NAME``."""
    return RuntimeOnly(mutant)
