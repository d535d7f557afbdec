"""Every file the project writes, and every file it reads, goes through this module.

Writing.  A directory rttool writes into is reused from run to run, and anything may
have been left in it: a symbolic link where ``evidence/`` belongs, a link named like a
file about to be written or like a temporary name, a file where a directory should be.
Nothing here follows a link:

* :func:`real_directory` makes each directory under a root a real one, replacing a
  symbolic link (the link only, never what it points at) with an empty directory;
* :func:`write_file` writes a fresh temporary file (created exclusively, with a random
  name, never through a link) inside the root, then renames it over the target, so a
  link at the target is replaced, not followed, and a reader sees the old content or
  the new, never a part;
* :func:`append_text` adds to a file that accumulates lines and must keep each one
  through a kill (the CI's step summary, which the CI asks to be appended
  to; a journal of outcomes read back by a resumed run); it refuses a link;
* both refuse (:class:`NotWritable`; :func:`writable` checks beforehand) a target that
  is not a regular file: a directory, FIFO, socket, device, a link to one, or to a
  process's open file (``/dev/stdout``), which a rename would replace with a file;
* :func:`exchange` swaps two directories in one step where the system can (Linux), so
  a report directory changes from one complete report to another.

Reading.  A file named on the command line, or found where rttool expects its own, is
untrusted: it may be a FIFO that never ends, ``/dev/zero`` behind a link, a directory,
or simply huge.  :func:`read_bytes` (and :func:`read_text`, :func:`read_json`) opens
without blocking, refuses anything but a regular file, and reads at most a cap given
by the caller, raising :class:`UnreadableFile` with one line naming the file.
:func:`read_json` also refuses an object that gives a key twice.

The layering test (``tests/conformance/test_one_write_path.py``) fails when any other
module of the product opens a file for writing.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import stat
import sys
from pathlib import Path, PurePosixPath

from adapters.errors import RttoolError
from adapters.limits import DuplicateKey, TooDeep, loads

__all__ = [
    "NotWritable",
    "UnreadableFile",
    "append_text",
    "exchange",
    "read_bytes",
    "read_json",
    "read_text",
    "real_directory",
    "writable",
    "write_file",
]

#: The suffix of every temporary name :func:`write_file` uses (``.NAME.<random>.tmp``).
TEMPORARY_SUFFIX = ".tmp"
_READ_CHUNK = 1024 * 1024
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class _Refused(RttoolError, OSError):
    """A file refused, with one line naming it.  It is an ``OSError`` too (``filename``
    is the path, ``strerror`` the reason), so a caller that already reports a file it
    cannot read or write reports this one the same way."""

    said = "cannot use the file"

    def __init__(self, path: Path | str, reason: str) -> None:
        RttoolError.__init__(self, self.said, file=str(path), reason=reason)
        self.filename = str(path)
        self.strerror = reason

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else self.message


class UnreadableFile(_Refused):
    """A file that is not read: missing, not readable, not a regular file, larger than
    its cap, or (:func:`read_json`) not one JSON value with unique keys."""

    said = "cannot read the file"


class NotWritable(_Refused):
    """A file that is not written: its target exists and is not a regular file (nor a
    link to one), or names a process's open file."""

    said = "cannot write the file"


def _kind(mode: int) -> str | None:
    return next((kind for test, kind in _KINDS if test(mode)), None)


#: A link through which a path names a process's open file (``/dev/stdout``).
_DESCRIPTORS = ("/proc/", "/dev/fd/")
#: Links followed at most, as the system does (a longer chain is not followed).
_MAX_HOPS = 40


def _names_a_descriptor(path: Path) -> bool:
    """Whether the chain of links at ``path`` passes through ``/proc`` (or
    ``/dev/fd``): writing there writes a stream someone holds open, whatever it is."""
    current = path
    for _ in range(_MAX_HOPS):
        folder = os.path.realpath(current.parent)
        if f"{folder}/".startswith(_DESCRIPTORS):
            return True
        try:
            target = os.readlink(current)
        except OSError:
            return False
        current = Path(folder) / target
        if str(current).startswith(_DESCRIPTORS):
            return True
    return False


