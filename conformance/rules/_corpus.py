"""Where the bundled corpus lives, which files a path names, and loading them as a corpus."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from conformance.rules._model import Corpus, CorpusError, Finding
from conformance.rules._parser import ParsedPage, parse_page

__all__ = ["corpus_path", "load_corpus", "page_files", "parse_pages"]


def corpus_path() -> Path:
    """The folder of the bundled rule corpus; the only place that location is decided.

    In a source checkout (and an editable install) ``conformance/rules/_corpus`` is a
    link to the repository's ``rules/`` folder; a built wheel carries the pages
    themselves in that package folder.  Either way the answer is the real folder.
    """
    return (Path(__file__).parent / "_corpus").resolve()


def page_files(paths: Sequence[Path]) -> list[Path]:
    """The rule pages ``paths`` name: a file stands for itself, a folder for its ``*.md``.

    Folders are searched recursively and in sorted order.  A path that does not
    exist raises :class:`CorpusError`.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(found for found in path.rglob("*.md") if found.is_file()))
        elif path.exists():
            files.append(path)
        else:
            raise CorpusError("no such file or folder", path=str(path))
    unique: dict[Path, None] = {}
    for file in files:
        unique.setdefault(file, None)
    return list(unique)


def parse_pages(paths: Sequence[Path] | None = None) -> list[ParsedPage]:
    """Every page under ``paths`` (default: the bundled corpus), parsed, problems included."""
    return [parse_page(file) for file in page_files(paths or [corpus_path()])]


def load_corpus(paths: Sequence[Path] | None = None) -> Corpus:
    """The corpus under ``paths`` (default: the bundled one).

    Raises :class:`CorpusError` naming the first ``file:line`` if a page does not
    parse or two pages share an id; the full list is what ``rttool rules lint`` is for.
    """
    pages = parse_pages(paths)
    errors: list[Finding] = [
        finding for page in pages for finding in page.findings if finding.is_error
    ]
    if errors:
        raise CorpusError(
            "rule corpus has errors, see 'rttool rules lint'",
            first=str(errors[0]),
            errors=len(errors),
        )
    seen: dict[str, Path] = {}
    for page in pages:
        if page.rule is None:
            continue
        if page.rule.id in seen:
            raise CorpusError(
                "two rule pages share an id",
                id=page.rule.id,
                first=str(seen[page.rule.id]),
                second=str(page.path),
            )
        seen[page.rule.id] = page.path
    return Corpus(tuple(page.rule for page in pages if page.rule is not None))
