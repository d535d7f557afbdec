"""Refusals the reference runtime gives its callers: a stable code and an HTTP status."""

from __future__ import annotations

from adapters.errors import RttoolError

__all__ = ["Refusal"]


class Refusal(RttoolError):
    """A request the runtime refuses; nothing it asked for has taken effect.

    ``code`` is stable and machine-readable; ``status`` is the HTTP status the API uses
    (400 malformed, 404 unknown id, 409 wrong state, 503 a failed write-back).
    """

    def __init__(self, code: str, message: str, *, status: int, **details: object) -> None:
        super().__init__(message, code=code, **details)
        self.code = code
        self.status = status
