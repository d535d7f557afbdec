"""The one exception root of rttool, and one exception per way an implementation can fail.

Every layer (``adapters``, ``conformance``, ``reference_impl``) raises subclasses of
:class:`RttoolError`.  Messages carry ``name=value`` pairs so that a one-line report
names exactly what went wrong; the underlying cause is kept with ``raise ... from err``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adapters.trace import Trace

__all__ = [
    "DETAIL_CHARS",
    "BadJson",
    "BrokenOffer",
    "Crashed",
    "ImplementationError",
    "ProtocolMismatch",
    "RttoolError",
    "SchemaViolation",
    "SpecError",
    "SuiteError",
    "TimedOut",
    "Unreachable",
]


def _pairs(details: Mapping[str, object]) -> str:
    # Values often come from an implementation: quote (and so escape) any string with a
    # space or a character that is not printable, so that one line stays one line.
    return " ".join(
        f"{key}={value!r}"
        if isinstance(value, str) and (" " in value or not value.isprintable())
        else f"{key}={value}"
        for key, value in details.items()
    )


#: The most of an error's ``detail`` (a harness's traceback) the suite keeps: its end.
DETAIL_CHARS = 20_000


class RttoolError(Exception):
    """Root of every error rttool raises on purpose.

    ``details`` are rendered as ``name=value`` after the message.
    """

    def __init__(self, message: str, **details: object) -> None:
        self.message = message
        self.details: dict[str, object] = dict(details)
        text = message if not details else f"{message}: {_pairs(details)}"
        super().__init__(text)


class SpecError(RttoolError):
    """An implementation spec (``--impl``) that names nothing rttool can drive."""


class SuiteError(RttoolError):
    """A fault of the suite itself (for example a scenario that violates the protocol)."""


class ImplementationError(RttoolError):
    """The implementation under test, or its harness, misbehaved.

    Reported on the affected checks as the implementation's fault; the run goes on.
    Where it ended a scenario part way, ``partial_trace`` holds the steps answered before
    it (set by :meth:`adapters.Driver.run`): the evidence a report keeps of the error.
    """

    kind = "implementation"
    partial_trace: Trace | None = None
    #: what the harness told of its own fault beside its message (the protocol error's
    #: ``detail``: a traceback, say), set by the driver from an error reply
    detail: str | None = None


class Unreachable(ImplementationError):
    """The implementation could not be reached (connection refused, command not found)."""

    kind = "unreachable"


class TimedOut(ImplementationError):
    """The implementation did not answer within the per-request timeout."""

    kind = "timeout"


class Crashed(ImplementationError):
    """The implementation's process exited; ``stderr`` holds what it printed last."""

    kind = "crashed"

    def __init__(self, message: str, *, stderr: str = "", **details: object) -> None:
        tail = stderr.strip().splitlines()[-1:] if stderr.strip() else []
        if tail:
            details["stderr"] = tail[0][:200]
        super().__init__(message, **details)
        self.stderr = stderr


class BadJson(ImplementationError):
    """The implementation answered something that is not a JSON object."""

    kind = "bad-json"


class SchemaViolation(ImplementationError):
    """A message broke the published protocol schema.

    ``pointer`` is the JSON pointer of the offending value, ``complaint`` the schema's
    own words.
    """

    kind = "schema"

    def __init__(self, message: str, *, pointer: str, complaint: str, **details: object) -> None:
        super().__init__(message, pointer=pointer or "/", complaint=complaint, **details)
        self.pointer = pointer or "/"
        self.complaint = complaint


class BrokenOffer(ImplementationError):
    """The harness answered ``unsupported`` for a capability its handshake offered: the
    case it was asked to run is an error, not untested (the offer said it could run)."""

    kind = "broken-offer"


class ProtocolMismatch(ImplementationError):
    """The implementation speaks a protocol version this suite does not."""

    kind = "protocol"
