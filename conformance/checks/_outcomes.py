"""How a check ends, other than by passing."""

from __future__ import annotations

from adapters.errors import RttoolError

__all__ = ["CheckFailed", "NotApplicable", "Untested"]


class CheckFailed(AssertionError):
    """The implementation does not do what the clause requires; the message says what."""


class Untested(RttoolError):
    """The check could not run: the implementation lacks a capability or observation."""


class NotApplicable(RttoolError):
    """The clause does not bind this implementation (a profile or stance it does not claim)."""
