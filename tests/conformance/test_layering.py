"""The one architectural rule: adapters depend on nothing else of the project, the suite
never imports an implementation (the reference runtime or a shipped harness), and no
implementation imports the suite."""

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


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


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
