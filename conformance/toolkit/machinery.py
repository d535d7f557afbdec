"""The toolkit's second face: what the engine (``conformance/engine/``) and the hunt use to
gather, run and conclude the cases a rule package declares.  A rule package never needs
this module: what it writes with is :mod:`conformance.toolkit`.

Declarations, as the engine reads them:
    :class:`Check` (what :func:`~conformance.toolkit.check` makes of a function, one per
    variant) and :func:`bound_checks`; :class:`Binding`, :data:`Stage` and
    :class:`VectorRun` for a rule's example vectors; :class:`Invariant` and
    :class:`Breach` for the hunt; :class:`ClauseSituation` for a clause's situations;
    :func:`validate_bindings` holds the bindings against the corpus, and
    :func:`where_defined` finds a declaration's file and line.
Running a case:
    :class:`CheckContext` over a :class:`ScenarioRunner` (the implementation), its
    :class:`Evidence`; how a case ends other than by passing (:class:`CheckFailed` with
    its :class:`Failure` list, :class:`Untested`, :class:`Blocked`,
    :class:`NotApplicable`); the situations its traces reached
    (:func:`reached_situations`, and per clause of a case :func:`reached_by_case`); a
    broken invariant (:class:`Violation`).
Words:
    :func:`citation` (``RT-TOOL-8#c4`` as ``RT-TOOL-8 ¶4``); :data:`CANARY_PREFIX`, what
    every canary the scenarios plant begins with.
"""

from conformance.toolkit._channels import Channel, ChannelBreak, broken_channels
from conformance.toolkit._context import CheckContext, Evidence, ScenarioRunner
from conformance.toolkit._invariant import Breach, Invariant, Violation
from conformance.toolkit._outcomes import (
    Blocked,
    CheckFailed,
    Failure,
    NotApplicable,
    Untested,
    citation,
)
from conformance.toolkit._produced import CANARY_PREFIX
from conformance.toolkit._registry import Check, bound_checks, validate_bindings, where_defined
from conformance.toolkit._situations import ClauseSituation, reached_by_case, reached_situations
from conformance.toolkit._vectors import Binding, Stage, VectorRun

__all__ = [
    "CANARY_PREFIX",
    "Binding",
    "Blocked",
    "Breach",
    "Channel",
    "ChannelBreak",
    "Check",
    "CheckContext",
    "CheckFailed",
    "ClauseSituation",
    "Evidence",
    "Failure",
    "Invariant",
    "NotApplicable",
    "ScenarioRunner",
    "Stage",
    "Untested",
    "VectorRun",
    "Violation",
    "bound_checks",
    "broken_channels",
    "citation",
    "reached_by_case",
    "reached_situations",
    "validate_bindings",
    "where_defined",
]
