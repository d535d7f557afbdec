"""The suite as a pytest plugin (loaded only when ``--rttool-impl`` is given): a thin layer
over the engine (``conformance/engine/``).

The engine plans the cases, a :class:`~conformance.engine.Session` runs each in the
pytest process that collected it (xdist's workers included), and the standing is built
by the engine from the outcomes every process reports.  :func:`activate` joins the
suite's one test module (:data:`SUITE_MODULE`) to the session; :data:`UNDRIVABLE` is the
file a report directory gets when the implementation cannot be driven at all.
"""

from conformance._pytest._plugin import SUITE_MODULE, UNDRIVABLE, activate

__all__ = ["SUITE_MODULE", "UNDRIVABLE", "activate"]
