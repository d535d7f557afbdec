"""A run's report directory changes in one step, from one complete report to another.

``rttool run`` never writes into the report directory itself.  It builds the new report
in a staging directory beside it (``.NAME.rttool-next``), and once that report is whole
swaps the two: in one step where the system can (``adapters.files.exchange``), elsewhere
by renaming the old directory aside (``.NAME.rttool-old``) and the new one into place.
A run killed at any instant therefore leaves the previous complete report or the new
complete one, never a mix of the two and never none where one existed.

The report directory may hold files that are not the report's (a user's notes, another
tool's output): every entry whose name is not one of :data:`REPORT_NAMES` is carried
into the new directory.  Should a kill fall between the swap and that carrying, the
entries wait in the staging directory, and the next run carries them before it clears
that directory: nothing of the user's is ever deleted.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from adapters.files import exchange, real_directory

__all__ = ["REPORT_NAMES", "discard", "staging_for", "swap_in"]

#: Every top-level name a run writes into its report directory; anything else there is
#: not the report's and is kept from run to run.
REPORT_NAMES = frozenset(
    {
        ".hypothesis",
        "STANDING.md",
        "allure-results",
        "badge.json",
        "badge.svg",
        "earl.jsonld",
        "evidence",
        "junit.xml",
        "report.html",
        "standing.json",
        "undrivable.txt",
    }
)


def _next(report_dir: Path) -> Path:
    return report_dir.with_name(f".{report_dir.name}.rttool-next")


def _aside(report_dir: Path) -> Path:
    return report_dir.with_name(f".{report_dir.name}.rttool-old")


def _remove(path: Path) -> None:
    """Remove ``path`` (a link: the link only)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


def _carry(source: Path, report_dir: Path) -> None:
    """Move every entry of ``source`` that is not the report's into ``report_dir``
    (where the new report has no entry of that name)."""
    if not source.is_dir() or source.is_symlink():
        return
    for entry in sorted(source.iterdir()):
        target = report_dir / entry.name
        if entry.name not in REPORT_NAMES and not os.path.lexists(target):
            os.rename(entry, target)


def staging_for(report_dir: Path) -> Path:
    """An empty staging directory beside ``report_dir`` (an absolute path, no link),
    after carrying into ``report_dir`` what an interrupted swap left behind."""
    report_dir.parent.mkdir(parents=True, exist_ok=True)
    aside = _aside(report_dir)
    if not os.path.lexists(report_dir) and aside.is_dir() and not aside.is_symlink():
        os.rename(aside, report_dir)  # killed between the two renames: the old one back
    for left in (_next(report_dir), _aside(report_dir)):
        if report_dir.is_dir():
            _carry(left, report_dir)
        _remove(left)
    staging = _next(report_dir)
    real_directory(staging)
    return staging


def swap_in(staging: Path, report_dir: Path) -> None:
    """Make the complete report in ``staging`` the content of ``report_dir``."""
    if not os.path.lexists(report_dir):
        os.rename(staging, report_dir)
        return
    if not report_dir.is_dir() or report_dir.is_symlink():
        raise NotADirectoryError(f"not a directory: {report_dir}")
    if exchange(staging, report_dir):
        old = staging
    else:
        old = _aside(report_dir)
        _remove(old)
        os.rename(report_dir, old)
        os.rename(staging, report_dir)
    _carry(old, report_dir)
    _remove(old)


def discard(staging: Path) -> None:
    """Remove a staging directory whose report is not to be used."""
    with contextlib.suppress(OSError):
        _remove(staging)
