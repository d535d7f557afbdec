"""The project's imports as a graph, read from its source: every import counts, those
inside functions and under ``TYPE_CHECKING`` included, since each is a dependency a
reader has to follow.  ``tests/conformance/test_layering.py`` holds the graph to the
project's rules: no circle, and the floors of ``conformance/``."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

__all__ = ["ROOT", "SCANNED", "cycles", "imported", "module_name", "project_imports"]

ROOT = Path(__file__).resolve().parents[2]
#: Every package of the project whose imports are read (its tests included).
SCANNED = ("adapters", "bench", "conformance", "harnesses", "mutation", "reference_impl", "tests")

#: module -> {imported module: the line of its first import}
ImportGraph = dict[str, dict[str, int]]


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (a package's for its ``__init__.py``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in SCANNED
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _absolute(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module ``from ... import`` names, a relative one resolved against ``importer``."""
    if node.level == 0:
        return node.module or ""
    parts = importer.split(".") if is_package else importer.split(".")[:-1]
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _named(importer: str, is_package: bool, tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(importer, is_package, node)
            yield node.lineno, module
            # ``from x import y`` imports the module ``x.y`` where there is one.
            yield from ((node.lineno, f"{module}.{alias.name}") for alias in node.names)


def imported(
    importer: str, source: str, known: Collection[str], *, is_package: bool = False
) -> dict[str, int]:
    """The modules of ``known`` that ``source`` (the module ``importer``) imports, each
    with the line of its first import.  A package its import passes through is not
    counted (``import a.b`` imports ``a.b``, not ``a``): that is Python's loading, not a
    dependency the code chose."""
    found: dict[str, int] = {}
    for line, module in sorted(_named(importer, is_package, ast.parse(source))):
        if module in known and module != importer:
            found.setdefault(module, line)
    return found


def project_imports() -> ImportGraph:
    """Every module of the project and what it imports of the project."""
    modules = _project_modules()
    return {
        name: imported(
            name, path.read_text(encoding="utf-8"), modules, is_package=path.name == "__init__.py"
        )
        for name, path in modules.items()
    }


def cycles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """One circle of each group of modules that import each other round (a strongly
    connected component of two modules or more, or a module importing itself), as the
    path ``[a, b, ..., a]`` from the group's first module by name, in order of that name."""
    found = []
    for group in _components(graph):
        start = min(group)
        if len(group) > 1 or start in graph.get(start, ()):
            found.append(_path_back(graph, start, group))
    return sorted(found)


def _components(graph: Mapping[str, Collection[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` (Tarjan's algorithm, without
    recursion: the project's import chains are deeper than Python's stack allows)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def enter(node: str) -> Iterator[str]:
        index[node] = low[node] = len(index)
        stack.append(node)
        return iter(sorted(graph.get(node, ())))

    for root in sorted(graph):
        if root in index:
            continue
        walk = [(root, enter(root))]
        while walk:
            node, children = walk[-1]
            child = next(children, None)
            if child is not None and child not in index:
                walk.append((child, enter(child)))
            elif child is not None:
                if child in stack:
                    low[node] = min(low[node], index[child])
            else:
                walk.pop()
                if walk:
                    low[walk[-1][0]] = min(low[walk[-1][0]], low[node])
                if low[node] == index[node]:
                    cut = stack.index(node)
                    groups.append(set(stack[cut:]))
                    del stack[cut:]
    return groups


def _path_back(graph: Mapping[str, Collection[str]], start: str, group: set[str]) -> list[str]:
    """The shortest path from ``start`` round to itself inside ``group``."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph.get(node, ())):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if child in group and child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise ValueError(f"{start} is on no circle of its group")
