"""The adapter protocol, as Python sees it.

Two one-method protocols:

* :class:`Harness` is what an implementation's harness provides: it answers one
  request message with one reply message.  A Python harness is named to rttool as
  ``python:MODULE:ATTR``; the same messages travel as JSON lines (``stdio:COMMAND``) or
  as HTTP POST bodies (``http://HOST:PORT/PATH``).
* :class:`Connection` is what a transport gives the suite: the same ``request``, plus
  ``close``.  The suite drives every implementation through a connection only.

Messages are JSON objects described by ``schemas/messages.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

__all__ = ["Connection", "Harness", "Message"]

Message = Mapping[str, object]
"""A protocol message: a JSON object (see ``schemas/messages.json``)."""


@runtime_checkable
class Harness(Protocol):
    """An implementation's harness: answers one protocol request with one reply."""

    def request(self, message: Message) -> Message:
        """Answer ``message`` (``hello``, ``start``, ``step``, ``finish`` or ``bye``)."""
        ...


class Connection(Protocol):
    """A transport's view of a harness, as the suite uses it."""

    #: How the implementation was named (``reference``, ``http://...``, ``stdio:...``).
    spec: str

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        """Send ``message`` and return the reply (raises an ImplementationError)."""
        ...

    def close(self) -> None:
        """Release the transport (end the process, close the client)."""
        ...
