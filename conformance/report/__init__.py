"""The standing result model, every report format, and the CI gate.

* The model (:class:`StandingReport` down to :class:`CheckResult`) is immutable; clause
  and rule standings are derived by :func:`clause_standing` and :func:`rule_standing`.
* :func:`to_json` / :func:`from_json` are the ``standing.json`` contract, checked
  against ``conformance/schemas/standing.json``.
* :func:`write_reports` renders any of :data:`ALL_FORMATS` (``json``, ``markdown``,
  ``junit``, ``allure``, ``html``, ``badge``, ``earl``) into a directory.
* :func:`gate` judges a report against gated levels and an expectations file;
  :func:`publish` does all of it at the end of a run.
* :func:`reproducible` drops the start time and durations from a report, for one that
  is committed and must not change when only the clock did.
* :func:`timeline_page` draws one scenario's timeline (:class:`DrawnEvidence`) with the
  failures placed on it (:func:`marks_of`) as a page of its own.
"""

from conformance.report._codec import from_json, load_standing
from conformance.report._diff import Change, StandingDiff, diff_reports
from conformance.report._drawn import DrawnEvidence, RecordedError
from conformance.report._encode import FORMAT, standing_schema, to_json
from conformance.report._errors import (
    ExpectationsError,
    Problem,
    ReportWriteError,
    StandingFormatError,
)
from conformance.report._expectations import (
    Expectation,
    Expectations,
    load_expectations,
    parse_expectations,
)
from conformance.report._gate import GateFinding, GateResult, gate, resolve_expectations
from conformance.report._html import clause_anchor
from conformance.report._junit import junit_xml, undrivable_junit
from conformance.report._labels import STANDING_SYMBOLS, counts_phrase
from conformance.report._model import (
    CheckCounts,
    CheckResult,
    ClauseResult,
    Evidence,
    FailedExpectation,
    HuntFigures,
    RuleResult,
    StandingCounts,
    clause_standing,
    rule_standing,
)
from conformance.report._output import Rendered, RenderOptions
from conformance.report._publish import publish
from conformance.report._reproducible import is_reproducible, reproducible
from conformance.report._run import (
    IMPLEMENTATION_LIMITS,
    HuntSummary,
    ImplementationInfo,
    RunInfo,
    ShardHunt,
    ShardInfo,
    ShardOptions,
    SuiteInfo,
    capability_names,
)
from conformance.report._standing import FamilyTally, StandingReport
from conformance.report._summary import append_step_summary, github_step_summary
from conformance.report._terminal import rule_line, terminal_table
from conformance.report._timeline_page import timeline_page
from conformance.report._timeline_where import marks_of
from conformance.report._update import ExpectationsUpdate, update_expectations
from conformance.report._values import (
    CHECK_KINDS,
    FAILING,
    HUNT_PREFIX,
    LEVELS,
    OUTCOMES,
    STANDINGS,
    CheckKind,
    Fault,
    Level,
    Outcome,
    SkipKind,
    Standing,
)
from conformance.report._writer import ALL_FORMATS, RENDERERS, render, write_reports

__all__ = [
    "ALL_FORMATS",
    "CHECK_KINDS",
    "FAILING",
    "FORMAT",
    "HUNT_PREFIX",
    "IMPLEMENTATION_LIMITS",
    "LEVELS",
    "OUTCOMES",
    "RENDERERS",
    "STANDINGS",
    "STANDING_SYMBOLS",
    "Change",
    "CheckCounts",
    "CheckKind",
    "CheckResult",
    "ClauseResult",
    "DrawnEvidence",
    "Evidence",
    "Expectation",
    "Expectations",
    "ExpectationsError",
    "ExpectationsUpdate",
    "FailedExpectation",
    "FamilyTally",
    "Fault",
    "GateFinding",
    "GateResult",
    "HuntFigures",
    "HuntSummary",
    "ImplementationInfo",
    "Level",
    "Outcome",
    "Problem",
    "RecordedError",
    "RenderOptions",
    "Rendered",
    "ReportWriteError",
    "RuleResult",
    "RunInfo",
    "ShardHunt",
    "ShardInfo",
    "ShardOptions",
    "SkipKind",
    "Standing",
    "StandingCounts",
    "StandingDiff",
    "StandingFormatError",
    "StandingReport",
    "SuiteInfo",
    "append_step_summary",
    "capability_names",
    "clause_anchor",
    "clause_standing",
    "counts_phrase",
    "diff_reports",
    "from_json",
    "gate",
    "github_step_summary",
    "is_reproducible",
    "junit_xml",
    "load_expectations",
    "load_standing",
    "marks_of",
    "parse_expectations",
    "publish",
    "render",
    "reproducible",
    "resolve_expectations",
    "rule_line",
    "rule_standing",
    "standing_schema",
    "terminal_table",
    "timeline_page",
    "to_json",
    "undrivable_junit",
    "update_expectations",
    "write_reports",
]
