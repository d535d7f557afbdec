"""Run the suite against one mutant: a fresh copy of the package with one module mutated,
put first on the import path of an ``rttool run`` child process, under a time limit.

The working tree is never touched: the copy, the child's reports, its temporary files
and the reference harness's scenario databases all live in the mutant's own workspace
under the output directory, which is removed once the outcome is read.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mutation._warm import WarmParent

from adapters.files import read_bytes, read_json, write_file

__all__ = [
    "EXIT_FINDING",
    "EXIT_NOT_STARTED",
    "EXIT_UNDRIVABLE",
    "HuntPlan",
    "Outcome",
    "Status",
    "Workspace",
    "classify",
    "compile_error",
    "failing_kinds",
    "suite_arguments",
    "suite_command",
]

#: String hashing fixed for every run whose hunt is seeded, as ``rttool`` fixes it for its
#: own reproducible runs (``conformance/reproducible.py``, which this driver may not
#: import: it must not load the suite it runs against mutants): hypothesis orders some
#: shrink passes by labels that ``hash`` strings, so without it a forked run could shrink
#: a finding another way than the run before.  A seed the caller set is kept.
_HASH_SEED = ("PYTHONHASHSEED", "0")


def _hashing_fixed(env: dict[str, str]) -> dict[str, str]:
    """``env`` with string hashing fixed, unless it names a seed already."""
    if not env.get(_HASH_SEED[0], "").strip().isdigit():
        env[_HASH_SEED[0]] = _HASH_SEED[1]
    return env


#: ``rttool run`` exit codes (see the README): a finding, and an undrivable implementation.
EXIT_FINDING = 1
EXIT_UNDRIVABLE = 3
#: A warm parent's fork that could not run the suite at all (an exception escaped it:
#: ``conformance/cli/mutant_server.py``).
EXIT_NOT_STARTED = 98
#: What an interpreter prints first when an exception ends it: a run that exits 1 with
#: this and no report did not run the suite to a finding, it crashed.
_TRACEBACK = "Traceback (most recent call last):"

# Scenario databases of the reference harness go here instead of shared memory.
_SCRATCH_ENV = "RTTOOL_SCRATCH_DIR"
# What is kept of a child's error output for a crashed mutant: its last line, bounded.
_TAIL_CHARS = 300
# A standing report of the whole suite is a few hundred KB; anything far larger is not one.
_MAX_STANDING_BYTES = 50_000_000
# A module of the package is a few dozen KB; the cap only bounds what a copy reads.
_MAX_SOURCE_BYTES = 16_000_000


class Status(StrEnum):
    """What became of a mutant. Killed, crashed and timeout count as killed; an invalid
    mutant is no program at all, so it is left out of the score."""

    KILLED = "killed"  # the suite reported failing cases
    CRASHED = "crashed"  # the harness or the suite could not run against it
    TIMEOUT = "timeout"  # the run did not finish within the time limit
    SURVIVED = "survived"  # every case passed
    INVALID = "invalid"  # the mutated module does not compile: never run, never scored


@dataclass(frozen=True)
class HuntPlan:
    """The property-based hunt in its reproducible mode (``CI=true``): seeded, and
    stopped after ``examples`` generated examples whatever the time, so that a mutant it
    kills in one run it kills in every run, on a busy machine as on an idle one."""

    seed: int
    examples: int


@dataclass(frozen=True)
class Outcome:
    """One mutant's result: its status, the child's exit code, wall seconds, a short
    detail (the failing clauses, or why it crashed or timed out), and whether every
    failing case was one of the hunt's (``hunt_only``: no hand-written check or vector
    noticed it)."""

    mutant_id: str
    status: Status
    exit_code: int | None
    seconds: float
    detail: str
    hunt_only: bool = False


def compile_error(text: str, filename: str) -> str | None:
    """Why ``text`` is not valid Python, or ``None`` when it compiles."""
    try:
        with warnings.catch_warnings():  # "is" with a literal: a mutant may well say that
            warnings.simplefilter("ignore")
            compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as err:
        return f"the mutated module does not compile: {err}"
    return None


def suite_arguments(
    report_dir: Path,
    hunt: HuntPlan | None = None,
    only: Sequence[str] = (),
    first: Sequence[str] = (),
    exitfirst: bool = False,
) -> list[str]:
    """The arguments of ``rttool`` for the suite run against the reference runtime,
    through the adapter protocol, with the hunt of ``hunt`` (none without it), of the
    cases of the rules ``only`` (every rule when empty), the cases ``first`` tried first,
    stopping at the first failing case when ``exitfirst``."""
    searched = (
        ["--seed", str(hunt.seed), "--examples", str(hunt.examples)]
        if hunt is not None
        else ["--no-hunt"]
    )
    chosen = [argument for rule in only for argument in ("--only", rule)]
    # A case of a rule the run leaves out cannot go first.
    tried = [c for c in first if not only or c.split("#")[0] in only]
    chosen += [argument for case in tried for argument in ("--first", case)]
    chosen += ["--exitfirst"] if exitfirst else []
    return [
        *("run", "--impl", "reference", *chosen, *searched),
        *("--quiet", "--report-dir", str(report_dir)),
    ]


def suite_command(arguments: Sequence[str]) -> list[str]:
    """:func:`suite_arguments` as a fresh process.

    ``-P`` keeps the child's working directory off its import path, so that only the
    copy on ``PYTHONPATH`` can provide ``reference_impl``.
    """
    return [sys.executable, "-P", "-m", "conformance.cli", *arguments]


def classify(
    exit_code: int | None, timed_out: bool, report_dir: Path, stderr: str
) -> tuple[Status, str]:
    """A status and a detail from how the child ended."""
    if timed_out:
        return Status.TIMEOUT, "the suite run did not finish in time and was stopped"
    if exit_code == 0:
        return Status.SURVIVED, ""
    no_report = not (report_dir / "standing.json").exists()
    if exit_code == EXIT_FINDING and not (no_report and _TRACEBACK in stderr):
        failing = failing_clauses(report_dir / "standing.json")
        erring = failing_clauses(report_dir / "standing.json", "error")
        if failing or erring:
            kinds = failing_kinds(report_dir / "standing.json")
            by = " (the hunt only)" if kinds == {"hunt"} else ""
            # An erring clause is the implementation's fault (it broke the protocol where a
            # case reached it), not a check's verdict: the detail keeps the two apart.
            parts = [f"failing: {', '.join(failing)}"] if failing else []
            parts += [f"erring (an implementation fault): {', '.join(erring)}"] if erring else []
            return Status.KILLED, "; ".join(parts) + by
        return Status.KILLED, "the run reported a finding"
    last = next((line for line in reversed(stderr.splitlines()) if line.strip()), "")
    reason = (
        "the implementation could not be driven"
        if exit_code == EXIT_UNDRIVABLE
        else "the suite could not start"
        if exit_code in (EXIT_NOT_STARTED, EXIT_FINDING)
        else (f"the suite run exited with {exit_code}")
    )
    last = last.strip().removeprefix("rttool: ")
    if last.startswith(reason):  # rttool's own line already says it
        return Status.CRASHED, last[:_TAIL_CHARS]
    return Status.CRASHED, f"{reason}: {last[:_TAIL_CHARS]}" if last else reason


def failing_clauses(standing: Path, standing_of: str = "does-not-conform") -> list[str]:
    """Clause ids of a standing report with the standing ``standing_of`` (those that did
    not conform, or with ``"error"`` those that erred), best effort: the detail is for the
    reader, the status never depends on it."""
    try:
        data = read_json(standing, limit=_MAX_STANDING_BYTES)
    except OSError:
        return []
    found = []
    for clause in _clauses(data):
        ident = clause.get("id")
        if isinstance(ident, str) and clause.get("standing") == standing_of:
            found.append(ident)
    return found


def failing_kinds(standing: Path) -> set[str]:
    """The kinds (``check``, ``vector``, ``hunt``) of the cases that failed or erred in a
    standing report, best effort (empty when it cannot be read)."""
    try:
        data = read_json(standing, limit=_MAX_STANDING_BYTES)
    except OSError:
        return set()
    kinds: set[str] = set()
    for clause in _clauses(data):
        cases = clause.get("checks")
        for case in cases if isinstance(cases, list) else []:
            if isinstance(case, dict) and case.get("outcome") in ("failed", "error"):
                kinds.add(str(case.get("kind")))
    return kinds


def _clauses(data: object) -> list[dict[str, object]]:
    rules = data.get("rules") if isinstance(data, dict) else None
    out: list[dict[str, object]] = []
    for rule in rules if isinstance(rules, list) else []:
        clauses = rule.get("clauses") if isinstance(rule, dict) else None
        out += [c for c in (clauses if isinstance(clauses, list) else []) if isinstance(c, dict)]
    return out


class Workspace:
    """One mutant's folder: a copy of the package, the child's reports and its scratch."""

    def __init__(self, root: Path, package: Path, hunt: HuntPlan | None = None) -> None:
        self.root = root
        self.package = package
        self.hunt = hunt
        self.source = root / "src"
        self.reports = root / "report"
        self.scratch = root / "tmp"

    def prepare(self, module: str | None = None, text: str | None = None) -> None:
        """Copy the package (without bytecode caches); write ``text`` over ``module``."""
        shutil.rmtree(self.root, ignore_errors=True)
        self.scratch.mkdir(parents=True)
        target = self.source / self.package.name
        _copy_package(self.package, target)
        if module is not None and text is not None:
            write_file(target, module, text.encode("utf-8"))

    def parent_environment(self) -> dict[str, str]:
        """The environment of a warm parent whose forks run in workspaces like this one:
        the hunt's reproducible mode, read by hypothesis as it is imported."""
        env = dict(os.environ)
        if self.hunt is not None:
            env["CI"] = "true"
            _hashing_fixed(env)
        return env

    def environment(self) -> dict[str, str]:
        """The child's environment: the copy first on the import path, every temporary
        file inside the workspace."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(self.source), *filter(None, [env.get("PYTHONPATH")])]
        )
        for name in ("TMPDIR", "TEMP", "TMP", _SCRATCH_ENV):
            env[name] = str(self.scratch)
        # The hunt's reproducible mode: seeded and counted, never spending a time budget.
        if self.hunt is not None:
            env["CI"] = "true"
            _hashing_fixed(env)
        return env

    def run(self, command: Sequence[str], timeout: float) -> tuple[int | None, bool, str]:
        """Run ``command`` here in a fresh process; on timeout, kill its process group.

        Returns (exit code, whether it timed out, the tail of its error output).
        """
        log = self.root / "stderr.txt"
        with log.open("wb") as err, open(os.devnull, "wb") as out:
            child = subprocess.Popen(
                list(command),
                cwd=self.scratch,
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,  # a group of its own, so a kill reaches every child
            )
            try:
                code: int | None = child.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                _kill_group(child)
                code, timed_out = None, True
        return code, timed_out, self.stderr_tail()

    def stderr_tail(self) -> str:
        """The end of the suite run's error output (empty when it wrote none)."""
        try:
            data = read_bytes(self.root / "stderr.txt", limit=4 * _TAIL_CHARS, tail=True)
        except OSError:
            return ""
        return data.decode("utf-8", errors="replace")

    def outcome(
        self,
        mutant_id: str,
        timeout: float,
        warm: WarmParent | None = None,
        only: Sequence[str] = (),
        reach: Path | None = None,
        *,
        first: Sequence[str] = (),
        exitfirst: bool = False,
    ) -> Outcome:
        """Run the suite in this (prepared) workspace and classify how it ended: forked
        from ``warm`` where given and able (recording the runtime's ``reach`` there when
        asked), else in a fresh process; the rules ``only`` (all when empty) where
        forked, every rule in a fresh process; the cases ``first`` tried first, and the
        run stopped at its first failing case when ``exitfirst``."""
        started = time.monotonic()
        arguments = suite_arguments(self.reports, self.hunt, only, first, exitfirst)
        forked = warm.run(self, arguments, timeout, reach) if warm is not None else None
        if forked is not None:
            code, timed_out = forked
            stderr = self.stderr_tail()
        else:
            spawned = suite_arguments(self.reports, self.hunt, (), first, exitfirst)
            code, timed_out, stderr = self.run(suite_command(spawned), timeout)
        seconds = time.monotonic() - started
        status, detail = classify(code, timed_out, self.reports, stderr)
        hunt_only = status is Status.KILLED and failing_kinds(self.reports / "standing.json") == {
            "hunt"
        }
        return Outcome(mutant_id, status, code, round(seconds, 3), detail, hunt_only)

    def remove(self) -> None:
        """Delete the workspace and everything the child left in it."""
        shutil.rmtree(self.root, ignore_errors=True)


def _copy_package(package: Path, target: Path) -> None:
    """Every file of ``package`` but its bytecode caches, copied into ``target``."""
    for folder, folders, files in os.walk(package):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        here = Path(folder)
        for name in sorted(files):
            relative = (here / name).relative_to(package)
            write_file(target, relative, read_bytes(here / name, limit=_MAX_SOURCE_BYTES))


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()
