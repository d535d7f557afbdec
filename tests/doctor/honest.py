"""The reference runtime's harness, its handshake saying that no interruption resumes a
turn on its own: what a runtime without automatic continuation honestly declares
(``python:tests.doctor.honest:create``)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from reference_impl.harness import create as reference


class Honest:
    """Answers as the reference harness does, but for the handshake's declaration."""

    def __init__(self) -> None:
        self.inner = reference()

    def request(self, message: Mapping[str, Any]) -> Mapping[str, Any]:
        reply: dict[str, Any] = copy.deepcopy(dict(self.inner.request(message)))
        if message.get("cmd") == "hello":
            reply.setdefault("durable_resume", {})["resumes_on_its_own"] = []
        return reply

    def close(self) -> None:
        self.inner.close()


def create() -> Honest:
    """The harness."""
    return Honest()
