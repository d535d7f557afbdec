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

What the swap replaces must be what a report writes there: an entry of the report's
own names that is not (a file name that is a directory, a FIFO, a socket, a device or a
link; a folder name that is a link or not a folder) makes the run refuse the directory
in one line before it runs anything, as every other write of the suite refuses a target
that is not a regular file.  Nor may the report directory be the current directory or
one that holds it (an empty ``--report-dir``, say): the swap replaces the directory
itself.  The staging directory, and so the swapped-in one, has the old one's permission
bits, owner and group, and starts with a copy of its example database (``.hypothesis``,
where the hunt reads what earlier runs found and saves what it finds; no link in it is
followed).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

from adapters.files import NotWritable, exchange, read_bytes, real_directory, write_file

__all__ = ["REPORT_NAMES", "discard", "refuse_unreplaceable", "staging_for", "swap_in"]

#: Every top-level name a run writes into its report directory; anything else there is
#: not the report's and is kept from run to run.
REPORT_NAMES = frozenset(
    {
        ".hypothesis",
        "STANDING.md",
        "allure-results",
        "badge.json",
        "badge.svg",
        "counterexamples",
        "earl.jsonld",
        "evidence",
        "junit.xml",
        "report.html",
        "standing.json",
        "undrivable.txt",
    }
)


#: The report's own names that are folders; every other one of :data:`REPORT_NAMES` is a
#: regular file.
_FOLDERS = frozenset({".hypothesis", "allure-results", "counterexamples", "evidence"})


def refuse_unreplaceable(report_dir: Path) -> None:
    """Raise :class:`NotWritable` where the swap would replace what a report does not
    write: the current directory (or one holding it), or an entry of the report's own
    names of another kind than the report's."""
    here = Path.cwd().resolve()
    target = report_dir.resolve()
    if target == here or target in here.parents:
        raise NotWritable(
            report_dir, "the current directory, or a directory holding it: name a folder"
        )
    if not report_dir.is_dir() or report_dir.is_symlink():
        return
    for name in sorted(REPORT_NAMES):
        entry = report_dir / name
        if not os.path.lexists(entry):
            continue
        folder = name in _FOLDERS
        kind = os.lstat(entry).st_mode
        expected = stat.S_ISDIR(kind) if folder else stat.S_ISREG(kind)
        if not expected:
            raise NotWritable(
                entry,
                f"not a {'folder' if folder else 'regular file'}, which the report would replace",
            )


def _next(report_dir: Path) -> Path:
    return report_dir.with_name(f".{report_dir.name}.rttool-next")


def _aside(report_dir: Path) -> Path:
    return report_dir.with_name(f".{report_dir.name}.rttool-old")


def _remove(path: Path) -> None:
    """Remove ``path`` (a link: the link only; a FIFO, a socket or a device: the entry,
    never opened)."""
    if not os.path.lexists(path):
        return
    if path.is_symlink() or not path.is_dir():
        path.unlink()
        return
    try:
        shutil.rmtree(path)
    except RecursionError as err:  # nested past what the interpreter can walk
        raise NotWritable(path, "nested too deeply to be removed") from err


#: The example database of the hunt, copied into each run's staging folder: the run
#: replays it and saves there, and a run without the hunt passes it on unchanged.
_DATABASE = ".hypothesis"
#: How deep a saved example lies in the database (hypothesis's are two folders down):
#: nothing deeper is copied.
_DATABASE_DEPTH = 4
#: The largest saved example copied into a run's database (hypothesis's are a few KB).
_EXAMPLE_BYTES = 4_000_000


def _carry(source: Path, report_dir: Path) -> None:
    """Move every entry of ``source`` that is not the report's into ``report_dir``
    (where the new report has no entry of that name)."""
    if not source.is_dir() or source.is_symlink():
        return
    for entry in sorted(source.iterdir()):
        target = report_dir / entry.name
        if entry.name not in REPORT_NAMES and not os.path.lexists(target):
            os.rename(entry, target)


def _database_files(folder: Path) -> Iterator[Path]:
    """The regular files under ``folder``, a real folder, as paths relative to it: no link
    is followed, and nothing but a regular file is yielded."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for parent, names, files in os.walk(folder):
        depth = len(Path(parent).relative_to(folder).parts)
        names[:] = [
            n
            for n in names
            if depth < _DATABASE_DEPTH and not os.path.islink(os.path.join(parent, n))
        ]
        for name in files:
            found = Path(parent) / name
            if not found.is_symlink() and found.is_file():
                yield found.relative_to(folder)


def _seed_examples(report_dir: Path, staging: Path) -> None:
    """Copy the report directory's example database into ``staging``, where the run's
    hunt reads and saves: what earlier runs found is replayed first."""
    old = report_dir / _DATABASE
    for relative in _database_files(old):
        with contextlib.suppress(OSError):  # an entry not copied is one example fewer
            saved = read_bytes(old / relative, limit=_EXAMPLE_BYTES)
            write_file(staging / _DATABASE, relative, saved)


def staging_for(report_dir: Path) -> Path:
    """An empty staging directory beside ``report_dir`` (an absolute path, no link),
    after carrying into ``report_dir`` what an interrupted swap left behind.  Raises
    :class:`NotWritable` (see :func:`refuse_unreplaceable`) before touching anything."""
    refuse_unreplaceable(report_dir)
    report_dir.parent.mkdir(parents=True, exist_ok=True)
    aside = _aside(report_dir)
    if not os.path.lexists(report_dir) and aside.is_dir() and not aside.is_symlink():
        os.rename(aside, report_dir)  # killed between the two renames: the old one back
    for left in (_next(report_dir), _aside(report_dir)):
        if report_dir.is_dir():
            _carry(left, report_dir)
        _remove(left)
    staging = _next(report_dir)
    os.mkdir(staging, 0o700)  # private until it has the old folder's bits
    real_directory(staging)
    if report_dir.is_dir() and not report_dir.is_symlink():
        _keep_mode(report_dir, staging)  # private while it is built, as the old one
        _seed_examples(report_dir, staging)
    return staging


def swap_in(staging: Path, report_dir: Path) -> None:
    """Make the complete report in ``staging`` the content of ``report_dir``."""
    if not os.path.lexists(report_dir):
        os.rename(staging, report_dir)
        return
    if not report_dir.is_dir() or report_dir.is_symlink():
        raise NotADirectoryError(f"not a directory: {report_dir}")
    refuse_unreplaceable(report_dir)  # it may have changed while the report was made
    _keep_mode(report_dir, staging)
    if exchange(staging, report_dir):
        old = staging
    else:
        old = _aside(report_dir)
        _remove(old)
        os.rename(report_dir, old)
        os.rename(staging, report_dir)
    try:
        _carry(old, report_dir)
    except OSError:
        # The new report is in place; what could not be carried waits aside, and the
        # next run carries it (never discarded with the old report).
        if old != _aside(report_dir) and not os.path.lexists(_aside(report_dir)):
            os.rename(old, _aside(report_dir))
        return
    _remove(old)


def _keep_mode(report_dir: Path, staging: Path) -> None:
    """Give ``staging`` the permission bits, owner and group of ``report_dir``, which it
    is to replace (a folder kept private stays private, while the report is built too)."""
    kept = os.stat(report_dir)
    with contextlib.suppress(OSError):
        os.chmod(staging, stat.S_IMODE(kept.st_mode))
    with contextlib.suppress(OSError):
        os.chown(staging, kept.st_uid, kept.st_gid)


def discard(staging: Path) -> None:
    """Remove a staging directory whose report is not to be used."""
    with contextlib.suppress(OSError):
        _remove(staging)
