"""Regenerate the committed standings and ``reports/README.md``.

Run from the repository root (``make reports`` does)::

    .venv/bin/python -m tests.standings            # every standing, then the matrix
    .venv/bin/python -m tests.standings reference  # only these (the matrix is rewritten)

An implementation whose optional dependencies are not installed is skipped with a line
saying so (its committed standing stays, and stays in the matrix).  Exit 1 when a run
could not be made, or when an implementation expected to conform does not.
"""

from __future__ import annotations

import sys

from tests.standings import COMMITTED, run_standing, write_matrix_pages


def main(names: list[str]) -> int:
    """Regenerate the standings named (all when none is), then the matrix."""
    known = {entry.name: entry for entry in COMMITTED}
    unknown = [name for name in names if name not in known]
    if unknown:
        print(f"standings: unknown {', '.join(unknown)}; known: {', '.join(known)}")
        return 2
    failed = []
    for entry in [known[name] for name in names] or list(COMMITTED):
        missing = entry.missing()
        if missing:
            how = f" (install them with {entry.install})" if entry.install else ""
            print(f"standings: skipped {entry.name}: {', '.join(missing)} not installed{how}")
            continue
        print(f"standings: {entry.name}: rttool run --impl {entry.impl!r}", flush=True)
        done = run_standing(entry, entry.folder)
        # 1 is a finding: the standing is written all the same, and published as it is.
        if done.returncode not in (0, 1) or (entry.conforms and done.returncode != 0):
            failed.append(f"{entry.name} (exit {done.returncode})")
    for path in write_matrix_pages():
        print(f"standings: wrote {path.relative_to(path.parents[1])}")
    if failed:
        print(f"standings: failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
