"""A harness given credentials, as a real one is given its own:
``python:tests.conformance.credentialed:create?token=T&region=R[&mutant=M][&refuse=1]``.

The reference runtime's harness (or one of its mutants), or with ``refuse`` one that
refuses every restart (``restore_fails``); ``token`` and ``region`` are taken and not
used.  Every option but ``mutant`` may be a secret: the suite shows none of their values.
"""

from __future__ import annotations

from reference_impl.harness import ReferenceHarness
from reference_impl.harness import create as reference
from tests.conformance.restore_fails import RestoreFails


def create(
    token: str = "", region: str = "", mutant: str = "", refuse: str = ""
) -> ReferenceHarness | RestoreFails:
    """``python:tests.conformance.credentialed:create?...``."""
    del token, region  # a real harness would sign its requests with them
    return RestoreFails(0) if refuse else reference(mutant or None)
