"""What a reproducible run needs beyond its seeds: the same string hashing in every
process.

In CI (``CI=true``) the hunt is seeded batch by batch, so it generates and judges the
same examples everywhere; but hypothesis's shrinker orders some of its passes by the
labels of the strategies drawn, and the labels of composite strategies, of
``st.builds`` of a function and of ``st.sampled_from`` over strings come from Python's
``hash``, which is salted per process unless ``PYTHONHASHSEED`` is set.  Without it two
runs of the same commit can shrink a finding to different counterexamples, and a finding
made only while another was shrinking can come and go.  ``rttool run`` in CI and
``rttool selftest`` therefore start again under ``PYTHONHASHSEED=0`` when it is not set
(a pytest run that loads the plugin itself must set it; docs/running-the-suite.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import NoReturn

__all__ = ["HASH_SEED", "ci_requested", "needs_fixed_hashing", "restart_with_fixed_hashing"]

#: the environment variable that fixes Python's string hashing, and the value rttool sets
HASH_SEED = ("PYTHONHASHSEED", "0")


def ci_requested(environ: Mapping[str, str]) -> bool:
    """Whether ``CI`` asks for a reproducible run (``1``, ``true`` or ``yes``)."""
    return environ.get("CI", "").lower() in ("1", "true", "yes")


def needs_fixed_hashing(command: str | None, environ: Mapping[str, str]) -> bool:
    """Whether ``rttool COMMAND`` must start again with string hashing fixed: a command
    whose hunts are seeded (``selftest`` always, ``run`` in CI), hashing not yet fixed."""
    if HASH_SEED[0] in environ:
        return False
    return command == "selftest" or (command == "run" and ci_requested(environ))


def restart_with_fixed_hashing(arguments: Sequence[str]) -> NoReturn:
    """Replace this process by ``python -m conformance.cli ARGUMENTS`` (same process id,
    same arguments) with ``PYTHONHASHSEED`` fixed."""
    sys.stdout.flush()
    sys.stderr.flush()
    environ = {**os.environ, HASH_SEED[0]: HASH_SEED[1]}
    # the same interpreter, no shell: the arguments are the command line rttool was given
    os.execve(sys.executable, [sys.executable, "-m", "conformance.cli", *arguments], environ)  # noqa: S606
