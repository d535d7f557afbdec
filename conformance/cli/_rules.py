"""``rttool rules``: lint, list, show, import and compare the rule corpus.

Each action computes the rule layer's own result (a lint report, the corpus, a rule
with its cases, the pages written, the comparison with upstream) and renders it with a
function of ``conformance/cli/_rules_render.py``, in text or (``list``, ``show``) JSON.
Exit codes follow the CLI's: 0 clean (warnings allowed), 1 a finding (a lint error, a
difference from upstream), 2 a usage or corpus error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.cli._output import Output, emit
from conformance.cli._rules_render import (
    clean_lines,
    compared_text,
    lint_output,
    listing_json,
    listing_text,
    rule_json,
    rule_text,
    upstream_warnings,
    written_text,
)

if TYPE_CHECKING:
    from conformance.rules import Corpus, UpstreamCheckout

__all__ = ["configure"]

_EXIT_OK = 0
_EXIT_FINDING = 1
_EXIT_USAGE = 2


def _shown(path: Path) -> Path:
    """``path`` relative to the working folder when it lies inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``rules`` sub-subcommands to ``parser``."""
    sub = parser.add_subparsers(
        dest="rules_command", metavar="SUBCOMMAND", parser_class=type(parser)
    )
    lint = sub.add_parser("lint", help="check rule pages; prints PATH:LINE: CODE: message")
    lint.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="rule page or folder (default: the bundled corpus)",
    )
    lint.set_defaults(handler=_lint)
    listing = sub.add_parser("list", help="the rules of the corpus, with clause and example counts")
    _add_format(listing)
    _add_corpus(listing)
    listing.set_defaults(handler=_list)
    show = sub.add_parser("show", help="one rule with its clauses, citations and examples")
    show.add_argument("rule_id", metavar="ID")
    show.add_argument(
        "--cases",
        action="store_true",
        help="under each clause, every check (each variant), vector and hunt invariant bound "
        "to it, and the situations its text names (or why none), each with the file and "
        "line of its code",
    )
    _add_format(show)
    _add_corpus(show)
    show.set_defaults(handler=_show)
    imports = sub.add_parser("import", help="render an upstream checkout into corpus pages")
    imports.add_argument("upstream", type=Path, metavar="DIR")
    imports.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="PATH",
        help="folder to write the pages to (default: the bundled corpus)",
    )
    imports.set_defaults(handler=_import)
    check = sub.add_parser("check-upstream", help="compare the corpus with an upstream checkout")
    check.add_argument("upstream", type=Path, metavar="DIR")
    _add_corpus(check)
    check.set_defaults(handler=_check_upstream)
    parser.set_defaults(handler=_help(parser))


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _add_corpus(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        metavar="DIR",
        help="corpus folder (default: the bundled corpus)",
    )


def _help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(_args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return _EXIT_USAGE

    return handler


def _corpus(args: argparse.Namespace) -> Corpus:
    from conformance.rules import corpus_path, load_corpus

    return load_corpus([args.corpus or _shown(corpus_path())])


def _missing(paths: Sequence[Path]) -> Output | None:
    missing = [path for path in paths if not path.exists()]
    if not missing:
        return None
    said = f"rttool rules lint: error: no such file or folder: {missing[0]}"
    return Output(err=clean_lines([said]))


def _lint(args: argparse.Namespace) -> int:
    from conformance.engine import suite_policy
    from conformance.rules import corpus_path, lint

    paths: Sequence[Path] = args.paths or [_shown(corpus_path())]
    missing = _missing(paths)
    if missing is not None:
        emit(missing)
        return _EXIT_USAGE
    report = lint(paths, suite_policy())
    if not report.files:
        said = "rttool rules lint: error: no rule pages (*.md) under the paths given"
        emit(Output(err=clean_lines([said])))
        return _EXIT_USAGE
    emit(lint_output(report))
    return _EXIT_FINDING if report.errors else _EXIT_OK


def _list(args: argparse.Namespace) -> int:
    corpus = _corpus(args)
    emit(listing_json(corpus) if args.format == "json" else listing_text(corpus))
    return _EXIT_OK


def _show(args: argparse.Namespace) -> int:
    from conformance.rules import CorpusError

    corpus = _corpus(args)
    rule = corpus.get(args.rule_id)
    if rule is None:
        raise CorpusError("no such rule in the corpus", id=args.rule_id)
    cases = notes = None
    if args.cases:
        from conformance.engine import Suite, clause_cases, clause_situation_notes

        suite = Suite.over(corpus)
        cases, notes = clause_cases(rule, suite), clause_situation_notes(rule, suite)
    shown = rule_json if args.format == "json" else rule_text
    emit(shown(rule, cases, notes))
    return _EXIT_OK


def _import(args: argparse.Namespace) -> int:
    from conformance.rules import corpus_path, import_upstream, load_upstream, parse_pages

    checkout = load_upstream(args.upstream)
    out: Path = args.out or _shown(corpus_path())
    others = (
        [page.rule for page in parse_pages([out]) if page.rule is not None]
        if (out.is_dir())
        else []
    )
    emit(upstream_warnings(checkout.notes))
    emit(written_text(import_upstream(checkout, out, others)))
    return _EXIT_OK


def _check_upstream(args: argparse.Namespace) -> int:
    from conformance.rules import compare_with_upstream, load_upstream

    checkout: UpstreamCheckout = load_upstream(args.upstream)
    results = compare_with_upstream(checkout, _corpus(args))
    emit(compared_text(results))
    return _EXIT_OK if all(result.status == "same" for result in results) else _EXIT_FINDING
