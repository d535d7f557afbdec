"""Which build of the suite is running: a digest of its own code, not its version string.

Two commits may share a version number (``0.1.0`` stays ``0.1.0`` until a release), yet
split a run differently or judge a case differently.  A shard records the build that ran
it, and ``rttool report merge`` merges only shards of its own build: the one whose split
it can recompute.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__all__ = ["suite_build"]

#: What of a package is its code: its modules and the schemas it validates against.
_SUFFIXES = frozenset({".py", ".json"})
#: Folders of a package that are not its code (the corpus bundled as data, caches).
_SKIPPED = frozenset({"__pycache__", "_corpus"})


def _files(root: Path) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*")
        if path.suffix in _SUFFIXES
        and path.is_file()
        and not _SKIPPED & set(path.relative_to(root).parts)
    )


@functools.cache
def suite_build() -> str:
    """A short digest of every module and schema of the suite's packages, by path and
    content (computed once per process): the checks, the engine and the reports, and
    the adapter protocol and transports every case is run through.  The rule corpus is
    not code: its own digest is recorded beside this one."""
    import adapters
    import conformance

    digest = hashlib.sha256()
    for package in (conformance, adapters):
        root = Path(package.__file__ or "").parent
        for path in _files(root):
            name = f"{package.__name__}/{path.relative_to(root).as_posix()}"
            content = path.read_bytes()
            digest.update(f"{name}\0{len(content)}\0".encode())
            digest.update(content)
    return digest.hexdigest()[:16]
