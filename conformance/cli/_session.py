"""What ``rttool run`` takes from its pytest session: the standing the suite built, and
whether its reports were written.

The gate judges that standing, not what reached the disk, so a report that could not be
written never improves the exit code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

    from conformance.report import StandingReport

__all__ = ["SessionResult"]


class SessionResult:
    """Filled in at the end of the session, from the suite's own plugin."""

    def __init__(self) -> None:
        self.report: StandingReport | None = None
        self.write_error: str | None = None
        #: the hunt was interrupted: the run ends as interrupted, with what it found
        self.hunt_interrupted = False

    def take(self, session: pytest.Session) -> None:
        """Read the suite plugin's results (its own session-finish hook has run)."""
        suite = session.config.pluginmanager.get_plugin("rttool-suite")
        if suite is not None:
            self.report = suite.report
            self.write_error = suite.write_error
            self.hunt_interrupted = suite.hunt_interrupted

    def plugin(self) -> object:
        """A pytest plugin handing the session to :meth:`take` after every other plugin."""
        import pytest

        result = self

        class Collector:
            @pytest.hookimpl(trylast=True)
            def pytest_sessionfinish(self, session: pytest.Session) -> None:
                result.take(session)

        return Collector()
