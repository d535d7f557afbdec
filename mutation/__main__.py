"""``python -m mutation``: score the suite against machine-made mutants of the reference
runtime. Exit codes: 0 the run finished (whatever the score), 1 ``--check`` found stale
equivalents, 2 a usage or input error, 3 the suite cannot be scored at all (baseline)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from mutation._catalogue import Mutant, enumerate_mutants, load_modules
from mutation._equivalents import CONFORMING, UNOBSERVABLE, Equivalent, load_equivalents, stale
from mutation._errors import BaselineError, EquivalentsError, SelectionError
from mutation._execute import HuntPlan
from mutation._measure import MeasureOptions, OutputError, measure
from mutation._report import RunRecord, diff_of, summary_lines, write_outputs
from mutation._run import (
    MIN_TIMEOUT_S,
    OUTCOMES_FILE,
    default_jobs,
    load_outcomes,
)
from mutation._score import score, timing
from mutation._select import read_id_list, select

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reference_impl"
EQUIVALENTS = Path(__file__).resolve().parent / "equivalents.txt"
EXIT_OK, EXIT_STALE, EXIT_USAGE, EXIT_BASELINE = 0, 1, 2, 3
#: Examples the hunt generates in each mutant's suite run: a few seconds of searching.
HUNT_EXAMPLES = 60


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mutation",
        description="score the suite against machine-made mutants of the reference runtime",
    )
    parser.add_argument(
        "--sample", type=_positive_int, metavar="N", help="run N mutants drawn at random"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the random run order, whose first N mutants are the sample (default 0)",
    )
    parser.add_argument(
        "--only",
        type=Path,
        metavar="FILE",
        help="run only the mutants listed in FILE (ids, one a line)",
    )
    parser.add_argument(
        "--jobs",
        type=_positive_int,
        default=default_jobs(),
        metavar="N",
        help="parallel suite runs (default: one per core)",
    )
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=None,
        metavar="S",
        help=f"per-mutant time limit (default ten baseline runs, at least {MIN_TIMEOUT_S:.0f} s)",
    )
    parser.add_argument(
        "--hunt-examples",
        type=_positive_int,
        default=HUNT_EXAMPLES,
        metavar="N",
        help="examples the hunt generates in each suite run, in its reproducible mode "
        f"(seeded with --seed, counted; default {HUNT_EXAMPLES})",
    )
    parser.add_argument(
        "--no-hunt",
        action="store_true",
        help="run the hand-written checks and the vectors only, without the hunt",
    )
    parser.add_argument(
        "--spawn",
        action="store_true",
        help="start each mutant's suite run as a fresh process instead of forking it from "
        "a warm parent that has loaded the suite (slower; the outcomes are the same)",
    )
    parser.add_argument(
        "--reach",
        action="store_true",
        help="judge a mutant by the cases of the rules whose cases ran its line in the "
        "unmutated run (not sound where the runtime keeps state from one case to the next)",
    )
    parser.add_argument(
        "--all-failures",
        action="store_true",
        help="run every case of each mutant, so that its detail lists every failing clause "
        "(by default a run stops at its first failing case, trying first the cases that ran "
        "the mutated line; the statuses are the same either way)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "build" / "mutation",
        metavar="DIR",
        help="output directory (default build/mutation)",
    )
    parser.add_argument(
        "--equivalents",
        type=Path,
        default=EQUIVALENTS,
        metavar="FILE",
        help="the equivalents file (default mutation/equivalents.txt)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the outcomes of an interrupted run of the same selection",
    )
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="run nothing: score the outcomes kept in the output directory again "
        "(after a change to the triage file)",
    )
    parser.add_argument(
        "--list", action="store_true", help="print every mutant (id, line, code) and exit"
    )
    parser.add_argument(
        "--show",
        action="append",
        default=[],
        metavar="ID",
        help="print the diff of the mutant ID and exit; repeatable",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the equivalents file against the source and exit",
    )
    return parser


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be more than 0: {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m mutation``; returns the exit code."""
    args = _parser().parse_args(argv)
    if importlib.util.find_spec("cosmic_ray") is None:
        sys.stderr.write(
            "mutation: error: cosmic-ray is not installed: install the dev extras "
            "(pip install -e '.[dev]', which make does)\n"
        )
        return EXIT_USAGE
    modules = load_modules(PACKAGE)
    sources = {module.name: module.text for module in modules}
    mutants = enumerate_mutants(modules)
    by_id = {mutant.id: mutant for mutant in mutants}
    try:
        equivalents = load_equivalents(args.equivalents)
        listed = read_id_list(args.only) if args.only else None
        selection = select(
            mutants,
            {entry.mutant_id for entry in equivalents if entry.kind == UNOBSERVABLE},
            listed=listed,
            listed_from=str(args.only),
            sample=args.sample,
            seed=args.seed,
        )
    except (EquivalentsError, SelectionError) as err:
        for problem in err.problems:
            sys.stderr.write(f"mutation: error: {problem}\n")
        return EXIT_USAGE
    gone = stale(equivalents, by_id)
    if args.list:
        for mutant in mutants:
            sys.stdout.write(f"{mutant.id}\t{mutant.line}\t{mutant.code}\n")
        return EXIT_OK
    if args.show:
        return _show(args.show, by_id, sources)
    if args.check:
        for entry in gone:
            sys.stdout.write(
                f"{args.equivalents}:{entry.line}: stale: {entry.mutant_id} matches no mutant\n"
            )
        sys.stdout.write(
            f"mutation: {len(equivalents)} triaged, {len(gone)} stale, {len(mutants)} mutants\n"
        )
        return EXIT_STALE if gone else EXIT_OK
    if args.rescore:
        return _rescore(args, mutants, sources, equivalents, gone)
    return _measure(args, selection.chosen, by_id, sources, equivalents, gone)


