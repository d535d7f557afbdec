"""Choosing mutants: the seeded order, nested samples, listed ids, equivalents left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from mutation._catalogue import Mutant
from mutation._errors import SelectionError
from mutation._select import read_id_list, select


def _mutant(n: int) -> Mutant:
    return Mutant(f"m.py:f:AddNot:{n:08x}", "m.py", "f", "core/AddNot", n, n + 1, "if x:")


MUTANTS = [_mutant(n) for n in range(40)]


def _ids(chosen: list[Mutant]) -> list[str]:
    return [mutant.id for mutant in chosen]


def test_the_order_is_seeded_and_independent_of_enumeration_order() -> None:
    one = select(MUTANTS, set(), seed=5).chosen
    assert _ids(one) == _ids(select(list(reversed(MUTANTS)), set(), seed=5).chosen)
    assert sorted(_ids(one)) == sorted(_ids(MUTANTS))
    assert _ids(one) != _ids(select(MUTANTS, set(), seed=6).chosen)


def test_samples_of_one_seed_are_nested_prefixes_of_the_full_order() -> None:
    full = _ids(select(MUTANTS, set(), seed=1).chosen)
    small = _ids(select(MUTANTS, set(), sample=5, seed=1).chosen)
    large = _ids(select(MUTANTS, set(), sample=20, seed=1).chosen)
    assert small == large[:5] == full[:5]
    assert large == full[:20]


def test_equivalents_are_never_chosen() -> None:
    equivalent = {MUTANTS[0].id, MUTANTS[1].id}
    selection = select(MUTANTS, equivalent)
    assert not equivalent & set(_ids(selection.chosen))
    assert (selection.equivalent, selection.population) == (2, 40)


def test_listed_mutants_are_chosen_once_each() -> None:
    listed = [(1, MUTANTS[3].id), (2, MUTANTS[7].id), (3, MUTANTS[3].id)]
    selection = select(MUTANTS, {MUTANTS[7].id}, listed=listed, listed_from="s.txt")
    assert _ids(selection.chosen) == [MUTANTS[3].id]
    assert (selection.equivalent, selection.population) == (1, 2)


def test_an_unknown_listed_id_names_its_line() -> None:
    gone = "m.py:g:AddNot:0000abcd"
    with pytest.raises(SelectionError) as caught:
        select(MUTANTS, set(), listed=[(4, gone)], listed_from="s.txt")
    assert caught.value.problems == [f"s.txt:4: no mutant has the id {gone} (the code changed?)"]


def test_a_list_file_takes_the_first_word_of_each_line(tmp_path: Path) -> None:
    path = tmp_path / "survivors.txt"
    path.write_text(f"# survivors\n\n{MUTANTS[2].id}\n{MUTANTS[4].id}  a note\n", encoding="utf-8")
    assert read_id_list(path) == [(3, MUTANTS[2].id), (4, MUTANTS[4].id)]


def test_a_list_file_with_a_bad_line_names_it(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text(f"{MUTANTS[2].id}\nsomething else\n", encoding="utf-8")
    with pytest.raises(SelectionError) as caught:
        read_id_list(path)
    assert caught.value.problems == [f"{path}:2: not a mutant id: 'something'"]


def test_an_unreadable_list_file_is_one_clear_problem(tmp_path: Path) -> None:
    with pytest.raises(SelectionError, match="cannot be read"):
        read_id_list(tmp_path / "absent.txt")
