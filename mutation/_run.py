"""A whole mutation run: check the baseline, run the chosen mutants on every core, and
keep each outcome as it comes so that an interrupted run can be resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path

from adapters.files import append_text, read_text
from mutation._catalogue import Mutant, apply_mutant
from mutation._errors import BaselineError
from mutation._execute import HuntPlan, Outcome, Status, Workspace, compile_error
from mutation._reach import Order, Reach, cases_reaching, rules_reaching
from mutation._warm import WarmParent, WarmPool

#: An outcome line is a few hundred bytes; a journal of every mutant is well under this.
_MAX_OUTCOMES_BYTES = 64_000_000

__all__ = [
    "MIN_TIMEOUT_S",
    "OUTCOMES_FILE",
    "baseline",
    "default_jobs",
    "load_outcomes",
    "run_mutants",
    "stop_on_terminate",
]

#: outcomes are appended here one JSON line each, as they finish
OUTCOMES_FILE = "outcomes.jsonl"
#: the smallest per-mutant time limit; the default is ten baselines, at least this
MIN_TIMEOUT_S = 60.0
# The unmutated run may be slow on a loaded machine; it is never a hang of a mutant.
_BASELINE_TIMEOUT_S = 900.0

_IMPORT_CHECK = "import reference_impl, sys; sys.stdout.write(reference_impl.__file__)"


def baseline(
    work: Path,
    package: Path,
    hunt: HuntPlan | None = None,
    warm: WarmParent | None = None,
    reach: Path | None = None,
) -> float:
    """Run the suite (with ``hunt``, forked from ``warm`` when given, recording there
    which rules' cases run each line into ``reach``) against an unmutated copy: it must be
    what the child imports, and every case must pass. Returns the run's wall seconds."""
    space = Workspace(work / "baseline", package, hunt)
    space.prepare()
    try:
        found = subprocess.run(
            [sys.executable, "-P", "-c", _IMPORT_CHECK],
            cwd=space.scratch,
            env=space.environment(),
            capture_output=True,
            text=True,
            timeout=_BASELINE_TIMEOUT_S,
            check=False,
        ).stdout.strip()
        if not found or not Path(found).resolve().is_relative_to(space.source.resolve()):
            raise BaselineError(
                "the suite's child process does not import the copy of the package, so no "
                "mutant would be tested",
                imported=found or "nothing",
            )
        outcome = space.outcome("baseline", _BASELINE_TIMEOUT_S, warm, reach=reach)
        if outcome.status is not Status.SURVIVED:
            raise BaselineError(
                "the suite does not pass against the unmutated reference runtime, so no "
                "mutant can be scored",
                status=outcome.status.value,
                detail=outcome.detail,
            )
        return outcome.seconds
    finally:
        space.remove()


def load_outcomes(path: Path, wanted: Mapping[str, Mutant]) -> dict[str, Outcome]:
    """Outcomes kept by an earlier run of the same selection (for ``--resume``); lines
    that do not parse, or name a mutant not wanted now, are ignored."""
    kept: dict[str, Outcome] = {}
    try:
        text = read_text(path, limit=_MAX_OUTCOMES_BYTES, errors="replace")
    except OSError:
        return kept
    for line in text.splitlines():
        try:
            raw = json.loads(line)
            outcome = Outcome(
                str(raw["id"]),
                Status(raw["status"]),
                raw["exit_code"] if isinstance(raw["exit_code"], int) else None,
                float(raw["seconds"]),
                str(raw["detail"]),
                raw.get("hunt_only") is True,
            )
        except (ValueError, KeyError, TypeError):
            continue
        if outcome.mutant_id in wanted:
            kept[outcome.mutant_id] = outcome
    return kept


def run_mutants(
    chosen: Sequence[Mutant],
    sources: Mapping[str, str],
    package: Path,
    work: Path,
    *,
    jobs: int,
    timeout: float,
    log: Path,
    report: Callable[[Mutant, Outcome], None],
    hunt: HuntPlan | None = None,
    warm: WarmPool | None = None,
    reach: Reach | None = None,
    order: Order | None = None,
    exitfirst: bool = False,
) -> tuple[list[Outcome], bool]:
    """Run ``chosen`` on ``jobs`` workers, each suite run with ``hunt`` (forked from a
    parent of ``warm`` when given, else a fresh process); append each outcome to ``log``
    and hand it to ``report``. Returns the outcomes and whether the run was interrupted
    (Ctrl-C). Where forked, a mutant is judged by the cases of the rules that ``reach``
    says run its line, when it says.  The cases ``order`` says ran the line go first, and
    with ``exitfirst`` a run stops at its first failing case (a killed mutant needs no
    more: the hunt, last, runs only where no check or vector failed)."""
    outcomes: list[Outcome] = []
    pending = list(enumerate(chosen))
    interrupted = False

    def one(index: int, mutant: Mutant) -> Outcome:
        text = apply_mutant(mutant, sources[mutant.module])
        invalid = compile_error(text, mutant.module)
        if invalid is not None:
            return Outcome(mutant.id, Status.INVALID, None, 0.0, invalid)
        space = Workspace(work / f"m{index:05d}", package, hunt)
        try:
            space.prepare(mutant.module, text)
            first = cases_reaching(order, mutant) if order else ()
            if warm is None:
                return space.outcome(mutant.id, timeout, first=first, exitfirst=exitfirst)
            only = rules_reaching(reach, mutant) if reach else ()
            return space.outcome(
                mutant.id, timeout, warm.parent(), only, first=first, exitfirst=exitfirst
            )
        finally:
            space.remove()

    with ThreadPoolExecutor(jobs) as pool:
        running: dict[Future[Outcome], Mutant] = {}
        try:
            while pending or running:
                while pending and len(running) < jobs:
                    index, mutant = pending.pop(0)
                    running[pool.submit(one, index, mutant)] = mutant
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    mutant = running.pop(future)
                    outcome = future.result()
                    outcomes.append(outcome)
                    append_text(log, json.dumps(_outcome_line(outcome)))
                    report(mutant, outcome)
        except KeyboardInterrupt:
            # The children run in sessions of their own, out of reach of the terminal's
            # interrupt: the ones running finish (within the time limit), no new one starts.
            interrupted = True
            pending.clear()
            for future in running:
                outcome = future.result()
                outcomes.append(outcome)
                append_text(log, json.dumps(_outcome_line(outcome)))
    return outcomes, interrupted


@contextmanager
def stop_on_terminate() -> Iterator[None]:
    """Within the block, SIGTERM stops the run as Ctrl-C does (the running mutants finish,
    no new one starts, what finished is written), also where a shell started the run in
    the background with Ctrl-C's signal ignored."""
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def default_jobs() -> int:
    """One worker per core."""
    return max(1, os.cpu_count() or 1)


def _outcome_line(outcome: Outcome) -> dict[str, object]:
    return {
        "id": outcome.mutant_id,
        "status": outcome.status.value,
        "exit_code": outcome.exit_code,
        "seconds": outcome.seconds,
        "detail": outcome.detail,
        "hunt_only": outcome.hunt_only,
    }
