"""``rttool publish [NAME...]``: regenerate the standings this repository publishes in
``reports/``, then their comparison page ``reports/README.md``.

Run in a checkout of the repository (``make run`` publishes the reference runtime's
standing, ``make reports`` every one).  An implementation whose optional dependencies
are not installed is skipped with a line saying so: its committed standing stays, and
stays in the matrix.  Exit codes: 0 every standing chosen was made, 1 a run could not be
made or an implementation expected to conform does not, 2 a usage error (an unknown
name, a folder that is not a checkout).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.cli._output import Output, emit, text

if TYPE_CHECKING:
    from conformance.publish import Publication, Step

__all__ = ["configure", "publication_text", "step_text"]

_PREFIX = "rttool publish:"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool publish``."""
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="the standings to regenerate, as named in reports/ (default: every one); "
        "the matrix is rewritten either way",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(),
        metavar="DIR",
        help="the checkout of rttool to publish into (default: the current folder)",
    )
    parser.set_defaults(handler=publish)


def publish(args: argparse.Namespace) -> int:
    """Make the standings chosen, printing a line before each; return the exit code."""
    from conformance import publish as publishing

    checkout = publishing.Checkout.at(args.root)
    chosen = publishing.choose(args.names)
    done = publishing.publish(checkout, chosen, progress=lambda step: emit(step_text(step)))
    emit(publication_text(done))
    return done.exit_code


def step_text(step: Step) -> Output:
    """The line said before a standing is made, or instead of it when it is skipped."""
    entry = step.entry
    if step.skipped:
        how = f" (install them with {entry.install})" if entry.install else ""
        missing = ", ".join(step.missing)
        return Output(text([f"{_PREFIX} skipped {entry.name}: {missing} not installed{how}"]))
    return Output(text([f"{_PREFIX} {entry.name}: rttool run --impl {entry.impl!r}"]))


def publication_text(done: Publication) -> Output:
    """The pages written, and the standings that failed to be made."""
    root = done.checkout.root
    lines = [f"{_PREFIX} wrote {page.relative_to(root).as_posix()}" for page in done.pages]
    failed = [f"{step.entry.name} (exit {step.exit_code})" for step in done.failed]
    if failed:
        lines.append(f"{_PREFIX} failed: {', '.join(failed)}")
    return Output(text(lines))
