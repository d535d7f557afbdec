"""Regenerate tests/report/golden/ from the sample report.

Run from the repository root after an intended change to a report format::

    .venv/bin/python -m tests.report.regenerate_golden

then review the diff of tests/report/golden/ before committing it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from conformance.report import write_reports
from tests.report.sample import sample_report, write_evidence

GOLDEN = Path(__file__).parent / "golden"


def render_golden(directory: Path) -> dict[str, bytes]:
    """Every file ``write_reports`` makes for the sample report, by relative path."""
    write_evidence(directory)
    written = write_reports(sample_report(), directory)
    return {path.relative_to(directory).as_posix(): path.read_bytes() for path in written}


def main() -> None:
    """Replace the golden directory with freshly rendered files."""
    with tempfile.TemporaryDirectory() as scratch:
        files = render_golden(Path(scratch))
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for relative, content in files.items():
        target = GOLDEN / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    print(f"wrote {len(files)} golden files to {GOLDEN}")


if __name__ == "__main__":
    main()
