"""Writing inside a report directory, and never outside it.

A report directory is reused from run to run, and anything may have been left in it: a
symbolic link where ``evidence/`` or ``allure-results/`` should be, a link named like a
file rttool is about to write, a temporary name a crashed run left behind.  Nothing
here follows a link:

* :func:`real_directory` makes each directory under the root a real one, replacing a
  symbolic link (the link only, never what it points at) with an empty directory;
* :func:`write_file` writes through a fresh temporary file (created exclusively, with a
  random name) that then replaces the target, so a link at the target is replaced, not
  followed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path, PurePosixPath

__all__ = ["real_directory", "write_file"]


def _parts(relative: str | Path) -> tuple[str, ...]:
    parts = PurePosixPath(Path(relative).as_posix()).parts
    if not parts or any(part in ("", ".", "..", "/") for part in parts):
        raise OSError(f"not a plain relative path: {str(relative)[:200]!r}")
    return parts


def real_directory(root: Path, relative: str | Path = "") -> Path:
    """``root / relative``, created where missing, each part under ``root`` a real
    directory: a symbolic link there is replaced by an empty directory.  Raises
    ``OSError`` when a part is a file."""
    root.mkdir(parents=True, exist_ok=True)
    current = root
    for part in _parts(relative) if str(relative) not in ("", ".") else ():
        current = current / part
        if current.is_symlink():
            current.unlink()  # the link, not its target
        try:
            current.mkdir()
        except FileExistsError:
            if not current.is_dir() or current.is_symlink():
                raise NotADirectoryError(f"not a directory: {current}") from None
    return current


def write_file(root: Path, relative: str | Path, content: bytes) -> Path:
    """Write ``content`` to ``root / relative`` atomically, following no link."""
    parts = _parts(relative)
    folder = real_directory(root, Path(*parts[:-1])) if len(parts) > 1 else root
    if len(parts) == 1:
        root.mkdir(parents=True, exist_ok=True)
    target = folder / parts[-1]
    handle, name = _fresh(folder, parts[-1])
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return target


def _fresh(folder: Path, name: str) -> tuple[int, Path]:
    """A new file of a random name in ``folder``, created exclusively (never through a
    link) with the permissions the umask gives any new file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        path = folder / f".{name[:100]}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
