"""The harness kit: what every Python harness of ``rttool-adapter/1`` needs, written once.

* :class:`KitHarness` answers the whole conversation (``hello``, ``start``, ``step``,
  ``finish``, ``bye``, error replies); a harness subclasses it with
  :meth:`~KitHarness.describe` (its handshake) and :meth:`~KitHarness.open` (a
  :class:`Session` for one scenario).
* Builders for what a harness reports: :func:`handshake`, :class:`StepRecord`,
  :class:`Run`, :class:`Pass`, :class:`WireTurn`, :func:`note`.  They fill in the
  protocol's frame and check every value against the published schemas as it is set:
  a wrong value raises :class:`BuildError` at the line that set it, naming its JSON
  pointer.
* :class:`Script` plays the scenario's model replies and tool returns in order.
* :func:`serve_stdio`, :func:`http_server` and :func:`main` serve a harness as JSON
  lines or behind HTTP; the harness object itself is a ``python:`` harness.

The kit depends on nothing outside :mod:`adapters` and ``jsonschema``.
"""

from adapters.kit._frame import BuildError
from adapters.kit._handshake import handshake
from adapters.kit._harness import KitHarness, RequestError, Session, UnsupportedScenario
from adapters.kit._records import MAX_FAILURE_CHARS, Outcome, StepRecord, WireTurn
from adapters.kit._runs import Cause, Disposition, End, Pass, Run, note
from adapters.kit._script import DONE, Script
from adapters.kit._serve import MAX_REQUEST_BYTES, http_server, main, serve_stdio

__all__ = [
    "DONE",
    "MAX_FAILURE_CHARS",
    "MAX_REQUEST_BYTES",
    "BuildError",
    "Cause",
    "Disposition",
    "End",
    "KitHarness",
    "Outcome",
    "Pass",
    "RequestError",
    "Run",
    "Script",
    "Session",
    "StepRecord",
    "UnsupportedScenario",
    "WireTurn",
    "handshake",
    "http_server",
    "main",
    "note",
    "serve_stdio",
]
