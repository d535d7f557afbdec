"""The suite as a pytest plugin (loaded only when ``--rttool-impl`` is given).

What the rest of ``conformance`` uses of it: the run's options (:class:`RunOptions`,
:func:`resolve_spec`), the suite's state and its outcomes (:class:`SuiteState`,
:class:`CaseOutcome`), and the plugin's entry (:func:`activate`, with the file names
:data:`UNDRIVABLE` and :data:`SUITE_MODULE`).
"""

from conformance._pytest._options import REFERENCE_SPEC, RunOptions, resolve_spec
from conformance._pytest._plugin import SUITE_MODULE, UNDRIVABLE, activate
from conformance._pytest._state import CaseOutcome, SuiteState

__all__ = [
    "REFERENCE_SPEC",
    "SUITE_MODULE",
    "UNDRIVABLE",
    "CaseOutcome",
    "RunOptions",
    "SuiteState",
    "activate",
    "resolve_spec",
]
