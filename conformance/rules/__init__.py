"""The rule corpus as data: pages in ``rules/*.md`` read into immutable objects.

Everything the suite knows about a rule comes from here: its numbered clauses
(``RT-TOOL-7#c3``, cited "RT-TOOL-7 ¶3"), its worked examples with their verdict
words, its related rules, and the file and line each came from.

Typical use::

    from conformance.rules import load_corpus

    corpus = load_corpus()
    clause = corpus.clause("RT-TOOL-7#c3")
    print(clause.citation, clause.path, clause.line)
"""

from __future__ import annotations

from conformance.rules._corpus import corpus_path, load_corpus, page_files, parse_pages
from conformance.rules._lint import LintPolicy, LintReport, lint, lint_pages
from conformance.rules._model import (
    Clause,
    Corpus,
    CorpusError,
    Example,
    Finding,
    Rule,
    Severity,
    normative_hash,
    rule_sort_key,
)
from conformance.rules._parser import ParsedPage, parse_page
from conformance.rules._render import render_page
from conformance.rules._splitter import collapse_whitespace, split_clauses
from conformance.rules._upstream import (
    Comparison,
    UpstreamCheckout,
    compare_with_upstream,
    import_upstream,
    load_upstream,
)
from conformance.rules._vocabulary import (
    DR_VERDICTS,
    FAMILY_ORDER,
    KNOWN_VERDICTS,
    RT_TOOL_VERDICTS,
    UPSTREAM_FAMILIES,
    VERDICTS_BY_FAMILY,
)

__all__ = [
    "DR_VERDICTS",
    "FAMILY_ORDER",
    "KNOWN_VERDICTS",
    "RT_TOOL_VERDICTS",
    "UPSTREAM_FAMILIES",
    "VERDICTS_BY_FAMILY",
    "Clause",
    "Comparison",
    "Corpus",
    "CorpusError",
    "Example",
    "Finding",
    "LintPolicy",
    "LintReport",
    "ParsedPage",
    "Rule",
    "Severity",
    "UpstreamCheckout",
    "collapse_whitespace",
    "compare_with_upstream",
    "corpus_path",
    "import_upstream",
    "lint",
    "lint_pages",
    "load_corpus",
    "load_upstream",
    "normative_hash",
    "page_files",
    "parse_page",
    "parse_pages",
    "render_page",
    "rule_sort_key",
    "split_clauses",
]
