"""The end of a run in one call: write every report, gate, summarise for CI."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from conformance.report._expectations import Expectations
from conformance.report._gate import GateResult, gate
from conformance.report._standing import StandingReport
from conformance.report._summary import append_step_summary, github_step_summary
from conformance.report._values import Level
from conformance.report._writer import ALL_FORMATS, write_reports

__all__ = ["publish"]


def publish(
    report: StandingReport,
    directory: Path,
    *,
    levels: Iterable[Level] | None = None,
    expectations: Expectations | None = None,
    formats: Iterable[str] = ALL_FORMATS,
    environ: Mapping[str, str] | None = None,
) -> GateResult:
    """Gate ``report``, write it into ``directory``, and append the CI step summary.

    The gate runs first so that an expectations file naming something the report
    lacks is refused (:class:`ExpectationsError`) before anything is written; the
    caller turns the result into an exit code (``result.exit_code`` is 0 or 1).
    """
    result = gate(report, levels if levels is not None else report.run.levels, expectations)
    write_reports(report, directory, formats)
    append_step_summary(github_step_summary(report, result), environ)
    return result
