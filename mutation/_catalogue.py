"""The machine-made mutants of a package's modules, each with an identity that survives
unrelated edits.

cosmic-ray's operators find the mutation positions and apply a mutation to source text.
cosmic-ray itself names a mutation by its operator and *occurrence* (the n-th position of
that operator in the module), a number that shifts as soon as any code above it
changes. A committed triage needs better, so each mutant here is named by its module,
the function or class around it, its operator, a digest of the source line it changes
and, when that is not yet unique, its ordinal among those that share all four:

    passes.py:ToolNode.run:ReplaceComparisonOperator_Eq_NotEq:1f0c2a9e
    wire.py:Wire.render:NumberReplacer:3c2f9a10~2

The occurrence is kept too, but only to apply the mutation to the very source that was
enumerated.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from adapters.files import UnreadableFile, read_text

__all__ = [
    "ID_PATTERN",
    "ModuleSource",
    "Mutant",
    "apply_mutant",
    "enumerate_mutants",
    "load_modules",
    "operator_names",
]

#: ``module.py:Scope.name:Operator:8 hex digits`` and an optional ``~N`` ordinal.
ID_PATTERN = re.compile(r"[A-Za-z0-9_]+\.py:[A-Za-z0-9_.<>]+:[A-Za-z0-9_]+:[0-9a-f]{8}(?:~[0-9]+)?")

_MODULE_SCOPE = "<module>"
# A module's source is read whole; the runtime's largest module is about 20 KB.
_MAX_SOURCE_BYTES = 1_000_000
# cosmic-ray names an exception that no code raises; the mutated module defines it, so
# that the mutant means "this handler catches nothing" and not "this handler fails".
_NEVER_RAISED = "CosmicRayTestingException"


@dataclass(frozen=True)
class ModuleSource:
    """One module to mutate: its file name (relative to the package) and its text."""

    name: str
    text: str


@dataclass(frozen=True)
class Mutant:
    """One mutation of one module.

    ``id`` is stable (see the module docstring); ``occurrence`` is cosmic-ray's index and
    is valid only for the source the mutant was enumerated from.
    """

    id: str
    module: str
    scope: str
    operator: str
    occurrence: int
    line: int
    code: str

    @property
    def operator_short(self) -> str:
        """The operator without its provider prefix (``core/``)."""
        return self.operator.rpartition("/")[2]


def load_modules(package: Path) -> list[ModuleSource]:
    """The package's top-level modules (``*.py``, not its sub-packages), by name."""
    modules = []
    for path in sorted(package.glob("*.py")):
        try:
            text = read_text(path, limit=_MAX_SOURCE_BYTES)
        except UnreadableFile:
            continue  # not a module the mutants can be drawn from
        modules.append(ModuleSource(path.name, text))
    return modules


def operator_names() -> list[str]:
    """cosmic-ray's operators that take no arguments: every one it applies by default."""
    from cosmic_ray import plugins

    return sorted(
        name for name in plugins.operator_names() if not plugins.get_operator(name).arguments()
    )


def enumerate_mutants(
    modules: Sequence[ModuleSource], operators: Sequence[str] | None = None
) -> list[Mutant]:
    """Every mutant of ``modules``, in module, operator and position order.

    Positions inside a type annotation of a module that has ``from __future__ import
    annotations`` are left out: such an annotation is a string the runtime never
    evaluates, so no mutation of it can change what the runtime does.
    """
    from cosmic_ray import plugins
    from cosmic_ray.ast import ast_nodes, get_ast

    names = list(operators) if operators is not None else operator_names()
    found: list[Mutant] = []
    for module in modules:
        tree = ast.parse(module.text)
        scopes = _scope_lines(tree)
        skipped = _annotation_spans(tree, module.text) if _lazy_annotations(tree) else []
        lines = module.text.splitlines()
        parsed = get_ast(module.text)
        for name in names:
            operator = plugins.get_operator(name)()
            positions = (
                start
                for node in ast_nodes(parsed)
                for start, _end in operator.mutation_positions(node)
            )
            for occurrence, (row, col) in enumerate(positions):
                if any(_within((row, col), span) for span in skipped):
                    continue
                code = lines[row - 1].strip() if 0 < row <= len(lines) else ""
                found.append(
                    Mutant(
                        "", module.name, scopes.get(row, _MODULE_SCOPE), name, occurrence, row, code
                    )
                )
    return _with_ids(found)


def apply_mutant(mutant: Mutant, source: str) -> str:
    """The module's text with ``mutant`` applied.

    Raises ``ValueError`` when the mutation does not apply (the source is not the one the
    mutant was enumerated from).
    """
    from cosmic_ray import plugins
    from cosmic_ray.mutating import mutate_code

    operator = plugins.get_operator(mutant.operator)()
    mutated = mutate_code(source, operator, mutant.occurrence)
    if not isinstance(mutated, str) or mutated == source:
        raise ValueError(f"mutant {mutant.id} does not apply to this source")
    if _NEVER_RAISED in mutated and _NEVER_RAISED not in source:
        mutated = mutated.rstrip("\n") + (
            f"\n\n\nclass {_NEVER_RAISED}(Exception):\n"
            '    """Named by the mutation above; nothing raises it."""\n'
        )
    return mutated


def _with_ids(mutants: list[Mutant]) -> list[Mutant]:
    seen: Counter[str] = Counter()
    out = []
    for mutant in mutants:
        digest = hashlib.sha1(mutant.code.encode("utf-8"), usedforsecurity=False).hexdigest()
        base = f"{mutant.module}:{mutant.scope}:{mutant.operator_short}:{digest[:8]}"
        seen[base] += 1
        ident = base if seen[base] == 1 else f"{base}~{seen[base]}"
        out.append(
            Mutant(
                ident,
                mutant.module,
                mutant.scope,
                mutant.operator,
                mutant.occurrence,
                mutant.line,
                mutant.code,
            )
        )
    return out


def _scope_lines(tree: ast.Module) -> dict[int, str]:
    """Line number -> qualified name of the innermost function or class around it."""
    scopes: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                end = child.end_lineno or child.lineno
                # Decorators belong to what they decorate.
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                for row in range(first, end + 1):
                    scopes[row] = name
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return scopes


def _lazy_annotations(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(alias.name == "annotations" for alias in node.names)
        for node in tree.body
    )


_Span = tuple[tuple[int, int], tuple[int, int]]


def _annotation_spans(tree: ast.Module, text: str) -> list[_Span]:
    """(start, end) of every annotation, as (line, character column) pairs."""
    lines = text.splitlines()

    def column(row: int, byte_offset: int) -> int:
        # ast counts columns in UTF-8 bytes, cosmic-ray (parso) in characters.
        line = lines[row - 1].encode("utf-8")
        return len(line[:byte_offset].decode("utf-8", errors="replace"))

    spans = []
    for node in _annotations(tree):
        end_row = node.end_lineno or node.lineno
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        spans.append(
            (
                (node.lineno, column(node.lineno, node.col_offset)),
                (end_row, column(end_row, end_col)),
            )
        )
    return spans


def _annotations(tree: ast.Module) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        annotation = None
        if isinstance(node, ast.AnnAssign | ast.arg):
            annotation = node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotation = node.returns
        if annotation is not None:
            yield annotation


def _within(position: tuple[int, int], span: _Span) -> bool:
    start, end = span
    return start <= position < end
