"""Where ``rttool report merge`` writes: a folder of its own, made whole in one step, with
the evidence of every shard copied under a total cap.

* ``--out`` is never an input: it may not be a shard's report directory, lie inside
  one, or hold one (the merged report replaces the folder's report, and a shard's
  standing silently replaced would be a lost input).
* The merged report is built in a staging directory beside ``--out`` and swapped in as
  ``rttool run`` swaps its report (``conformance/cli/_report_dir.py``): what an earlier
  merge wrote in other formats (``report.html``, ``junit.xml``, badges) does not stay
  beside the new standing, and what is not the report's is carried over.
* Evidence is copied from the shard that found it: each shard's folder is resolved once,
  each evidence path once (it must stay inside its shard's folder), each real file is
  copied once (two paths that resolve to one file, through links, are one copy), and
  the copies together stop at :data:`EVIDENCE_TOTAL` bytes.  A file not copied is one
  line; the standing still names it, as a run whose evidence could not be written does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from adapters.errors import RttoolError

if TYPE_CHECKING:
    from conformance.shard import Merged

__all__ = [
    "EVIDENCE_LIMIT",
    "EVIDENCE_TOTAL",
    "MergeNotWritten",
    "OutIsAnInput",
    "ShardFolder",
    "check_out",
    "copy_evidence",
    "write_merged",
]

#: An evidence file larger than this is not copied (its standing still names it).
EVIDENCE_LIMIT = 16 * 1024 * 1024
#: The evidence of a merge is copied up to this many bytes in all: shards of a real run
#: hold far less, and a shard whose links name one file many times cannot multiply it.
EVIDENCE_TOTAL = 256 * 1024 * 1024


class OutIsAnInput(RttoolError):
    """``--out`` names a shard's report directory, a folder inside one, or one holding one."""


class MergeNotWritten(RttoolError):
    """The merged report could not be written (the earlier one, if any, is left whole)."""


@dataclass(frozen=True)
class ShardFolder:
    """A shard's report directory, resolved once, and its index."""

    index: int
    folder: Path


def check_out(out: Path, shards: Sequence[ShardFolder]) -> Path:
    """``out`` resolved, or :class:`OutIsAnInput` naming the shard folder it touches."""
    where = out.resolve()
    for shard in shards:
        if where == shard.folder or shard.folder in where.parents or where in shard.folder.parents:
            raise OutIsAnInput(
                "--out must be a folder of its own: not a shard's report directory, a "
                "folder inside one, or one holding one",
                out=str(out),
                shard=str(shard.folder),
            )
    return where


def copy_evidence(
    evidence: Mapping[str, int],
    shards: Sequence[ShardFolder],
    out: Path,
    *,
    total: int | None = None,
) -> list[str]:
    """Copy every evidence file (relative path -> the index of the shard holding it)
    into ``out``, ``total`` bytes at most (default :data:`EVIDENCE_TOTAL`); returns a
    line for each file not copied."""
    from adapters.files import read_bytes, write_file

    total = EVIDENCE_TOTAL if total is None else total

    by_index = {shard.index: shard.folder for shard in shards}
    copied: dict[tuple[int, int], str] = {}  # (device, inode) of each file copied -> its path
    written = 0
    problems: list[str] = []
    for relative, index in sorted(evidence.items()):
        try:
            source = by_index.get(index)
            if source is None:
                raise OSError("no report directory for its shard")
            path = (source / relative).resolve()  # every link on the way, resolved once
            if not path.is_relative_to(source):
                raise OSError("outside its report directory")
            status = os.stat(path)
            key = (status.st_dev, status.st_ino)
            if key in copied:
                raise OSError(f"the same file as {copied[key]}, copied once")
            if written + status.st_size > total:
                raise OSError(f"the evidence copied reached its total cap of {total} bytes")
            # Read from the path resolved above, held to what the cap leaves.
            content = read_bytes(path, limit=min(EVIDENCE_LIMIT, total - written))
            write_file(out, relative, content)
            written += len(content)
            copied[key] = relative
        except OSError as err:
            problems.append(f"rttool: evidence not copied: {relative}: {err}")
    return problems


def write_merged(
    merged: Merged, shards: Sequence[ShardFolder], out: Path, formats: Sequence[str]
) -> tuple[int, list[str]]:
    """Build the merged report (its evidence and ``formats``) in a staging directory and
    swap it in as ``out``; returns how many files were written and a line for each
    evidence file not copied.  Raises :class:`MergeNotWritten` in one line."""
    from conformance.cli._report_dir import discard, staging_for, swap_in
    from conformance.report import write_reports

    try:
        staging = staging_for(out)
    except OSError as err:
        raise MergeNotWritten("cannot write the merged report", out=str(out), reason=err) from err
    try:
        problems = copy_evidence(merged.evidence, shards, staging)
        written = write_reports(merged.report, staging, formats)
        swap_in(staging, out)
    except OSError as err:
        discard(staging)
        raise MergeNotWritten("cannot write the merged report", out=str(out), reason=err) from err
    except BaseException:
        discard(staging)
        raise
    return len(written), problems
