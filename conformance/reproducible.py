"""What a reproducible run needs beyond its seeds: the same string hashing in every
process.

In CI (``CI=true``) the hunt is seeded batch by batch, so it generates and judges the
same examples everywhere; but hypothesis's shrinker orders some of its passes by the
labels of the strategies drawn, and the labels of composite strategies, of
``st.builds`` of a function and of ``st.sampled_from`` over strings come from Python's
``hash``, which is salted per process unless ``PYTHONHASHSEED`` names a seed.  Without
it two runs of the same commit can shrink a finding to different counterexamples, and a
finding made only while another was shrinking can come and go.  ``rttool run`` in CI and
``rttool selftest`` therefore start again, as they were started, under
``PYTHONHASHSEED=0`` unless a seed is already set (a pytest run that loads the plugin
itself must set one; docs/running-the-suite.md).

Only the ``rttool`` console script (and ``python -m conformance.cli``) starts again, and
only where the new process can read its program again: a program read from standard
input (``python - < script.py``) would find it spent and run nothing, and a program
that embeds rttool and calls :func:`conformance.cli.main` would do its own work twice.
Such callers run in their own process as they are; one that wants hashing fixed runs
rttool as a child with :func:`run_with_fixed_hashing`.  Under ``python -E`` (or ``-I``)
the interpreter ignores ``PYTHONHASHSEED``, so no restart could fix hashing: the command
runs as it is, and says so.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import NoReturn

__all__ = [
    "HASH_SEED_VALUE",
    "HASH_SEED_VARIABLE",
    "ci_requested",
    "hashing_fixed",
    "needs_fixed_hashing",
    "restart_refused",
    "restart_with_fixed_hashing",
    "run_with_fixed_hashing",
]

#: the environment variable that fixes Python's string hashing
HASH_SEED_VARIABLE = "PYTHONHASHSEED"
#: the seed rttool sets
HASH_SEED_VALUE = "0"


def ci_requested(environ: Mapping[str, str]) -> bool:
    """Whether ``CI`` asks for a reproducible run (``1``, ``true`` or ``yes``)."""
    return environ.get("CI", "").lower() in ("1", "true", "yes")


def hashing_fixed(environ: Mapping[str, str], *, ignored: bool | None = None) -> bool:
    """Whether string hashing is fixed in this process: ``PYTHONHASHSEED`` names a seed
    (a number; ``random``, or empty, does not) and the interpreter reads it (``ignored``:
    whether it ignores the environment, as under ``python -E``; by default this
    interpreter's own flag)."""
    if sys.flags.ignore_environment if ignored is None else ignored:
        return False
    return environ.get(HASH_SEED_VARIABLE, "").strip().isdigit()


def needs_fixed_hashing(command: str | None, environ: Mapping[str, str]) -> bool:
    """Whether ``rttool COMMAND`` must start again with string hashing fixed: a command
    whose hunts are seeded (``selftest`` always, ``run`` in CI), hashing not yet fixed."""
    if hashing_fixed(environ):
        return False
    return command == "selftest" or (command == "run" and ci_requested(environ))


def restart_refused() -> str | None:
    """Why this process cannot start again as itself with hashing fixed, or ``None``
    where it can: its interpreter ignores the environment, or its program is not a file
    a new process can read again (it came from standard input or a pipe)."""
    if sys.flags.ignore_environment:
        return "python -E (or -I) ignores PYTHONHASHSEED"
    program = sys.argv[0] if sys.argv else ""
    # "-c": the code is on the command line itself; a path that names nothing is a
    # launcher's (Windows strips ".exe" from the console script's name).
    spent = program in ("", "-") or (
        program != "-c" and os.path.exists(program) and not os.path.isfile(program)
    )
    if spent:
        return "its program was read from standard input or a pipe, which cannot be read again"
    return None


def run_with_fixed_hashing(
    arguments: Sequence[str], *, environ: Mapping[str, str] | None = None
) -> int:
    """Run ``rttool ARGUMENTS`` in a child process with string hashing fixed, and return
    its exit code: how a program embedding rttool gets the reproducible hunt that the
    console script gets by starting again (:func:`conformance.cli.main` never restarts
    its caller's process).  ``environ`` is the child's environment (default: this
    process's), with ``PYTHONHASHSEED`` set unless it names a seed already."""
    import subprocess

    child = dict(os.environ if environ is None else environ)
    if not child.get(HASH_SEED_VARIABLE, "").strip().isdigit():
        child[HASH_SEED_VARIABLE] = HASH_SEED_VALUE
    sys.stdout.flush()
    sys.stderr.flush()
    # -P: the caller's working directory never shadows rttool's own packages.
    command = [sys.executable, "-P", "-m", "conformance.cli", *arguments]
    return subprocess.call(command, env=child)


def restart_with_fixed_hashing() -> NoReturn:
    """Replace this process by the very command line that started it (``sys.orig_argv``:
    the same interpreter options, the same script or module, the same arguments, the same
    process id) with ``PYTHONHASHSEED`` fixed; the new process finds it set and goes on."""
    sys.stdout.flush()
    sys.stderr.flush()
    environ = {**os.environ, HASH_SEED_VARIABLE: HASH_SEED_VALUE}
    if os.name == "nt":  # no exec in place there: run it as a child and pass its exit code on
        import subprocess

        raise SystemExit(subprocess.call([sys.executable, *sys.orig_argv[1:]], env=environ))
    # the interpreter and the command line rttool was started with, no shell
    os.execve(sys.executable, sys.orig_argv, environ)  # noqa: S606
