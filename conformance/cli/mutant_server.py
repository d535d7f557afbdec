"""A warm parent for scoring machine-made mutants: ``rttool run`` once per mutant, each in
a process forked from one that has already imported the suite.

A fresh ``rttool run`` spends a second or more importing the suite, pytest, hypothesis
and the HTTP stack and loading the corpus before its first case.  Started as
``python -P -m conformance.cli.mutant_server``, this module does that once, and then forks
once per request read from standard input.  It never imports the reference runtime
itself: each fork puts the request's copy of the runtime first on ``sys.path`` and runs
``rttool run``, which imports the runtime from that copy.  Forking before the runtime is
imported keeps every ``from reference_impl.x import y`` bound to the mutated module, as
in a fresh process.

The protocol is a JSON object a line each way.  A request names ``source`` (the
folder holding the runtime's copy), ``scratch`` (the fork's working and temporary
directory), ``stderr`` (a file for its error output), ``argv`` (the arguments of
``rttool``) and ``timeout`` (seconds), and, for the run of the unmutated runtime,
``reach``: a file where the fork writes which rules' cases ran each line of the runtime
(:mod:`conformance.cli._mutant_reach`).  The reply is ``{"exit_code": N or null,
"timed_out": bool}``; the first line written is ``{"ready": true}``, once the suite is
loaded.  A request that is not one (a field missing or of the wrong type, a
``timeout`` that is not a number of seconds above 0) is answered ``{"error": "..."}``,
one line, and the server goes on.  A fork runs in a session of its own, and at the time
limit the whole session is killed, as the driver's spawned runs are.  Exit code
:data:`EXIT_NOT_THE_COPY` says that the fork imported the runtime from somewhere else
than the copy, so the run tested nothing; :data:`EXIT_NOT_STARTED` that the fork could
not run the suite at all (an exception escaped it, its traceback in the error output):
neither is a verdict on the mutant.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import cast

__all__ = ["EXIT_NOT_STARTED", "EXIT_NOT_THE_COPY", "main", "request_error", "warm_up"]

#: A fork's exit code when the runtime it imported is not the request's copy.
EXIT_NOT_THE_COPY = 97
#: A fork's exit code when an exception escaped it: the suite could not run (never 1,
#: which says the suite ran and found the mutant).
EXIT_NOT_STARTED = 98
# The package the forks must import from the request's copy, and never this process.
_RUNTIME = "reference_impl"
# Where the reference harness keeps scenario databases SQLite cannot hold in memory.
_SCRATCH_ENV = "RTTOOL_SCRATCH_DIR"
# How often the parent looks whether the fork has ended.
_POLL_S = 0.02
# A request's time limit where it gives none.
_DEFAULT_TIMEOUT_S = 60.0
# A request line is a few paths and arguments; anything far longer is not one.
_MAX_REQUEST_CHARS = 100_000


def warm_up() -> None:
    """Import what every ``rttool run`` needs and load the corpus and the cases, without
    importing the runtime."""
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401

    import conformance.cli._run
    import conformance.cli._run_session
    import conformance.hunt  # noqa: F401
    from conformance.engine import load_suite

    load_suite()
    if _RUNTIME in sys.modules:
        raise RuntimeError(f"the warm parent imported {_RUNTIME}: a fork could not replace it")


def _in_fork(request: dict[str, object]) -> int:
    """Run ``rttool`` as ``request`` says, in this fork; returns its exit code."""
    os.setsid()  # a session of its own: a kill at the time limit reaches every child
    scratch = str(request["scratch"])
    source = str(request["source"])
    devnull = os.open(os.devnull, os.O_RDWR)
    errors = os.open(str(request["stderr"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(errors, 2)
    os.chdir(scratch)
    for name in ("TMPDIR", "TEMP", "TMP", _SCRATCH_ENV):
        os.environ[name] = scratch
    tempfile.tempdir = None  # chosen again from TMPDIR on first use
    sys.path.insert(0, source)
    importlib.invalidate_caches()
    from conformance.cli import main as rttool

    argv = request["argv"]
    arguments = [str(arg) for arg in argv] if isinstance(argv, list) else []
    reach = request.get("reach")
    if isinstance(reach, str):  # the unmutated run: which rules' cases run each line
        from conformance.cli._mutant_reach import recording

        with recording(Path(source) / _RUNTIME, Path(reach)):
            code = rttool(arguments)
    else:
        code = rttool(arguments)
    runtime = sys.modules.get(_RUNTIME)
    where = getattr(runtime, "__file__", None) if runtime is not None else None
    if where is not None and not Path(where).resolve().is_relative_to(Path(source).resolve()):
        sys.stderr.write(f"mutant server: {_RUNTIME} was imported from {where}, not the copy\n")
        return EXIT_NOT_THE_COPY
    return code


def _is_path(value: object) -> bool:
    return isinstance(value, str) and bool(value)


def _is_arguments(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(arg, str) for arg in value)


def _is_seconds(value: object) -> bool:
    return (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and value > 0
    )


#: Each field of a request, whether it must be given, what it must be, and what it is
#: said not to be otherwise.
_FIELDS = (
    ("source", True, _is_path, "a path"),
    ("scratch", True, _is_path, "a path"),
    ("stderr", True, _is_path, "a path"),
    ("argv", True, _is_arguments, "a list of strings"),
    ("timeout", False, _is_seconds, "a number of seconds above 0"),
    ("reach", False, _is_path, "a path"),
)


def request_error(request: dict[str, object]) -> str | None:
    """Why ``request`` is not one this server runs, in a few words, or ``None``."""
    for name, required, valid, what in _FIELDS:
        if (required or name in request) and not valid(request.get(name)):
            return f"{name} is not {what}"
    return None


def _fork_and_wait(request: dict[str, object]) -> dict[str, object]:
    """Fork, run the (checked) request in the child, and wait for it within its time
    limit."""
    timeout = float(cast("float", request.get("timeout", _DEFAULT_TIMEOUT_S)))
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the fork: never returns into the server's loop
        code = EXIT_NOT_STARTED
        try:
            code = _in_fork(request)
        except SystemExit as stop:  # as an interpreter would: a message means exit 1
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                sys.stderr.write(f"{stop.code}\n")
        except BaseException:  # the traceback, and a code that is no verdict
            traceback.print_exc()
            code = EXIT_NOT_STARTED
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return {"exit_code": os.waitstatus_to_exitcode(status), "timed_out": False}
        time.sleep(_POLL_S)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return {"exit_code": None, "timed_out": True}


def main(argv: Sequence[str] | None = None) -> int:
    """Load the suite, say so, then serve one request a line until standard input ends."""
    del argv  # no options: everything a run needs comes with its request
    try:
        warm_up()
    except Exception as err:  # the driver falls back to a fresh process per mutant
        sys.stderr.write(f"mutant server: cannot warm up: {err}\n")
        return 3
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line[:_MAX_REQUEST_CHARS])
        except ValueError:
            sys.stderr.write("mutant server: a request is not one JSON line\n")
            return 2
        if not isinstance(request, dict):
            sys.stderr.write("mutant server: a request is not a JSON object\n")
            return 2
        wrong = request_error(request)
        reply = {"error": f"bad request: {wrong}"} if wrong else _fork_and_wait(request)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
