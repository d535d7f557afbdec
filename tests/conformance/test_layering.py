"""The project's layering, as its imports show it.

The one architectural rule: adapters depend on nothing else of the project, the suite
never imports an implementation (the reference runtime or a shipped harness), and no
implementation imports the suite.

Privacy: a module whose name starts with an underscore is private to the package that
holds it.  A module may import ``x.y._z`` (or anything inside it) only if the module
itself lives inside package ``x.y``: anything in ``conformance`` may import
``conformance._escape``, but only modules inside ``conformance/report/`` may import
``conformance.report._labels``, and ``conformance.cli`` reaches ``conformance._pytest``
through that package's own ``__init__``.  A package that others need names its API
there (``conformance.toolkit``, ``adapters.codec``).  The scan reads every import,
those inside functions included, in every package of the product.

No circle: no module imports itself round through others, in any package of the
project or its tests, imports inside functions and under ``TYPE_CHECKING`` included
(``tests/conformance/_imports.py`` reads them).

Floors: the sub-packages of ``conformance/`` stand on each other in the floors of
docs/architecture.md, held here as one table (:data:`FLOORS`) that the page must agree
with; each imports only from the floors below its own.

Tests are held to the privacy rule by review, not by this scan: a test imports a private
module only to unit-test that module (its constants and helpers included, as
``tests/mutation/test_score.py`` does ``mutation._score``); everywhere else it uses the
public names, and the test-support modules under ``tests/`` (``_support.py``) are
shared between test packages freely.
"""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

import pytest

from tests.conformance._imports import ROOT, cycles, imported, module_name, project_imports

FORBIDDEN = {
    "adapters": ("conformance", "reference_impl", "harnesses"),
    "conformance": ("reference_impl", "harnesses"),
    "reference_impl": ("conformance", "harnesses"),
    "harnesses": ("conformance", "reference_impl"),
    # The mutation run reads the runtime as text and drives the suite as a child process.
    "mutation": ("conformance", "reference_impl", "harnesses"),
}
#: Every package of the product held to the privacy rule.
PRODUCT = ("adapters", "bench", "conformance", "harnesses", "mutation", "reference_impl")


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package of this project (not a class or a
    function imported from one)."""
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _modules_imported(source: str) -> list[tuple[int, str]]:
    """Every module an import names, anywhere in ``source`` (inside functions too): for
    ``from x import y`` that is ``x``, and ``x.y`` as well when ``y`` is a module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [
                (node.lineno, f"{node.module}.{alias.name}")
                for alias in node.names
                if _is_module(f"{node.module}.{alias.name}")
            ]
    return found


def _owner(module: str) -> str | None:
    """The package a private module belongs to: the parent of its last private part
    (``conformance.report`` for ``conformance.report._labels``), ``None`` when no part
    is private."""
    parts = module.split(".")
    private = [
        i for i, part in enumerate(parts) if part.startswith("_") and not part.startswith("__")
    ]
    return ".".join(parts[: private[-1]]) if private else None


def _privacy_offences(importer: str, source: str) -> list[str]:
    """What ``importer``'s ``source`` imports of another package's private modules."""
    offences = []
    for line, module in _modules_imported(source):
        owner = _owner(module)
        if owner is None or importer == owner or importer.startswith(owner + "."):
            continue
        offences.append(f"{line}: {importer} imports {module}, private to {owner}")
    return offences


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_respect_layering(package: str) -> None:
    offences = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in _imports(path):
            if module.split(".")[0] in FORBIDDEN[package]:
                offences.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not offences, "\n".join(offences)


@pytest.mark.parametrize(
    ("package", "imported"), [("conformance", "adapters"), ("harnesses", "adapters")]
)
def test_the_scan_sees_imports(package: str, imported: str) -> None:
    """The scan itself must find imports, or the test above could pass vacuously."""
    found = {
        module.split(".")[0]
        for path in (ROOT / package).rglob("*.py")
        for _, module in _imports(path)
    }
    assert imported in found


@pytest.mark.parametrize("package", PRODUCT)
def test_no_module_imports_another_packages_private_module(package: str) -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{offence}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for offence in _privacy_offences(module_name(path), path.read_text(encoding="utf-8"))
    ]
    assert not offences, "\n".join(offences)


