"""Import from and comparison with the upstream snapshot, and the published pages."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conformance.rules import (
    compare_with_upstream,
    corpus_path,
    import_upstream,
    lint,
    load_corpus,
    load_upstream,
    render_page,
)
from tests.rules._paths import SEED_PAGES, UPSTREAM, copy_corpus, copy_upstream

_ADDED_FIELDS = re.compile(r"^(part|rule_hash): .*\n", re.MULTILINE)


def _without_added_fields(page: str) -> str:
    """The page with only the front-matter fields rttool adds (part, rule_hash) removed."""
    front, separator, body = page.partition("\n---\n")
    return _ADDED_FIELDS.sub("", front + "\n").rstrip("\n") + separator + body


@pytest.mark.parametrize("rule_id", ["RT-TOOL-4", "RT-TOOL-7"])
def test_rendering_from_upstream_gives_the_published_page_byte_for_byte(rule_id: str) -> None:
    rule = next(rule for rule in load_upstream(UPSTREAM).rules if rule.id == rule_id)
    rendered = render_page(rule)
    assert "\npart: II\n" in rendered
    assert f"\nrule_hash: {rule.computed_hash}\n" in rendered
    published = (SEED_PAGES / f"{rule_id}.md").read_bytes()
    assert _without_added_fields(rendered).encode("utf-8") == published


def test_import_writes_exactly_the_bundled_pages(tmp_path: Path) -> None:
    out = tmp_path / "out"
    written = import_upstream(load_upstream(UPSTREAM), out)
    assert [path.name for path in written] == [f"RT-TOOL-{n}.md" for n in range(1, 11)]
    for path in written:
        assert path.read_bytes() == (corpus_path() / path.name).read_bytes()


def test_the_upstream_snapshot_has_no_notes() -> None:
    checkout = load_upstream(UPSTREAM)
    assert checkout.notes == ()
    assert len(checkout.rules) == 10


def test_a_stale_narrative_is_noted(tmp_path: Path) -> None:
    root = copy_upstream(tmp_path)
    rule_file = root / "rules" / "RT-TOOL-3.yml"
    rule_file.write_text(rule_file.read_text("utf-8").replace("not exposed", "never exposed"))
    notes = load_upstream(root).notes
    assert [(note.path.name, note.line, note.code) for note in notes] == [
        ("RT-TOOL-3.mdx", 3, "rule-hash")
    ]


def test_check_upstream_reports_all_same() -> None:
    results = compare_with_upstream(load_upstream(UPSTREAM), load_corpus())
    assert [str(result) for result in results] == [f"RT-TOOL-{n} same" for n in range(1, 11)]


def test_check_upstream_reports_different_missing_and_extra(tmp_path: Path) -> None:
    root = copy_upstream(tmp_path)
    rule_file = root / "rules" / "RT-TOOL-3.yml"
    rule_file.write_text(rule_file.read_text("utf-8").replace("not exposed", "never exposed"))
    eight = root / "rules" / "RT-TOOL-8.yml"
    eight.write_text(eight.read_text("utf-8").replace("level: extended", "level: core"))
    (root / "rules" / "RT-TOOL-10.yml").unlink()
    (root / "narrative" / "RT-TOOL-10.mdx").unlink()
    corpus_dir = copy_corpus(tmp_path)
    (corpus_dir / "RT-TOOL-9.md").unlink()
    results = {
        result.rule_id: str(result)
        for result in compare_with_upstream(load_upstream(root), load_corpus([corpus_dir]))
    }
    assert results["RT-TOOL-3"] == "RT-TOOL-3 different-text (normative)"
    assert results["RT-TOOL-8"] == "RT-TOOL-8 different-text (level)"
    assert results["RT-TOOL-9"] == "RT-TOOL-9 missing"
    assert results["RT-TOOL-10"] == "RT-TOOL-10 extra"
    assert results["RT-TOOL-1"] == "RT-TOOL-1 same"
    assert not any(rule_id.startswith("DR-") for rule_id in results)


def test_seed_pages_in_place_of_the_corpus_pages(tmp_path: Path) -> None:
    folder = copy_corpus(tmp_path)
    for name in ("RT-TOOL-4.md", "RT-TOOL-7.md"):
        shutil.copyfile(SEED_PAGES / name, folder / name)
    report = lint([folder])
    assert report.findings == ()
    mine, theirs = load_corpus(), load_corpus([folder])
    for rule_id in ("RT-TOOL-4", "RT-TOOL-7"):
        assert theirs[rule_id].rule_hash is None
        assert [(c.id, c.text) for c in theirs[rule_id].clauses] == [
            (c.id, c.text) for c in mine[rule_id].clauses
        ]
        assert [(e.title, e.verdict, e.raw, e.value) for e in theirs[rule_id].examples] == [
            (e.title, e.verdict, e.raw, e.value) for e in mine[rule_id].examples
        ]
    results = compare_with_upstream(load_upstream(UPSTREAM), theirs)
    assert {result.status for result in results} == {"same"}


def test_an_upstream_rule_file_that_is_not_a_regular_file_is_refused_unopened(
    tmp_path: Path,
) -> None:
    """A FIFO where a rule file goes would block a read forever: it is refused, as
    ``rules lint`` refuses one, before it is opened."""
    import os

    from conformance.rules import CorpusError

    root = copy_upstream(tmp_path)
    rule_file = root / "rules" / "RT-TOOL-1.yml"
    rule_file.unlink()
    os.mkfifo(rule_file)
    with pytest.raises(CorpusError, match="not a regular file"):
        load_upstream(root)
