"""Mutants and legal variants override the reference runtime's hooks and copy none of it.

Each decision a rule leaves open is a small method of the reference runtime, so that a
mutant or a variant overrides the one decision it changes.  An override that restates
code of the method it replaces (or a stretch of any other) would drift from the
reference the day the reference changes, and would hide which decision it changes.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import reference_impl
from reference_impl.behaviour import Components
from reference_impl.journal import Journal
from reference_impl.mutants import catalogue as mutants
from reference_impl.variants import catalogue as variants

ROOT = Path(reference_impl.__file__).resolve().parent
#: A statement this small (``return result``, ``if call.id is None: return None``) says
#: too little to be a copy; anything larger restates a decision.
SMALLEST_COPY = 12
_COPIES = ("reference_impl.mutants", "reference_impl.variants")


def _size(node: ast.AST) -> int:
    return sum(1 for part in ast.walk(node) if not isinstance(part, ast.expr_context))


def _docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every statement of a body, nested ones included, docstrings left out."""
    return [
        node
        for statement in body
        for node in ast.walk(statement)
        if isinstance(node, ast.stmt) and not _docstring(node)
    ]


def _blocks(body: list[ast.stmt]) -> Iterator[list[ast.stmt]]:
    """Every run of statements a body holds (its own, each branch's, each loop's...)."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield [statement for statement in inner if not _docstring(statement)]


def _key(node: ast.AST) -> str:
    return ast.dump(node, annotate_fields=False, include_attributes=False)


def _body(function: Callable[..., object]) -> list[ast.stmt]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    definition = tree.body[0]
    assert isinstance(definition, ast.FunctionDef)
    return definition.body


def _reference_pairs() -> set[tuple[str, str]]:
    """Every two consecutive statements of the reference runtime's own code."""
    pairs: set[tuple[str, str]] = set()
    for path in sorted(ROOT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                for block in _blocks(node.body):
                    pairs |= {(_key(a), _key(b)) for a, b in itertools.pairwise(block)}
    return pairs


def _classes(components: Components) -> set[type]:
    """The classes a set of components is built of, snapshots included."""
    node = components.node
    made = {
        type(components.behaviour),
        type(node),
        type(node.policy),
        type(node.normalizer),
        type(components.wire),
        components.collector_class,
        type(components.behaviour.snapshot(Journal())),
    }
    return {cls for cls in made if cls.__module__.startswith(_COPIES)}


def _reference(cls: type) -> bool:
    module = cls.__module__
    return module.startswith("reference_impl.") and not module.startswith(_COPIES)


def _overrides() -> Iterator[tuple[str, Callable[..., object], Callable[..., object]]]:
    """``(where, override, the reference method it overrides)`` for every method a mutant
    or a variant defines over one of the reference runtime's."""
    seen: set[type] = set()
    for entry in (*mutants(), *variants()):
        for cls in _classes(entry.build()):
            for own in cls.__mro__:
                if own in seen or not own.__module__.startswith(_COPIES):
                    continue
                seen.add(own)
                reference = next(c for c in own.__mro__ if _reference(c))
                for name, value in vars(own).items():
                    base = getattr(reference, name, None)
                    if inspect.isfunction(value) and inspect.isfunction(base):
                        yield f"{own.__module__}.{own.__qualname__}.{name}", value, base


#: One override per place in the source (a factory makes its class anew for each mutant).
OVERRIDES = sorted({where: (where, o, b) for where, o, b in _overrides()}.values())


def test_the_walk_reaches_every_kind_of_component() -> None:
    # Nested classes, snapshots, collectors, policies, normalizers and wires included.
    found = {".".join(where.rsplit(".", 2)[-2:]) for where, _, _ in OVERRIDES}
    assert {
        "_KeyedSnapshot.key",
        "_RefusalSpansTurns.checked_against",
        "_EmptyTypeCollected.type_refused",
        "_KeysInAnotherOrder.port_entry",
        "_StrictReferences.unescape",
        "_ShortResultAsEscapedJson.note",
        "_WordsOfItsOwn.status_word",
    } <= found


@pytest.mark.parametrize(
    ("where", "override", "base"), OVERRIDES, ids=[where for where, _, _ in OVERRIDES]
)
def test_an_override_restates_nothing_of_the_method_it_overrides(
    where: str, override: Callable[..., object], base: Callable[..., object]
) -> None:
    own = {_key(s) for s in _statements(_body(base)) if _size(s) >= SMALLEST_COPY}
    copied = [
        ast.unparse(s).splitlines()[0]
        for s in _statements(_body(override))
        if _size(s) >= SMALLEST_COPY and _key(s) in own
    ]
    assert copied == [], f"{where} restates {base.__qualname__}: {copied}"


def test_no_override_copies_a_stretch_of_the_reference() -> None:
    pairs = _reference_pairs()
    copied = [
        f"{where}: {ast.unparse(a).splitlines()[0]} / {ast.unparse(b).splitlines()[0]}"
        for where, override, _ in OVERRIDES
        for block in _blocks(_body(override))
        for a, b in itertools.pairwise(block)
        if (_key(a), _key(b)) in pairs and _size(a) + _size(b) >= SMALLEST_COPY
    ]
    assert copied == []
