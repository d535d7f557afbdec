"""``rttool serve-reference``: serve the bundled reference runtime's HTTP API.

The suite never imports the reference runtime (it tests it like any other
implementation), so this command re-executes ``python -m reference_impl.server`` with
the same options in a child process and passes its exit code through.  A token given
with ``--token`` reaches the child through its environment, never its command line
(where other users of the machine could read it).  The child also holds the reading end
of a pipe whose writing end only this process has: when this process ends, however it
ends (a SIGKILL included), the pipe closes and the server shuts down.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

__all__ = ["SERVER_MODULE", "configure", "server_command"]

SERVER_MODULE = "reference_impl.server"
#: The variable the server reads a token from.
_TOKEN_ENV = "RTTOOL_TOKEN"  # noqa: S105 - the name of a variable, not a secret
#: The variable naming the descriptor the server watches for this process's end.
_PARENT_ENV = "RTTOOL_PARENT_FD"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the server's options to ``parser``."""
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to bind (default 8000; 0 picks one)")
    parser.add_argument("--db", help="SQLite file to keep state in (default: a temporary one)")
    parser.add_argument(
        "--token", help=f"bearer token to require (or set {_TOKEN_ENV}); needed off loopback"
    )
    parser.add_argument(
        "--log-level", choices=("critical", "error", "warning", "info", "debug"), default=None
    )
    parser.set_defaults(handler=_serve)


def server_command(args: argparse.Namespace) -> list[str]:
    """The child's command line: only the options that were given (never the token)."""
    command = [sys.executable, "-m", SERVER_MODULE]
    for option, value in (
        ("--host", args.host),
        ("--port", args.port),
        ("--db", args.db),
        ("--log-level", args.log_level),
    ):
        if value is not None:
            command += [option, str(value)]
    return command


def _exit_status(code: int) -> int:
    """A child killed by signal N exits ``128 + N``, as a shell reports it."""
    return 128 - code if code < 0 else code


def _serve(args: argparse.Namespace) -> int:
    env = dict(os.environ)
    env["RTTOOL_SERVER_PROG"] = "rttool serve-reference"
    if args.token is not None:
        env[_TOKEN_ENV] = args.token
    # The server runs in its own session, so that a signal reaches it exactly once,
    # through this process: a terminal's Ctrl-C goes to this process only and is passed
    # on as one SIGINT (a second Ctrl-C, passed on too, makes the server stop at once);
    # SIGTERM and SIGHUP are passed on as they come.  Popen rather than subprocess.run,
    # which would kill the server a quarter of a second after a Ctrl-C.
    # The server ends when this process does: it sees the end of this pipe.
    watched, held = os.pipe()
    env[_PARENT_ENV] = str(watched)
    try:
        child = subprocess.Popen(
            server_command(args), env=env, start_new_session=True, pass_fds=(watched,)
        )
    finally:
        os.close(watched)
    forwarded = [sig for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if sig]
    previous = {
        sig: signal.signal(sig, lambda signum, _: child.send_signal(signum)) for sig in forwarded
    }
    try:
        while True:
            try:
                return _exit_status(child.wait())
            except KeyboardInterrupt:
                child.send_signal(signal.SIGINT)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if child.poll() is None:  # only if this process itself failed
            child.terminate()
            child.wait()
        os.close(held)
