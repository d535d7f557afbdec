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

Tests are held to the same rule by review, not by this scan: a test imports a private
module only to unit-test that module (its constants and helpers included, as
``tests/mutation/test_score.py`` does ``mutation._score``); everywhere else it uses the
public names, and the test-support modules under ``tests/`` (``_support.py``) are
shared between test packages freely.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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
        for offence in _privacy_offences(_module_name(path), path.read_text(encoding="utf-8"))
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
