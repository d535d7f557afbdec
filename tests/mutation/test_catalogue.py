"""Enumerating mutants, naming them stably, and applying one to source text."""

from __future__ import annotations

import difflib

import pytest

from mutation._catalogue import (
    ID_PATTERN,
    ModuleSource,
    Mutant,
    apply_mutant,
    enumerate_mutants,
    load_modules,
)
from tests.mutation._fixtures import EAGER, HANDLER, LAZY


def _mutants(text: str, name: str = "box.py") -> list[Mutant]:
    return enumerate_mutants([ModuleSource(name, text)])


def test_every_mutant_has_a_unique_well_formed_id() -> None:
    mutants = _mutants(LAZY)
    assert len(mutants) > 10
    ids = [mutant.id for mutant in mutants]
    assert len(set(ids)) == len(ids)
    assert all(ID_PATTERN.fullmatch(ident) for ident in ids), ids


def test_id_names_module_scope_operator_and_line() -> None:
    mutant = next(
        m for m in _mutants(LAZY) if m.operator_short == "ReplaceComparisonOperator_Gt_Lt"
    )
    module, scope, operator, digest = mutant.id.split(":")
    assert (module, scope, operator) == ("box.py", "bound", "ReplaceComparisonOperator_Gt_Lt")
    assert len(digest) == 8
    assert mutant.code == "if item > 0 and count < limit:"
    assert LAZY.splitlines()[mutant.line - 1].strip() == mutant.code


def test_identical_lines_in_one_scope_get_ordinals() -> None:
    grow = [
        m.id for m in _mutants(LAZY) if m.scope == "Box.grow" and m.code == "total = total + by"
    ]
    # Two identical lines, the same operators on each: the second of each pair is "~2".
    assert grow and len(grow) % 2 == 0
    assert sum(ident.endswith("~2") for ident in grow) == len(grow) // 2


def test_ids_survive_unrelated_edits() -> None:
    before = {m.id: m for m in _mutants(LAZY)}
    edited = LAZY.replace(
        "class Box:",
        "def added(x: int) -> bool:\n    return x * 2 > 10 or x == 3\n\n\nclass Box:",
    ).replace('    """Count at most ``limit`` items."""\n', "")
    after = {m.id: m for m in _mutants(edited)}
    untouched = {ident for ident, m in before.items() if m.scope in ("bound", "Box.grow")}
    assert untouched <= set(after)
    # The occurrences, cosmic-ray's own numbering, did shift: only the ids are stable.
    moved = [i for i in untouched if after[i].occurrence != before[i].occurrence]
    lines = [i for i in untouched if after[i].line != before[i].line]
    assert moved and lines
    assert any(m.scope == "added" for m in after.values())


def test_lazy_annotations_are_not_mutated() -> None:
    lazy = _mutants(LAZY)
    # "int | None" in the signature and the class body: never evaluated, never mutated.
    assert not [m for m in lazy if m.operator_short.startswith("ReplaceBinaryOperator_BitOr")]
    # Default values are evaluated, so they are mutated.
    assert any(m.operator_short == "NumberReplacer" and "limit: int = 3" in m.code for m in lazy)


def test_evaluated_annotations_are_mutated() -> None:
    eager = _mutants(EAGER)
    assert any(m.operator_short.startswith("ReplaceBinaryOperator_BitOr") for m in eager)


@pytest.mark.parametrize("source", [LAZY, HANDLER], ids=["lazy", "handler"])
def test_applying_changes_only_the_named_line(source: str) -> None:
    for mutant in _mutants(source):
        mutated = apply_mutant(mutant, source)
        changed = [
            line
            for line in difflib.unified_diff(source.splitlines(), mutated.splitlines(), n=0)
            if line.startswith("-") and not line.startswith("---")
        ]
        assert changed, mutant.id
        assert changed[0][1:].strip() == mutant.code, mutant.id


def test_applying_to_another_source_is_refused() -> None:
    mutant = _mutants(LAZY)[-1]
    with pytest.raises(ValueError, match="does not apply"):
        apply_mutant(mutant, "x = 1\n")


def test_a_replaced_exception_handler_catches_nothing() -> None:
    [mutant] = [m for m in _mutants(HANDLER) if m.operator_short == "ExceptionReplacer"]
    namespace: dict[str, object] = {}
    exec(compile(apply_mutant(mutant, HANDLER), "handler.py", "exec"), namespace)
    parse = namespace["parse"]
    assert callable(parse)
    assert parse("7") == 7
    with pytest.raises(ValueError):  # the original error escapes, not a NameError
        parse("seven")


def test_load_modules_takes_top_level_modules_only(tmp_path) -> None:
    (tmp_path / "core.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner.py").write_text("Y = 2\n", encoding="utf-8")
    assert [m.name for m in load_modules(tmp_path)] == ["core.py"]
