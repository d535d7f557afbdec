"""The arguments DR-6's scenarios give the durable-resume tools
(:func:`conformance.toolkit.tools`): recipients of ``send_email``, a ticket of
``create_ticket``."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ANA", "BO", "TICKET"]

ANA: Mapping[str, object] = {"to": "ana@example.com"}
BO: Mapping[str, object] = {"to": "bo@example.com"}
TICKET: Mapping[str, object] = {"title": "Printer jam"}
