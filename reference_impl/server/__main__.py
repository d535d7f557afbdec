"""``python -m reference_impl.server``: serve the reference runtime's HTTP API.

Binds 127.0.0.1 by default.  On any other address a bearer token is required (from
``--token`` or the ``RTTOOL_TOKEN`` environment variable); without one the server
refuses to start.  Once listening it prints one line to standard output::

    rttool reference runtime: listening on http://127.0.0.1:8000 (database: PATH)

Exit codes: 0 after a clean shutdown (Ctrl-C), 2 a usage or start-up problem.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import logging
import os
import shutil
import signal
import socket
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from adapters.errors import RttoolError

__all__ = ["DEFAULT_PORT", "PARENT_FD_ENV", "TOKEN_ENV", "main"]

PROG = "python -m reference_impl.server"
#: the name a launcher gives this command in its messages
PROG_ENV = "RTTOOL_SERVER_PROG"
DEFAULT_PORT = 8000
#: The environment variable a token may come from (it then never shows in ``ps``).
TOKEN_ENV = "RTTOOL_TOKEN"  # noqa: S105 - the name of a variable, not a secret
#: A launcher may name a descriptor here: its end of file means the launcher has gone,
#: and the server shuts down as on SIGTERM.
PARENT_FD_ENV = "RTTOOL_PARENT_FD"
_LEVELS = ("critical", "error", "warning", "info", "debug")


class _StartError(RttoolError):
    """A problem that stops the server from starting (reported on one line, exit 2)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        # A launcher (``rttool serve-reference``) names itself, so errors name what was typed.
        prog=os.environ.get(PROG_ENV) or PROG,
        description="Serve the reference runtime's HTTP API (turn API, message poll, harness).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to bind ({DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="SQLite file to keep state in (default: a temporary one)",
    )
    parser.add_argument(
        "--token", default=None, help=f"bearer token to require (or set {TOKEN_ENV})"
    )
    parser.add_argument("--log-level", choices=_LEVELS, default="info")
    parser.add_argument(
        "--print-openapi", action="store_true", help="print the OpenAPI document and exit"
    )
    return parser


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` resolves to is a loopback address."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError as err:
        raise _StartError(f"cannot resolve host={host}: {err}") from err
    return bool(infos) and all(
        ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos
    )


def _listen(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise _StartError(f"port={port} is not a TCP port")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        # Listening before the application starts: early connections wait in the backlog.
        sock.listen(2048)
    except OSError as err:
        raise _StartError(f"cannot listen on host={host} port={port}: {err}") from err
    return sock


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server until Ctrl-C; returns the exit code."""
    args = _parser().parse_args(argv)
    if args.print_openapi:
        from reference_impl.server._openapi import openapi_document

        sys.stdout.write(json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n")
        return 0
    try:
        return _serve(args)
    except _StartError as err:
        sys.stderr.write(f"{os.environ.get(PROG_ENV) or PROG}: error: {err}\n")
        return 2


def _serve(args: argparse.Namespace) -> int:
    token = args.token or os.environ.get(TOKEN_ENV) or None
    if not is_loopback(args.host) and token is None:
        raise _StartError(
            f"host={args.host} is not a loopback address: a bearer token is "
            f"required (--token or {TOKEN_ENV})"
        )
    sock = _listen(args.host, args.port)
    scratch = None if args.db is not None else Path(tempfile.mkdtemp(prefix="rttool-reference-"))
    db = args.db if scratch is None else scratch / "runtime.db"

    import uvicorn

    from reference_impl.server._app import build_runtime, create_app

    try:
        runtime = build_runtime(db)
    except (RttoolError, sqlite3.Error, OSError) as err:
        sock.close()
        raise _StartError(f"cannot open database={db}: {err}") from err
    cleanup = () if scratch is None else (lambda: shutil.rmtree(scratch, ignore_errors=True),)
    app = create_app(runtime, token=token, on_shutdown=cleanup)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(name)s: %(message)s")
    config = uvicorn.Config(
        app, log_level=args.log_level, lifespan="on", access_log=args.log_level in ("info", "debug")
    )
    _follow_launcher()
    port = sock.getsockname()[1]
    sys.stdout.write(
        f"rttool reference runtime: listening on {_url(args.host, port)} (database: {db})\n"
    )
    sys.stdout.flush()
    # uvicorn re-raises the Ctrl-C it shut down for; the shutdown was clean by then.
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
    return 0


def _follow_launcher() -> None:
    """When a launcher named a descriptor, shut down once it reaches its end (the
    launcher exited, or was killed)."""
    named = os.environ.get(PARENT_FD_ENV, "")
    if not (named.isascii() and named.isdigit()):
        return
    descriptor = int(named)

    def watch() -> None:
        try:
            while os.read(descriptor, 1):
                pass
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="rttool-launcher", daemon=True).start()


if __name__ == "__main__":
    raise SystemExit(main())
