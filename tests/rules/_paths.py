"""Where the rule tests find their fixtures; nothing outside the repository is read."""

from __future__ import annotations

import shutil
from pathlib import Path

from conformance.rules import corpus_path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
UPSTREAM = FIXTURES / "upstream" / "flowdrop-spec"
SEED_PAGES = FIXTURES / "seed-pages"
LINT_FIXTURES = FIXTURES / "lint"

RT_TOOL_CLAUSES = (3, 5, 4, 3, 5, 6, 5, 5, 5, 5)
DR_CLAUSES = (5, 5, 6, 2, 5, 5)


def copy_corpus(target: Path) -> Path:
    """A private copy of the bundled corpus under ``target``; returns its folder."""
    folder = target / "corpus"
    shutil.copytree(corpus_path(), folder)
    return folder


def copy_upstream(target: Path) -> Path:
    """A private copy of the upstream snapshot under ``target``; returns its root."""
    root = target / "upstream"
    shutil.copytree(UPSTREAM, root)
    return root
