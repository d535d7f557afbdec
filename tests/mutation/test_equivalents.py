"""The equivalents file: its format, every problem named by file and line, stale entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from mutation._equivalents import (
    MAX_REASON_CHARS,
    Equivalent,
    load_equivalents,
    parse_equivalents,
    stale,
)
from mutation._errors import EquivalentsError

GOOD = "wire.py:Wire.poll:NumberReplacer:0a1b2c3d"
OTHER = "records.py:<module>:AddNot:ffffffff~2"


def test_entries_comments_and_blank_lines() -> None:
    text = (
        f"# header\n\n{GOOD}  unobservable  a log text only\n"
        f"{OTHER}\tconforming\ta bound above its floor  \n"
    )
    assert parse_equivalents(text, "eq.txt") == [
        Equivalent(GOOD, "unobservable", "a log text only", 3),
        Equivalent(OTHER, "conforming", "a bound above its floor", 4),
    ]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("wire.py:Wire.poll  unobservable  reason", "not a mutant id: 'wire.py:Wire.poll'"),
        ("wire.py:Wire.poll:NumberReplacer:0A1B2C3D  unobservable  reason", "not a mutant id"),
        (GOOD, f"{GOOD}: no kind after the id (unobservable, conforming)"),
        (f"{GOOD}  a log text only", "the kind is 'a', not one of unobservable, conforming"),
        (f"{GOOD}  unobservable", f"{GOOD}: no reason after the kind"),
        (f"{GOOD}  unobservable  bell \x07 here", "control character"),
        (f"{GOOD}  conforming  {'x' * (MAX_REASON_CHARS + 1)}", f"more than {MAX_REASON_CHARS}"),
    ],
    ids=[
        "short-id",
        "upper-case-digest",
        "no-kind",
        "unknown-kind",
        "no-reason",
        "control-character",
        "long-reason",
    ],
)
def test_a_bad_entry_is_named_by_file_and_line(line: str, problem: str) -> None:
    with pytest.raises(EquivalentsError) as caught:
        parse_equivalents(f"# header\n{line}\n", "eq.txt")
    assert caught.value.problems == [caught.value.problems[0]]
    assert caught.value.problems[0].startswith("eq.txt:2: ")
    assert problem in caught.value.problems[0]


def test_every_problem_is_reported_not_only_the_first() -> None:
    text = f"{GOOD} unobservable one\nnot-an-id two\n{GOOD} unobservable three\n{OTHER}\n"
    with pytest.raises(EquivalentsError) as caught:
        parse_equivalents(text, "eq.txt")
    assert [p.split(": ")[0] for p in caught.value.problems] == [
        "eq.txt:2",
        "eq.txt:3",
        "eq.txt:4",
    ]
    assert "already listed on line 1" in caught.value.problems[1]


def test_stale_entries_are_those_matching_no_mutant() -> None:
    entries = parse_equivalents(f"{GOOD} unobservable a\n{OTHER} conforming b\n", "eq.txt")
    assert stale(entries, {GOOD}) == [Equivalent(OTHER, "conforming", "b", 2)]
    assert stale(entries, {GOOD, OTHER}) == []


def test_a_missing_file_means_no_equivalents(tmp_path: Path) -> None:
    assert load_equivalents(tmp_path / "absent.txt") == []


def test_a_file_that_is_not_utf8_is_one_clear_problem(tmp_path: Path) -> None:
    path = tmp_path / "eq.txt"
    path.write_bytes(b"\xff\xfe" + GOOD.encode() + b"  unobservable  reason\n")
    with pytest.raises(EquivalentsError, match="not UTF-8"):
        load_equivalents(path)


def test_the_committed_file_is_well_formed() -> None:
    path = Path(__file__).resolve().parents[2] / "mutation" / "equivalents.txt"
    entries = load_equivalents(path)
    assert path.is_file() and entries


@pytest.mark.slow  # enumerates every mutant of the runtime: seconds, not milliseconds
def test_the_committed_triage_matches_the_runtime_as_it_is() -> None:
    """``python -m mutation --check`` is clean: an edit of a triaged line changes its
    mutants' ids, and the entry must be triaged again (or removed) in the same change."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "mutation", "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 stale" in done.stdout
