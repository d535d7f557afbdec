"""The ``rttool`` command line.

Subcommands live in their own modules and import what is heavy only when chosen, so
that ``rttool --help`` stays fast.  Each command computes an immutable result (the
domain's own where it has one: a lint report, a gate result, a diagnosis; else a
dataclass of the command's module, as ``RunOutcome`` or ``SelftestResult``), and pure
functions render it into an ``Output`` of text or JSON (``conformance/cli/_output.py``)
that the handler emits; no command function is over 60 lines
(``tests/cli/test_command_shape.py``).  Exit codes: 0 success, 1 a finding
(non-conformance, lint error, surviving mutant, regression), 2 a usage or corpus error
(or a file, or the output, that could not be written),
3 an implementation that could not be driven at all, 4 a replay the implementation
cannot run, 130 a run interrupted by Ctrl-C (SIGINT), 143 one stopped by SIGTERM.

:func:`console` is the ``rttool`` console script (and ``python -m conformance.cli``): the
one caller that may start its own process again with string hashing fixed
(``conformance/reproducible.py``).  :func:`main` is for a program embedding rttool: it
runs the command in the caller's process and never starts it again.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from conformance import __version__

__all__ = [
    "COMMANDS",
    "EXIT_FINDING",
    "EXIT_OK",
    "EXIT_UNDRIVABLE",
    "EXIT_USAGE",
    "console",
    "main",
]

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_UNDRIVABLE = 3

#: subcommand name -> (module under conformance.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("_rules", "lint, list, show, import and compare the rule corpus"),
    "serve-reference": ("_serve", "serve the bundled reference runtime's HTTP API"),
    "run": ("_run", "run the suite against an implementation and report its standing"),
    "replay": ("_replay", "run a saved counterexample or error again: does it still fail?"),
    "report": ("_report", "render, compare and gate standing reports"),
    "expectations": ("_expectations", "keep an expectations file in step with a report"),
    "selftest": ("_selftest", "prove every check fails against a runtime breaking its clause"),
    "scenarios": ("_scenarios", "list, show and dump every scenario the suite can send"),
    "doctor": ("_doctor", "smoke-test a harness: is it ready for rttool run?"),
    "publish": ("_publish", "regenerate the standings this repository publishes in reports/"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error of rttool; the usage is one --help away.  What
        # was typed may hold a credential (--api-key=...): it is redacted like the rest.
        from conformance._redact import redacted
        from conformance._terminal import say

        say(sys.stderr, f"{self.prog}: error: {redacted(message)} (see {self.prog} --help)\n")
        raise SystemExit(EXIT_USAGE)


def plural(n: int, noun: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def build_parser() -> argparse.ArgumentParser:
    """The full parser.

    Each subcommand module's ``configure(parser)`` adds its arguments and sets
    ``handler``; modules import anything heavy inside their handlers only.
    """
    parser = _Parser(prog="rttool", description="Conformance suite for RT-TOOL and durable resume.")
    parser.add_argument("--version", action="version", version=f"rttool {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(f"conformance.cli.{module}").configure(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rttool`` with ``argv`` (default: this process's command line) in this
    process; returns the exit code.

    This is the function for a program that embeds rttool: it never starts the caller's
    process again, so the caller's own work is done once and a program read from
    standard input is not lost.  A seeded hunt (``selftest``, ``run`` in CI) then
    shrinks under this process's string hashing: for hashing fixed, run rttool as a
    child with :func:`conformance.reproducible.run_with_fixed_hashing`.
    """
    return _main(argv, own_process=False)


def console() -> int:
    """The ``rttool`` console script and ``python -m conformance.cli``: :func:`main` on
    this process's command line, in a process that is rttool's own, which starts again
    with string hashing fixed where the command's hunt is seeded and the process can."""
    return _main(None, own_process=True)


def _fix_hashing(command: str, *, own_process: bool, told: bool) -> None:
    """Start this process again with hashing fixed where ``command`` needs it and the
    process is rttool's own and can; else, where ``told``, say in one line why hashing
    stays as it is."""
    from conformance.reproducible import (
        needs_fixed_hashing,
        restart_refused,
        restart_with_fixed_hashing,
    )

    if not needs_fixed_hashing(command, os.environ):
        return
    why = restart_refused() if own_process else "rttool was called by another program"
    if why is None:
        restart_with_fixed_hashing()
    if told:
        sys.stderr.write(
            f"rttool: string hashing is not fixed ({why}): a finding may shrink to another "
            "counterexample from run to run; set PYTHONHASHSEED=0 to fix it\n"
        )


def _main(argv: Sequence[str] | None, *, own_process: bool) -> int:
    from conformance._terminal import standard_streams

    # A standard stream closed before rttool started is a quiet one, never a crash, and
    # its descriptor is never reused for a file a child would then write into.
    standard_streams()
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    # A caller passing its own arguments (a test, a program) chose them: it is not told.
    _fix_hashing(args.command, own_process=own_process, told=argv is None)
    return _handled(args)


def _handled(args: argparse.Namespace) -> int:
    """The command's exit code; each way it can fail is one line on standard error."""
    from adapters.errors import ImplementationError, RttoolError
    from conformance._escape import printable
    from conformance._redact import redacted
    from conformance._terminal import forgiving_streams, say

    try:
        with forgiving_streams():  # a reader gone away never changes the exit code
            code: int = args.handler(args)
    except ImplementationError as err:
        say(sys.stderr, f"rttool: error: {printable(redacted(str(err)))}\n")
        return EXIT_UNDRIVABLE
    except RttoolError as err:
        say(sys.stderr, f"rttool: error: {printable(redacted(str(err)))}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        say(sys.stderr, "rttool: interrupted\n")
        return 130
    except BrokenPipeError:
        # A pipe broken where the forgiving streams did not reach (a child's own write):
        # the command did not finish, so its verdict is not known; keep the interpreter
        # from complaining while it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FINDING
    except OSError as err:
        # Mostly, what the command prints could not be written (``rttool rules list
        # >/dev/full``): one line, never a traceback; what it could not say is dropped,
        # not tried again at exit.
        from conformance._terminal import settle

        settle()
        said = (
            f"{err.strerror or err}: file={err.filename}"
            if err.filename
            else f"cannot write the output: {err.strerror or err}"
        )
        say(sys.stderr, f"rttool: error: {printable(redacted(said))}\n")
        return EXIT_USAGE
    return code


if __name__ == "__main__":
    raise SystemExit(console())