def test_the_privacy_scan_sees_imports_inside_functions() -> None:
    """An import inside a function, of a private module named in either form, is an
    offence outside the owning package and none inside it."""
    source = (
        "def render():\n"
        "    from conformance.report._labels import STANDING_SYMBOLS\n"
        "    from conformance.report import _labels\n"
        "    return STANDING_SYMBOLS, _labels\n"
    )
    assert len(_privacy_offences("conformance.matrix._html", source)) == 2
    assert _privacy_offences("conformance.report._html", source) == []
    assert _privacy_offences("conformance.report", source) == []


def test_the_privacy_scan_reads_the_real_tree() -> None:
    """Privately owned imports exist in the tree and are found, inside functions too
    (``conformance.cli`` imports ``conformance._redact`` in its error handler), so the
    privacy test cannot pass for want of seeing any."""
    path = ROOT / "conformance" / "cli" / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {
        node.module
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.ImportFrom)
    }
    assert "conformance._redact" in inside
    seen = {module for _, module in _modules_imported(path.read_text(encoding="utf-8"))}
    assert "conformance._redact" in seen
    assert _owner("conformance._redact") == "conformance"
    assert _owner("conformance._pytest._options") == "conformance._pytest"
    assert _owner("adapters.codec") is None


def test_no_rule_package_imports_another() -> None:
    """A rule package holds everything that judges its rule; what several rules share
    lives in the toolkit (``conformance/checks/__init__.py`` says so)."""
    checks = ROOT / "conformance" / "checks"
    offences = []
    for path in sorted(checks.glob("*/*.py")):
        own = f"conformance.checks.{path.parent.name}"
        for line, module in _imports(path):
            if module.startswith("conformance.checks.") and not (
                module == own or module.startswith(own + ".")
            ):
                offences.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert offences == []


# -- No circle -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return project_imports()


def _said(circle: list[str], graph: dict[str, dict[str, int]]) -> str:
    steps = pairwise(circle)
    return ", ".join(f"{a}:{graph[a][b]} imports {b}" for a, b in steps)


def test_no_module_imports_itself_round_a_circle(graph: dict[str, dict[str, int]]) -> None:
    """Two modules importing each other (directly or through others, inside functions
    or not) make one module of two halves: neither can be read, tested or moved alone."""
    found = [_said(circle, graph) for circle in cycles(graph)]
    assert found == []


def test_the_graph_reads_the_real_tree(graph: dict[str, dict[str, int]]) -> None:
    """The scan finds the project's modules and their imports, those inside functions
    too (``conformance.cli`` imports ``conformance._redact`` in its error handler), so
    the test above cannot pass for want of seeing any."""
    assert len(graph) > 300
    assert "conformance._redact" in graph["conformance.cli"]
    assert "conformance.report._model" in graph["conformance.report"]


