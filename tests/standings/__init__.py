"""The standings this repository publishes in ``reports/``, and how each is made.

Every entry of :data:`COMMITTED` has its ``reports/<name>/standing.json`` and
``STANDING.md`` committed, and ``reports/README.md`` is their comparison matrix.
``make reports`` (``python -m tests.standings``) regenerates them all, ``make run`` the
reference's; ``tests/test_committed_standings.py`` fails when any is out of date.

Each is made the same way, here only: a derandomized hunt (``CI=true``: one batch of
examples, however loaded the machine) and ``rttool run --reproducible`` (no start time
or durations in the two committed files), so that a run changes them only when a
standing changes.  To publish another implementation, add an entry.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
#: Folders of evidence in a report directory: committed with the standing that links them.
EVIDENCE = ("evidence", "counterexamples")
TITLE = "Published standings"
INTRO = (
    "The standings rttool publishes for the runtimes it bundles or ships a harness for. "
    "`make reports` regenerates every one of them and this page; `make test` fails when "
    "any is out of date."
)


def _toy(directory: Path) -> None:
    """The harness of ``docs/writing-an-adapter.md``, as a vendor would save it."""
    from tests.adapters.toy import write_toy

    write_toy(directory)


@dataclass(frozen=True)
class Committed:
    """One published standing.

    ``impl`` is the ``--impl`` spec, recorded in the report as written (so it names no
    path of the machine that made it); ``prepare`` writes the harness's files into the
    directory the run starts in; ``requires`` names modules the harness imports that an
    optional extra installs (``install`` says how); ``conforms`` says the implementation
    is expected to meet every rule, so that a failing run is an error here.

    ``exact`` says a fresh run makes the committed files byte for byte. A runtime that
    schedules its own work (LangGraph's stream runs ahead of its reader, PydanticAI's
    tool calls run concurrently) can shrink a hunt finding to another counterexample of
    the same invariant from run to run: for it, every verdict and every hand-written
    check's message must match, and the hunt's counterexamples may differ.
    """

    name: str
    impl: str
    prepare: Callable[[Path], None] | None = None
    requires: tuple[str, ...] = ()
    install: str = ""
    conforms: bool = False
    exact: bool = True

    @property
    def folder(self) -> Path:
        """``reports/<name>/``."""
        return REPORTS / self.name

    def missing(self) -> list[str]:
        """The required modules that are not installed."""
        return [name for name in self.requires if importlib.util.find_spec(name) is None]


COMMITTED: tuple[Committed, ...] = (
    Committed(name="reference", impl="reference", conforms=True),
    Committed(name="toy", impl="stdio:python toy_harness.py", prepare=_toy),
    Committed(
        name="langgraph",
        impl="python:harnesses.langgraph:create",
        requires=("langgraph",),
        install="pip install -e '.[langgraph]'",
        exact=False,
    ),
    Committed(
        name="pydantic-ai",
        impl="python:harnesses.pydanticai:create",
        requires=("pydantic_ai",),
        install="pip install -e '.[pydantic-ai]'",
        exact=False,
    ),
    Committed(
        name="adk",
        impl="python:harnesses.adk:create",
        requires=("google.adk",),
        install="pip install -e '.[adk]'",
        exact=False,
    ),
)


@contextmanager
def _workdir(entry: Committed) -> Iterator[Path]:
    if entry.prepare is None:
        yield ROOT
        return
    with tempfile.TemporaryDirectory(prefix=f"rttool-{entry.name}-") as scratch:
        entry.prepare(Path(scratch))
        yield Path(scratch)


def run_standing(
    entry: Committed, report_dir: Path, *, quiet: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run the suite against ``entry`` exactly as the committed standing is made,
    writing the reports into ``report_dir``; returns the finished ``rttool run``.

    Evidence an earlier run left is removed first: what is committed is exactly what
    this run's standing points to."""
    for kind in EVIDENCE:
        shutil.rmtree(report_dir / kind, ignore_errors=True)
    command = [sys.executable, "-m", "conformance.cli", "run", "--impl", entry.impl]
    command += ["--report-dir", str(report_dir.resolve()), "--reproducible"]
    if quiet:
        command.append("-q")
    env = {**os.environ, "CI": "true"}
    with _workdir(entry) as cwd:
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            text=True,
            capture_output=quiet,
            timeout=900,
            check=False,
        )


def _published() -> list[Path]:
    """The folders of the committed standings, in the matrix's column order."""
    return [entry.folder for entry in COMMITTED if (entry.folder / "standing.json").is_file()]


def matrix_page() -> str:
    """The text ``reports/README.md`` must hold: the matrix of the committed standings."""
    from conformance.matrix import build_matrix, matrix_markdown

    return matrix_markdown(build_matrix(_published()), REPORTS, title=TITLE, intro=INTRO)


def write_matrix_pages() -> tuple[Path, ...]:
    """Write ``reports/README.md`` (and the untracked ``reports/index.html``)."""
    from conformance.matrix import build_matrix, write_matrix

    return write_matrix(build_matrix(_published()), REPORTS, title=TITLE, intro=INTRO)
