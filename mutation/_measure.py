"""A measuring run of ``python -m mutation``, step by step: make the output directory
ready, time the suite once against the unmutated runtime (the baseline), run the chosen
mutants on every job, and write the record of what they did."""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from adapters.files import real_directory
from mutation._catalogue import Mutant
from mutation._equivalents import CONFORMING, UNOBSERVABLE, Equivalent
from mutation._errors import MutationError
from mutation._execute import HuntPlan, Outcome, Status, Workspace
from mutation._reach import load_order, load_reach
from mutation._report import RunRecord, progress_line, write_outputs
from mutation._run import (
    MIN_TIMEOUT_S,
    OUTCOMES_FILE,
    baseline,
    load_outcomes,
    run_mutants,
    stop_on_terminate,
)
from mutation._score import score, timing
from mutation._warm import WarmParent, WarmPool

__all__ = ["ORDER_FILE", "REACH_FILE", "WORK_DIR", "MeasureOptions", "OutputError", "measure"]

#: the mutants' workspaces, inside the output directory while a run lasts
WORK_DIR = ".mutation-work"
#: which rules' cases run each line of the runtime, recorded by the baseline run
REACH_FILE = "reach.json"
#: beside it, the cases that ran each line (``conformance/cli/_mutant_reach.py``)
ORDER_FILE = "order.json"


class OutputError(MutationError):
    """The output directory cannot hold the run (it is a file, or cannot be made)."""


@dataclass(frozen=True)
class MeasureOptions:
    """What the command line asks of a measuring run."""

    #: the output directory, resolved
    out: Path
    #: the package whose mutants run (the reference runtime)
    package: Path
    jobs: int
    #: the per-mutant time limit; ``None``: ten baseline runs, at least ``MIN_TIMEOUT_S``
    timeout: float | None
    #: the hunt of each suite run; ``None``: no hunt
    hunt: HuntPlan | None
    #: start each suite run afresh instead of forking it from a warm parent
    spawn: bool
    #: run a mutant against the rules whose cases reach its line only
    reach: bool
    #: run every case of each mutant, not stopping at its first failing one
    all_failures: bool
    #: keep the outcomes of an interrupted run of the same selection
    resume: bool
    #: how the mutants were chosen, as the record says it
    seed: int
    sample: int | None
    only: Path | None


@dataclass(frozen=True)
class _Bench:
    """Where and how every suite run of a measuring run happens."""

    work: Path
    #: the warm parents' environment: the hunt's mode, nothing of any one workspace
    env: dict[str, str]
    #: where the baseline records what reaches each line (forked runs only)
    reach: Path | None


def measure(
    options: MeasureOptions,
    chosen: list[Mutant],
    by_id: Mapping[str, Mutant],
    sources: Mapping[str, str],
    triage: Sequence[Equivalent],
    gone: Sequence[Equivalent],
) -> RunRecord:
    """Run ``chosen`` as ``options`` ask and write what they did into ``options.out``;
    returns the record written.  Raises :class:`OutputError` when the output directory
    cannot hold the run, and ``BaselineError`` when the suite cannot be scored."""
    work = options.out / WORK_DIR  # its own name: never a folder of the user's
    _make_ready(options.out, work)
    log = options.out / OUTCOMES_FILE
    kept = _kept(log, chosen, resume=options.resume)
    started = time.monotonic()
    bench = _bench(options, work)
    baseline_s = _time_baseline(options, bench)
    limit = options.timeout or max(MIN_TIMEOUT_S, 10 * baseline_s)
    tool = f"cosmic-ray {metadata.version('cosmic-ray')}"
    print(
        f"mutation: {len(chosen)} mutants chosen ({len(kept)} kept from the last run), "
        f"{options.jobs} jobs, {limit:.0f} s limit each; baseline {baseline_s:.1f} s; {tool}",
        flush=True,
    )
    todo = [mutant for mutant in chosen if mutant.id not in kept]
    progress = _Progress(len(chosen), kept)
    outcomes, interrupted = _run(options, bench, todo, sources, limit, log, progress)
    shutil.rmtree(work, ignore_errors=True)
    every = [*kept.values(), *outcomes]
    conforming = frozenset(e.mutant_id for e in triage if e.kind == CONFORMING)
    record = RunRecord(
        tool=tool,
        package=options.package.name,
        enumerated=len(by_id),
        equivalents=sum(entry.kind == UNOBSERVABLE for entry in triage),
        mode=_mode(options),
        sample=options.sample,
        seed=options.seed,
        listed_from=str(options.only) if options.only else None,
        outcomes=every,
        score=score(every, conforming),
        timing=timing(every, time.monotonic() - started, baseline_s, options.jobs),
        stale=gone,
        interrupted=interrupted,
        conforming=conforming,
        hunt=_hunt_said(options.hunt),
    )
    write_outputs(options.out, record, by_id, sources)
    return record