def test_a_circle_through_an_import_inside_a_function_is_found() -> None:
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    sources = {
        "pkg.a": "def configure():\n    from pkg.b import FORMATS\n",
        "pkg.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import c\n",
        "pkg.c": "import pkg.a\n",
    }
    graph = {name: imported(name, source, known) for name, source in sources.items()}
    assert graph == {
        "pkg.a": {"pkg.b": 2},
        "pkg.b": {"pkg": 3, "pkg.c": 3},
        "pkg.c": {"pkg.a": 1},
    }
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"c"}}) == [["c", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_a_relative_import_is_read_as_the_module_it_names() -> None:
    known = {"pkg", "pkg.a", "pkg.sub", "pkg.sub.b"}
    assert imported("pkg.sub.b", "from .. import a\n", known) == {"pkg": 1, "pkg.a": 1}
    assert imported("pkg.sub", "from . import b\n", known, is_package=True) == {"pkg.sub.b": 1}


# -- The floors of conformance/ ---------------------------------------------------------------

#: The floors of ``conformance/`` (docs/architecture.md, "Inside conformance/"): a module
#: stands on the floor of the longest name here that is its own or its package's (the
#: package ``conformance`` names its ``__init__.py`` alone, so that a module left out is
#: found, not put on the ground).  A module imports only from floors below its own, or
#: from its own package; the ground's helpers import only each other.
FLOORS: dict[str, int] = {
    # the ground: helpers every floor may use, importing none of the floors
    "conformance": 0,
    "conformance._arguments": 0,
    "conformance._errored": 0,
    "conformance._escape": 0,
    "conformance._progress": 0,
    "conformance._redact": 0,
    "conformance._terminal": 0,
    "conformance._workers": 0,
    "conformance.reproducible": 0,
    "conformance.stopping": 0,
    "conformance.rules": 1,
    "conformance.report": 1,
    "conformance.toolkit": 2,
    "conformance.checks": 3,
    "conformance.hunt": 4,
    "conformance.engine": 5,
    "conformance._blame": 5,
    "conformance.shard": 6,
    "conformance._pytest": 6,
    "conformance.selftest": 6,
    "conformance.catalog": 6,
    "conformance.matrix": 6,
    "conformance._shapes": 6,
    "conformance._variants": 7,
    "conformance.doctor": 7,
    "conformance.publish": 7,
    "conformance.cli": 8,
    "conformance.plugin": 8,
}
SUITE = "conformance"
GROUND = 0


def _place(module: str) -> str | None:
    """The name of :data:`FLOORS` ``module`` stands under (``None``: none)."""
    names = [
        name
        for name in FLOORS
        if module == name or (name != SUITE and module.startswith(name + "."))
    ]
    return max(names, key=len) if names else None


def _floor_offences(importer: str, imports: dict[str, int]) -> list[str]:
    """What ``importer`` imports of the suite against the floors."""
    own = _place(importer)
    if own is None:
        return []  # reported by the test that every module has a floor
    offences = []
    for module, line in sorted(imports.items()):
        theirs = _place(module)
        if theirs is None or theirs == own:
            continue
        below = FLOORS[theirs] < FLOORS[own] or FLOORS[theirs] == FLOORS[own] == GROUND
        if not below:
            offences.append(
                f"{importer}:{line} (floor {FLOORS[own]}) imports {module} (floor {FLOORS[theirs]})"
            )
    return offences


def _suite(graph: dict[str, dict[str, int]]) -> list[str]:
    return sorted(name for name in graph if name == SUITE or name.startswith(SUITE + "."))


def test_every_module_of_the_suite_stands_on_a_floor(graph: dict[str, dict[str, int]]) -> None:
    assert [module for module in _suite(graph) if _place(module) is None] == []


def test_every_floor_names_a_module_of_the_suite() -> None:
    assert [name for name in FLOORS if not _is_module(name)] == []


def test_each_floor_imports_only_from_the_floors_below(graph: dict[str, dict[str, int]]) -> None:
    offences = [line for name in _suite(graph) for line in _floor_offences(name, graph[name])]
    assert offences == []


@pytest.mark.parametrize(
    ("importer", "module", "offends"),
    [
        ("conformance.toolkit._context", "conformance.rules", False),  # from below
        ("conformance.report._model", "conformance.report._labels", False),  # its own package
        ("conformance._errored", "conformance._redact", False),  # on the ground
        ("conformance.toolkit._context", "conformance.engine", True),  # from above
        ("conformance.selftest", "conformance.catalog", True),  # from beside
        ("conformance._escape", "conformance.report", True),  # the ground stands on nothing
        ("conformance.doctor._probes", "conformance.cli._output", True),
    ],
)
def test_the_floor_scan_judges_each_import(importer: str, module: str, offends: bool) -> None:
    assert bool(_floor_offences(importer, {module: 1})) is offends


def _documented_floors() -> dict[str, int]:
    """Every path of ``conformance/`` the floors of docs/architecture.md name, as a
    module, with the number of the floor naming it."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.partition("### Inside `conformance/`")[2].partition("\n#")[0]
    named: dict[str, int] = {}
    for number, item in re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\n\n)", section, re.M | re.S):
        for path in re.findall(r"`(conformance/[^`\s]*)`", item):
            dotted = path.removesuffix("/").removesuffix(".py").replace("/", ".")
            named[dotted.removesuffix(".__init__")] = int(number)
    return named


def test_the_architecture_page_names_the_floors_of_the_table() -> None:
    """The page and the table say the same: each path on a floor of the page stands on
    that floor here, and every name of the table is on the page."""
    named = _documented_floors()
    assert len(named) >= len(FLOORS)
    assert {path: FLOORS.get(_place(path) or "") for path in named} == named
    assert [name for name in FLOORS if name not in named] == []
