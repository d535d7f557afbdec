"""The command line stays small: every function of ``conformance/cli/`` (and of the
publishing it runs, ``conformance/publish/``) is at most 60 lines long and takes few
decisions, because each command computes a result and a renderer prints it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("conformance/cli", "conformance/publish")
MAX_LINES = 60
MAX_COMPLEXITY = 10

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)
_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.IfExp, ast.Assert)


def _own_nodes(function: ast.AST) -> list[ast.AST]:
    """The nodes of ``function``'s body, nested functions and classes left out (each is
    measured on its own)."""
    found: list[ast.AST] = []
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        found.append(node)
        if not isinstance(node, _SCOPES):
            pending.extend(ast.iter_child_nodes(node))
    return found


def complexity(function: ast.AST) -> int:
    """The cyclomatic complexity: one, plus one per branch, loop, handler, conditional
    expression, comprehension clause, match case and extra operand of ``and``/``or``."""
    count = 1
    for node in _own_nodes(function):
        if isinstance(node, _BRANCHES):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        elif isinstance(node, ast.match_case):
            count += 1
    return count


def _functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).glob("*.py")):
            tree = ast.parse(path.read_text("utf-8"), filename=str(path))
            found += [
                (f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {node.name}", node)
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return found


def test_the_scan_sees_the_command_functions() -> None:
    names = {name.rsplit(" ", 1)[1] for name, _ in _functions()}
    assert {"main", "configure", "run", "selftest", "publish", "execute"} <= names


def test_no_command_function_is_longer_than_60_lines() -> None:
    long = [
        f"{name}: {node.end_lineno - node.lineno + 1} lines"
        for name, node in _functions()
        if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > MAX_LINES
    ]
    assert long == []


def test_no_command_function_takes_many_decisions() -> None:
    tangled = [
        f"{name}: complexity {complexity(node)}"
        for name, node in _functions()
        if complexity(node) > MAX_COMPLEXITY
    ]
    assert tangled == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n    return 1\n", 1),
        ("def f(a, b):\n    if a and b or a:\n        return [x for x in a if x]\n", 6),
        (
            "def f(a):\n    try:\n        pass\n    except OSError:\n        pass\n"
            "    def g():\n        if a:\n            pass\n    return 1 if a else 2\n",
            3,
        ),
    ],
)
def test_complexity_counts_the_decisions_of_the_function_itself(source: str, expected: int) -> None:
    function = ast.parse(source).body[0]
    assert complexity(function) == expected
