"""What ``rttool run`` takes from its pytest session: the standing the suite built, and
whether its reports were written.

The gate judges that standing, not what reached the disk, so a report that could not be
written never improves the exit code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

    from conformance._progress import Progress
    from conformance._pytest import CaseOutcome
    from conformance.report import StandingReport

__all__ = ["RunProgress", "SessionResult"]


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


class RunProgress:
    """A pytest plugin's worth of hooks saying, on standard error, how many cases are done
    of how many, how many failed so far, and how many examples the hunt has judged (as
    each hunt case ends); see :mod:`conformance._progress`."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self._examples = 0

    def collected(self, count: int) -> None:
        """The total: the items collected (by this process, or by each xdist worker)."""
        if count:
            self.progress.resize(count)

    def reported(self, report: pytest.TestReport) -> None:
        """A case is done when its call phase reports (or its set-up fails)."""
        if not (report.when == "call" or (report.failed and report.when == "setup")):
            return
        outcome = _outcome(report)
        failed = report.failed or (outcome is not None and outcome.outcome in ("failed", "error"))
        if outcome is not None and outcome.hunt is not None:
            self._examples += int(outcome.hunt.get("examples", 0))
            self.progress.tally(f"hunt: {self._examples} examples")
        self.progress.advance(failed=failed, note=report.nodeid.rpartition("[")[2].rstrip("]"))

    def plugin(self) -> object:
        """The pytest plugin (xdist's hook marked optional: xdist may not be loaded)."""
        import pytest

        watcher = self

        class Watching:
            def pytest_collection_finish(self, session: pytest.Session) -> None:
                watcher.collected(len(session.items))

            @pytest.hookimpl(optionalhook=True)
            def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
                watcher.collected(len(ids))

            def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
                watcher.reported(report)

        return Watching()


def _outcome(report: pytest.TestReport) -> CaseOutcome | None:
    """The case's outcome, as the suite's test recorded it."""
    from conformance._pytest import CaseOutcome

    for key, value in report.user_properties:
        if key == "rttool" and isinstance(value, str):
            return CaseOutcome.from_json(value)
    return None
