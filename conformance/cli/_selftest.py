"""``rttool selftest``: every mutant of the reference runtime must be caught by the checks
of the clauses it breaks, and every legal variant of it must conform to every clause.

By default each mutant runs against the cases of the rules it breaks only (the mode CI
uses: the full mode costs the whole suite once per mutant); ``--full`` runs every case.
Exit codes: 0 every mutant is killed, each claimed clause by its own cases, every clause
of the corpus is broken by some mutant, and every variant conforms; 1 otherwise; 2 a
usage error; 3 the catalogue could not be read.

The command plans (:class:`SelftestPlan`), runs the plan (:func:`execute`, which reports
each mutant as it finishes) and renders the :class:`SelftestResult`, in text or JSON
(``conformance/cli/_selftest_render.py``); ``--list`` renders the plan's catalogues.  The
plan, the events and the result are values of ``conformance/cli/_selftest_model.py``,
which both this module and the renderers import.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from conformance.cli._selftest_model import (
    SelftestEvent,
    SelftestPlan,
    SelftestResult,
    ShapesStarting,
    VariantsStarting,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from conformance._blame import BlameVerdict
    from conformance._shapes import ShapeResult
    from conformance._variants import VariantResult
    from conformance.rules import Corpus
    from conformance.selftest import MutantResult

__all__ = ["configure", "execute", "selftest"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool selftest``."""
    from conformance._arguments import positive_float

    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default: a line per mutant as it finishes) or json",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="run every case against every mutant, not only the cases of "
        "the rules it breaks (N times the cost of the suite)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        action="extend",
        default=[],
        metavar="NAME",
        help="run only these mutants and variants",
    )
    parser.add_argument(
        "--no-variants",
        action="store_true",
        help="leave out the legal variants and the runtime shapes (which must each be "
        "judged as the rule text says: conforming, or failing exactly their own clauses)",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the mutants and the clauses they break, and the legal variants, and stop",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="per-request timeout for the harness (default 30)",
    )
    parser.set_defaults(handler=selftest)


def execute(
    plan: SelftestPlan,
    *,
    timeout: float,
    progress: Callable[[SelftestEvent], None],
) -> SelftestResult:
    """Run every mutant and variant of ``plan``; ``progress`` hears of each mutant as it
    finishes, of the variants before they start, and of each variant as it finishes."""
    from conformance import _shapes, _variants
    from conformance import selftest as engine
    from conformance.rules import load_corpus

    corpus = load_corpus()
    cases = engine.suite_cases(corpus)
    uncovered = engine.uncovered_clauses(corpus, plan.catalogue)
    started = time.perf_counter()
    results: list[MutantResult] = []
    for result in engine.run_mutants(
        list(plan.mutants), corpus, cases, full=plan.full, timeout=timeout
    ):
        results.append(result)
        progress(result)
    partial = bool(plan.only)
    if plan.chosen_variants:
        progress(VariantsStarting(len(plan.chosen_variants)))
    judged = _variants.run_variants(
        list(plan.chosen_variants), timeout=timeout, suite=(corpus, cases), each=progress
    )
    if plan.chosen_shapes:
        progress(ShapesStarting(len(plan.chosen_shapes)))
    shapes = _shapes.run_shapes(list(plan.chosen_shapes), timeout=timeout, each=progress)
    return SelftestResult(
        plan=plan,
        mutants=tuple(results),
        variants=tuple(judged),
        uncovered=tuple(uncovered),
        unproven=() if partial else tuple(engine.unproven_cases(cases, results)),
        quiet_invariants=() if partial else tuple(engine.unproven_invariants(results)),
        seconds=time.perf_counter() - started,
        shapes=tuple(shapes),
        blame=_blame_verdict(results, shapes, corpus) if plan.gated else None,
    )


def _blame_verdict(
    mutants: Sequence[MutantResult], shapes: Sequence[ShapeResult], corpus: Corpus
) -> BlameVerdict:
    """The blame gate over every clause failed beyond a mutant's or a gap shape's own (a
    legal shape failing anything is unsound on its own)."""
    from conformance._blame import BeyondOwn, judge_blame, load_consequences

    beyond = [BeyondOwn(m.name, clause, said) for m in mutants for clause, said in m.beyond]
    beyond += [
        BeyondOwn(shape.name, clause, said)
        for shape in shapes
        if shape.kind == "gap"
        for clause, said in shape.failed
        if clause in shape.beyond
    ]
    return judge_blame(beyond, load_consequences(), corpus)


def _sound(event: MutantResult | VariantResult | ShapeResult) -> bool:
    """Whether what was judged is as it must be."""
    from conformance._shapes import ShapeResult
    from conformance._variants import VariantResult

    if isinstance(event, VariantResult):
        return event.conforms
    if isinstance(event, ShapeResult):
        return event.sound
    return event.clean


def _plan(args: argparse.Namespace) -> SelftestPlan:
    from conformance import _shapes, _variants
    from conformance import selftest as engine

    variants = () if args.no_variants else _variants.read_variants()
    shapes = () if args.no_variants else _shapes.read_shapes()
    return SelftestPlan(
        engine.read_catalogue(), tuple(variants), tuple(args.only), args.full, tuple(shapes)
    )


def selftest(args: argparse.Namespace) -> int:
    """Plan the self-test, run it and render it; returns the exit code."""
    from conformance._progress import Progress
    from conformance.cli import EXIT_OK, EXIT_USAGE
    from conformance.cli._output import Output, emit
    from conformance.cli._selftest_render import RENDERERS, unknown_names
    from conformance.stopping import StopSignals

    plan = _plan(args)
    if plan.unknown:
        emit(unknown_names(plan.unknown))
        return EXIT_USAGE
    render = RENDERERS[args.format]
    if args.list:
        emit(render.listing(plan))
        return EXIT_OK
    emit(render.start(plan))
    total = len(plan.mutants) + len(plan.chosen_variants) + len(plan.chosen_shapes)
    # SIGTERM stops the self-test as Ctrl-C does: its workers are ended on the way out.
    with StopSignals() as stop:
        try:
            with Progress("rttool selftest", total, "mutants and variants") as shown:

                def heard(event: SelftestEvent) -> None:
                    emit(render.event(event, plan))
                    if isinstance(event, VariantsStarting | ShapesStarting):
                        return
                    shown.advance(failed=not _sound(event), note=event.name)

                result = execute(plan, timeout=args.timeout, progress=heard)
        except KeyboardInterrupt:
            emit(Output(err="rttool: interrupted\n"))
            return stop.exit_code
    emit(render.result(result))
    return result.exit_code