def _make_ready(out: Path, work: Path) -> None:
    """``out`` made a real directory, with no workspace left from an earlier run."""
    shutil.rmtree(work, ignore_errors=True)
    try:
        real_directory(out, WORK_DIR)
    except OSError as err:
        why = err.strerror or str(err)
        raise OutputError(f"{out}: cannot be the output directory: {why}") from err


def _kept(log: Path, chosen: list[Mutant], *, resume: bool) -> dict[str, Outcome]:
    """The outcomes an interrupted run kept, where it is resumed; else none, and the
    journal of an earlier run is removed."""
    if resume:
        return load_outcomes(log, {m.id: m for m in chosen})
    log.unlink(missing_ok=True)
    return {}


def _bench(options: MeasureOptions, work: Path) -> _Bench:
    env = Workspace(work, options.package, options.hunt).parent_environment()
    # Forked, the unmutated run records which rules' and which cases' runs reach each
    # line: the cases go first in a mutant's run, and with --reach the rules are all it runs.
    return _Bench(work, env, None if options.spawn else work / REACH_FILE)


def _time_baseline(options: MeasureOptions, bench: _Bench) -> float:
    """The wall seconds of the suite against the unmutated runtime (forked from a warm
    parent of its own, unless spawning); raises ``BaselineError`` when it cannot be
    scored."""
    print(
        "mutation: timing the suite once against the unmutated runtime (the baseline)...",
        flush=True,
    )
    first = None if options.spawn else WarmParent(bench.env, bench.work)
    try:
        return baseline(bench.work, options.package, options.hunt, first, bench.reach)
    finally:
        if first is not None:
            first.close()


class _Progress:
    """A line per mutant as it finishes, whether or not a terminal shows it: a run lasts
    an hour and its log is read afterwards.  The time left is the pace so far, over what
    is left of this run (not of the mutants kept from an earlier one)."""

    def __init__(self, chosen: int, kept: Mapping[str, Outcome]) -> None:
        self._chosen = chosen
        self._kept = len(kept)
        self._counts = Counter(o.status for o in kept.values())
        self._begun = time.monotonic()

    def __call__(self, mutant: Mutant, outcome: Outcome) -> None:
        counts = self._counts
        counts[outcome.status] += 1
        done = counts.total()
        ran = done - self._kept
        left = (time.monotonic() - self._begun) / ran * (self._chosen - done)
        print(
            progress_line(
                done,
                self._chosen,
                outcome,
                counts[Status.KILLED] + counts[Status.CRASHED] + counts[Status.TIMEOUT],
                counts[Status.SURVIVED],
                left,
            ),
            flush=True,
        )


def _run(
    options: MeasureOptions,
    bench: _Bench,
    todo: list[Mutant],
    sources: Mapping[str, str],
    limit: float,
    log: Path,
    progress: _Progress,
) -> tuple[list[Outcome], bool]:
    """Run ``todo`` on every job (each forked from its job's warm parent, unless
    spawning); their outcomes, and whether the run was interrupted."""
    warm = None if options.spawn else WarmPool(bench.env, bench.work)
    reach = bench.reach
    with stop_on_terminate():
        outcomes, interrupted = run_mutants(
            todo,
            sources,
            options.package,
            bench.work,
            jobs=options.jobs,
            timeout=limit,
            log=log,
            report=progress,
            hunt=options.hunt,
            warm=warm,
            reach=load_reach(reach) if reach is not None and options.reach else None,
            order=load_order(reach.with_name(ORDER_FILE)) if reach is not None else None,
            exitfirst=not options.all_failures,
        )
    if warm is not None:
        warm.close()
    return outcomes, interrupted


def _mode(options: MeasureOptions) -> str:
    return "listed" if options.only else "sample" if options.sample else "all"


def _hunt_said(hunt: HuntPlan | None) -> str:
    return "off" if hunt is None else f"seed {hunt.seed}, {hunt.examples} examples"