def writable(path: Path) -> None:
    """Nothing when ``path`` may be written by :func:`write_file` (nothing is there, a
    regular file, or a link, to a regular file or to nothing, which is replaced);
    :class:`NotWritable` when something else is there."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as err:
        raise NotWritable(path, err.strerror or str(err)) from err
    if not stat.S_ISLNK(mode):
        kind = _kind(mode)
        if kind is not None:
            raise NotWritable(path, f"not a regular file ({kind})")
        return
    if _names_a_descriptor(path):
        raise NotWritable(path, "a link to a process's open file, not a regular file")
    try:
        kind = _kind(os.stat(path).st_mode)
    except OSError:
        return  # a link to nothing (or to a loop): the link itself is replaced
    if kind is not None:
        raise NotWritable(path, f"not a regular file (a link to {kind})")


def _parts(relative: str | Path) -> tuple[str, ...]:
    parts = PurePosixPath(Path(relative).as_posix()).parts
    if not parts or any(part in ("", ".", "..", "/") for part in parts):
        raise OSError(f"not a plain relative path: {str(relative)[:200]!r}")
    return parts


def real_directory(root: Path, relative: str | Path = "") -> Path:
    """``root / relative``, created where missing, each part under ``root`` a real
    directory: a symbolic link there is replaced by an empty directory.  Raises
    ``OSError`` when a part (``root`` included) is a file."""
    with contextlib.suppress(FileExistsError):  # not a directory: said below
        root.mkdir(parents=True, exist_ok=True)
    if not root.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(root))
    current = root
    for part in _parts(relative) if str(relative) not in ("", ".") else ():
        current = current / part
        if current.is_symlink():
            current.unlink()  # the link, not its target
        try:
            current.mkdir()
        except FileExistsError:
            if not current.is_dir() or current.is_symlink():
                raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(current)) from None
    return current


def write_file(root: Path, relative: str | Path, content: bytes) -> Path:
    """Write ``content`` to ``root / relative`` atomically, following no link, and
    return the path written.  ``relative`` may not climb out of ``root``; a target that
    is not a regular file is refused (:class:`NotWritable`, see :func:`writable`)."""
    parts = _parts(relative)
    folder = real_directory(root, Path(*parts[:-1])) if len(parts) > 1 else real_directory(root)
    target = folder / parts[-1]
    writable(target)
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
        path = folder / f".{name[:100]}.{secrets.token_hex(6)}{TEMPORARY_SUFFIX}"
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue


def append_text(path: Path, text: str) -> None:
    """Append ``text`` (ending it with a newline when it does not) to the file at
    ``path`` in one write, creating the file; a symbolic link there is refused
    (``OSError``), never followed, and so is anything but a regular file
    (:class:`NotWritable`): opening never blocks on a FIFO."""
    writable(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
    kind = _kind(os.fstat(handle).st_mode)
    if kind is not None:  # it became one since it was looked at
        os.close(handle)
        raise NotWritable(path, f"not a regular file ({kind})")
    os.set_blocking(handle, True)
    with os.fdopen(handle, "ab") as out:
        out.write((text if text.endswith("\n") else text + "\n").encode("utf-8"))


def exchange(first: Path, second: Path) -> bool:
    """Swap the directories ``first`` and ``second`` in one step (``renameat2`` with
    ``RENAME_EXCHANGE``); ``False`` where the system cannot, and nothing moved."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        rename = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, rename_exchange = -100, 2
    done = rename(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), rename_exchange)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV):
        return False  # this file system (or kernel) cannot exchange
    raise OSError(code, os.strerror(code), str(first))


def read_bytes(path: Path, *, limit: int, tail: bool = False) -> bytes:
    """The content of the regular file at ``path``, at most ``limit`` bytes.

    Opening never blocks (a FIFO is refused, not waited on); a directory, a device, a
    socket or a FIFO, behind a link or not, is refused, and so is a file larger than
    ``limit``: :class:`UnreadableFile`, naming the file.  With ``tail``, a larger file
    is not refused: its last ``limit`` bytes are read (the end of a log).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(path, flags)
    except OSError as err:
        raise UnreadableFile(path, err.strerror or str(err)) from err
    kind = _kind(os.fstat(handle).st_mode)
    if kind is not None:
        os.close(handle)
        raise UnreadableFile(path, f"not a regular file ({kind})")
    with os.fdopen(handle, "rb") as source:
        if tail:
            source.seek(max(0, os.fstat(source.fileno()).st_size - limit))
        chunks: list[bytes] = []
        size = 0
        budget = limit if tail else limit + 1  # one byte past the cap tells it is crossed
        try:
            while size < budget:
                chunk = source.read(min(_READ_CHUNK, budget - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except OSError as err:
            raise UnreadableFile(path, err.strerror or str(err)) from err
    if size > limit:
        raise UnreadableFile(path, f"larger than {limit} bytes")
    return b"".join(chunks)


def read_text(path: Path, *, limit: int, errors: str = "strict") -> str:
    """:func:`read_bytes` as UTF-8 text (``errors`` as for ``bytes.decode``; with
    ``strict``, bytes that are not UTF-8 are :class:`UnreadableFile`)."""
    data = read_bytes(path, limit=limit)
    try:
        return data.decode("utf-8", errors=errors)
    except UnicodeDecodeError as err:
        raise UnreadableFile(path, f"not UTF-8 ({err.reason})") from err


def read_json(path: Path, *, limit: int) -> object:
    """The one JSON value in the file at ``path`` (see :func:`read_bytes`), held to the
    nesting limit, with every object's keys unique; anything else is
    :class:`UnreadableFile`, naming the file and, where there is one, the JSON pointer."""
    data = read_bytes(path, limit=limit)
    try:
        return loads(data, unique_keys=True)
    except (DuplicateKey, TooDeep) as err:
        raise UnreadableFile(path, f"{err.complaint} at {err.pointer}") from err
    except ValueError as err:
        raise UnreadableFile(path, f"not JSON: {' '.join(str(err).split())[:200]}") from err
