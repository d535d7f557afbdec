"""The blame gate: a clause failed beyond a mutant's or a gap shape's own is recorded as a
consequence the rule text states, in the rule's own words, or the self-test fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.errors import SuiteError
from conformance._blame import BeyondOwn, Consequence, judge_blame, load_consequences
from conformance.rules import load_corpus

CORPUS = load_corpus()
#: words RT-TOOL-4 ¶2's text holds (whitespace may differ)
QUOTED = CORPUS.clause("RT-TOOL-4#c2").text.split(".")[0]


def test_a_failure_beyond_its_own_needs_a_record_in_the_rules_words() -> None:
    beyond = [BeyondOwn("some-mutant", "RT-TOOL-4#c2", "its message")]
    bare = judge_blame(beyond, (), CORPUS)
    assert not bare.clean and [one.clause for one in bare.unrecorded] == ["RT-TOOL-4#c2"]
    assert bare.lines()[0].startswith("blame: some-mutant fails RT-TOOL-4#c2 beyond its own")
    spaced = "  ".join(QUOTED.split(" "))  # whitespace as a YAML file may fold it
    recorded = judge_blame(beyond, [Consequence("some-mutant", "RT-TOOL-4#c2", spaced)], CORPUS)
    assert recorded.clean and recorded.recorded == 1


def test_a_record_whose_words_are_not_the_rules_fails() -> None:
    invented = Consequence("other", "RT-TOOL-5#c1", "words no rule says")
    verdict = judge_blame([BeyondOwn("other", "RT-TOOL-5#c1")], [invented], CORPUS)
    assert verdict.unquoted == (invented,) and not verdict.clean


def test_a_record_whose_failure_did_not_happen_is_said_but_fails_nothing() -> None:
    """A record only excuses; a failure that hangs on how random identifiers sort may
    come in one run and not in the next, and the gate must not flicker with it."""
    record = Consequence("some-mutant", "RT-TOOL-4#c2", QUOTED)
    verdict = judge_blame([], [record], CORPUS)
    assert verdict.stale == (record,) and verdict.clean
    assert verdict.lines() == [
        "blame: note: some-mutant did not fail RT-TOOL-4#c2 in this run: its record may go "
        "(conformance/consequences.yaml)"
    ]


def test_every_record_names_a_mutant_or_shape_and_a_clause() -> None:
    from conformance._shapes import read_shapes
    from conformance.selftest import read_catalogue

    subjects = {m.name for m in read_catalogue()} | {s.name for s in read_shapes()}
    clauses = {clause.id for clause in CORPUS.clauses}
    for one in load_consequences():
        assert one.subject in subjects, one.subject
        assert one.clause in clauses, (one.subject, one.clause)


def test_the_file_is_read_safely_and_a_bad_entry_named(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(f'some-mutant:\n  "RT-TOOL-4#c2": "{QUOTED}"\n', encoding="utf-8")
    assert load_consequences(good) == (Consequence("some-mutant", "RT-TOOL-4#c2", QUOTED),)
    bad = tmp_path / "bad.yaml"
    bad.write_text('some-mutant:\n  "RT-TOOL-4#c2": ""\n', encoding="utf-8")
    with pytest.raises(SuiteError, match="the words quoted"):
        load_consequences(bad)
    unsafe = tmp_path / "unsafe.yaml"
    unsafe.write_text("!!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(Exception, match="could not determine a constructor"):
        load_consequences(unsafe)
    assert load_consequences(tmp_path / "absent.yaml") == ()


def test_the_committed_records_quote_the_rules() -> None:
    recorded = load_consequences()
    verdict = judge_blame(
        [BeyondOwn(one.subject, one.clause) for one in recorded], recorded, CORPUS
    )
    assert verdict.unquoted == ()