def _show(wanted: Sequence[str], by_id: dict[str, Mutant], sources: dict[str, str]) -> int:
    unknown = [ident for ident in wanted if ident not in by_id]
    for ident in unknown:
        sys.stderr.write(f"mutation: error: no mutant has the id {ident[:200]!r}\n")
    if unknown:
        return EXIT_USAGE
    for ident in wanted:
        mutant = by_id[ident]
        sys.stdout.write(f"# {ident}\n{diff_of(mutant, sources[mutant.module], PACKAGE.name)}\n")
    return EXIT_OK


def _rescore(
    args: argparse.Namespace,
    mutants: list[Mutant],
    sources: dict[str, str],
    triage: list[Equivalent],
    gone: list[Equivalent],
) -> int:
    out: Path = args.out.resolve()
    unobservable = {e.mutant_id for e in triage if e.kind == UNOBSERVABLE}
    wanted = {m.id: m for m in mutants if m.id not in unobservable}
    kept = list(load_outcomes(out / OUTCOMES_FILE, wanted).values())
    if not kept:
        sys.stderr.write(f"mutation: error: no outcome to rescore in {out / OUTCOMES_FILE}\n")
        return EXIT_USAGE
    conforming = frozenset(e.mutant_id for e in triage if e.kind == CONFORMING)
    record = RunRecord(
        tool=f"cosmic-ray {metadata.version('cosmic-ray')}",
        package=PACKAGE.name,
        enumerated=len(mutants),
        equivalents=len(unobservable & {m.id for m in mutants}),
        mode="rescored",
        sample=None,
        seed=args.seed,
        listed_from=None,
        outcomes=kept,
        score=score(kept, conforming),
        timing=timing(kept, 0.0, 0.0, args.jobs),
        stale=gone,
        interrupted=False,
        conforming=conforming,
        population=len(wanted),
    )
    try:
        write_outputs(out, record, {m.id: m for m in mutants}, sources)
    except OSError as err:
        sys.stderr.write(f"mutation: error: {out}: cannot write the results: {_why(err)}\n")
        return EXIT_USAGE
    for line in summary_lines(record, out):
        print(line)
    return EXIT_OK


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def _measure(
    args: argparse.Namespace,
    chosen: list[Mutant],
    by_id: dict[str, Mutant],
    sources: dict[str, str],
    triage: list[Equivalent],
    gone: list[Equivalent],
) -> int:
    options = MeasureOptions(
        out=args.out.resolve(),
        package=PACKAGE,
        jobs=args.jobs,
        timeout=args.timeout,
        hunt=None if args.no_hunt else HuntPlan(args.seed, args.hunt_examples),
        spawn=args.spawn,
        reach=args.reach,
        all_failures=args.all_failures,
        resume=args.resume,
        seed=args.seed,
        sample=args.sample,
        only=args.only,
    )
    try:
        record = measure(options, chosen, by_id, sources, triage, gone)
    except OutputError as err:
        sys.stderr.write(f"mutation: error: {err}\n")
        return EXIT_USAGE
    except BaselineError as err:
        sys.stderr.write(f"mutation: error: {err}\n")
        return EXIT_BASELINE
    for line in summary_lines(record, options.out):
        print(line)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
