"""The reference runtime's HTTP API: ``python -m reference_impl.server`` (or
``rttool serve-reference``).

* ``/api``: conversations, turns, the turn read, the message poll, answers, consent
  decisions, Continue and Stop, each turn's ledger, and ``/api/openapi.json``;
* ``/rttool``: the adapter-protocol harness over HTTP, with each session's turns readable
  on the real wire under ``/rttool/sessions/{session}/api``.

Conversations run the demo workflow and model of :mod:`reference_impl.server.demo`
unless their creator posts a workflow.  See ``docs/reference-runtime.md``.
"""

from reference_impl.server._app import LoggingObserver, build_runtime, create_app
from reference_impl.server._openapi import openapi_document

__all__ = ["LoggingObserver", "build_runtime", "create_app", "openapi_document"]
