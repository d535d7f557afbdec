"""The standings this repository publishes in ``reports/``, how each is made, and the
page comparing them.

Every entry of :data:`COMMITTED` has its ``reports/<name>/standing.json`` and
``STANDING.md`` committed, with the evidence they link, and ``reports/README.md`` is
their comparison matrix.  ``rttool publish`` (``make reports``) regenerates them all,
``rttool publish reference`` (``make run``) the reference runtime's;
``tests/test_committed_standings.py`` fails when any is out of date.

* :data:`COMMITTED` lists the published standings, one :class:`Committed` entry each
  (in ``conformance/publish/_entries.py``): to publish another implementation, add one;
* :func:`make_standing` is the one way each is made: a derandomized hunt and
  ``rttool run --reproducible``;
* :func:`publish` makes the standings chosen and rewrites the matrix
  (:func:`write_matrix_pages`; :func:`matrix_page` is the text it must hold, and
  :func:`matrix_picture` that of ``reports/matrix.svg``);
* :func:`guide_harness_source` is the toy harness of ``docs/writing-an-adapter.md``,
  the one published as ``reports/toy/``, read from the guide itself.

Publishing works on a :class:`Checkout` of this repository (the folder holding
``reports/``), never on an installed copy of the package.
"""

from conformance.publish._checkout import Checkout, NotACheckout
from conformance.publish._entries import COMMITTED, Committed, write_guide_harness
from conformance.publish._guide import (
    GUIDE_HARNESS_FILE,
    MARKER,
    GuideHarnessMissing,
    guide_harness_source,
)
from conformance.publish._making import EVIDENCE, RUN_TIMEOUT, make_standing
from conformance.publish._pages import (
    INTRO,
    TITLE,
    matrix_page,
    matrix_picture,
    write_matrix_pages,
)
from conformance.publish._publish import Publication, Step, UnknownStanding, choose, publish

__all__ = [
    "COMMITTED",
    "EVIDENCE",
    "GUIDE_HARNESS_FILE",
    "INTRO",
    "MARKER",
    "RUN_TIMEOUT",
    "TITLE",
    "Checkout",
    "Committed",
    "GuideHarnessMissing",
    "NotACheckout",
    "Publication",
    "Step",
    "UnknownStanding",
    "choose",
    "guide_harness_source",
    "make_standing",
    "matrix_page",
    "matrix_picture",
    "publish",
    "write_guide_harness",
    "write_matrix_pages",
]
