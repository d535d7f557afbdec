"""The one test function of the suite, parametrized with every planned case.

Test ids carry the case id (``RT-TOOL-7#c4/held-put-back``).
"""

from __future__ import annotations

import pytest

from conformance._escape import printable
from conformance._pytest._plugin import STATE, report_allure
from conformance.engine import Case


def test_rttool(rttool_case: Case, request: pytest.FixtureRequest) -> None:
    """Run one case against the implementation under test."""
    state = request.config.stash[STATE]
    outcome = state.session.execute(rttool_case)
    request.node.user_properties.append(("rttool", outcome.to_json()))
    report_allure(request.config, state, rttool_case, outcome)
    # The message may quote the implementation: its control characters are shown, not sent.
    message = printable(outcome.message)
    if outcome.outcome == "failed":
        pytest.fail(f"{rttool_case.id}: {message}", pytrace=False)
    if outcome.outcome == "error":
        pytest.fail(f"{rttool_case.id}: error ({outcome.fault}): {message}", pytrace=False)
    if outcome.outcome == "skipped":
        pytest.skip(message)
