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


def test_a_record_whose_failure_is_gone_or_whose_words_are_not_the_rules_fails() -> None:
    invented = Consequence("other", "RT-TOOL-5#c1", "words no rule says")
    verdict = judge_blame([], [invented], CORPUS)
    assert verdict.stale == (invented,) and verdict.unquoted == (invented,)
    assert not verdict.clean


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
