"""``docs/toolkit.md`` documents the toolkit's author face name by name, grouped as the
module docstring groups them, and every name of that face is used by some rule package.

The page, ``conformance.toolkit.__all__`` and the docstring's groups must hold the same
names; a name exported but used by no rule package belongs to the engine's face
(``conformance.toolkit.machinery``), to the one rule that uses it, or nowhere.  Each
group's example runs as written, so that it cannot name what the toolkit lacks.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import conformance.toolkit as toolkit
import conformance.toolkit.machinery as machinery

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "toolkit.md"
CHECKS = ROOT / "conformance" / "checks"

#: A documented name: a bullet opening with the name in backticks (its signature may
#: follow inside them).
_ENTRY = re.compile(r"^- `([A-Za-z_][A-Za-z0-9_]*)")
#: A group of the module docstring: an unindented line ``Checks:``.
_DOC_GROUP = re.compile(r"^([A-Z][a-z]+(?: [a-z]+)*):$")
#: A name the docstring cites by role (``:func:`check```); methods and dotted names aside.
_ROLE = re.compile(r":(?:func|class|data):`([A-Za-z_][A-Za-z0-9_]*)`")
_FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def page_groups(text: str) -> dict[str, list[str]]:
    """The names a page documents, by its ``##`` heading, in page order (code blocks
    left out)."""
    groups: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            continue
        elif line.startswith("## "):
            current = groups.setdefault(line[3:].strip().lower(), [])
        elif current is not None and (found := _ENTRY.match(line)):
            current.append(found.group(1))
    return groups


def docstring_groups(doc: str) -> dict[str, list[str]]:
    """The names a module docstring cites by role, by the group heading above them."""
    groups: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in doc.splitlines():
        if found := _DOC_GROUP.match(line):
            current = groups.setdefault(found.group(1).lower(), [])
        elif current is not None:
            current += [name for name in _ROLE.findall(line) if name not in current]
    return groups


def used_by_rule_packages(root: Path) -> dict[str, set[str]]:
    """Each name imported from ``conformance.toolkit`` under ``root`` (a folder of rule
    packages), with the packages importing it; imports inside functions included."""
    used: dict[str, set[str]] = {}
    for path in sorted(root.glob("*/*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "conformance.toolkit":
                for alias in node.names:
                    used.setdefault(alias.name, set()).add(path.parent.name)
    return used


def test_the_page_documents_each_exported_name_once_and_nothing_else() -> None:
    documented = [name for names in page_groups(PAGE.read_text("utf-8")).values() for name in names]
    assert len(documented) > 100  # the parse reads the page
    twice = sorted({name for name in documented if documented.count(name) > 1})
    assert twice == [], "documented more than once"
    assert sorted(set(toolkit.__all__) - set(documented)) == [], "exported, not documented"
    assert sorted(set(documented) - set(toolkit.__all__)) == [], "documented, not exported"


def test_the_page_groups_the_names_as_the_module_docstring_does() -> None:
    page = page_groups(PAGE.read_text("utf-8"))
    doc = docstring_groups(toolkit.__doc__ or "")
    assert list(page) == list(doc)
    for group, names in doc.items():
        assert sorted(page[group]) == sorted(names), group


def test_every_exported_name_is_used_by_a_rule_package() -> None:
    used = used_by_rule_packages(CHECKS)
    assert "check" in used  # the scan finds imports
    assert sorted(set(toolkit.__all__) - set(used)) == []
    assert sorted(set(used) - set(toolkit.__all__)) == []


def test_no_rule_package_writes_with_the_engines_face() -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted(CHECKS.glob("*/*.py"))
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.ImportFrom)
        and node.module is not None
        and node.module.startswith(machinery.__name__)
    ]
    assert offences == []


@pytest.mark.parametrize("number", range(len(_FENCE.findall(PAGE.read_text("utf-8")))))
def test_each_example_runs(number: int) -> None:
    example = _FENCE.findall(PAGE.read_text("utf-8"))[number]
    exec(compile(example, f"docs/toolkit.md example {number + 1}", "exec"), {})


def test_the_page_is_linked_from_the_architecture_and_the_docstring() -> None:
    architecture = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    new_check = architecture.split("**A new check.**", 1)[1].split("**", 1)[0]
    assert "(toolkit.md)" in new_check
    assert "docs/toolkit.md" in (toolkit.__doc__ or "")


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        (
            "## Checks\n\n- `check(*clauses)`: binds.\n- `Untested`: ends.\n",
            {"checks": ["check", "Untested"]},
        ),
        ("- `orphan`: before any heading\n## Scenarios\n-`say` no space\n", {"scenarios": []}),
        ("## Messages\n```python\n- `inside`\n```\n- `show`\n", {"messages": ["show"]}),
    ],
)
def test_the_page_parse(text: str, groups: dict[str, list[str]]) -> None:
    assert page_groups(text) == groups


def test_the_docstring_parse() -> None:
    doc = (
        "Intro :func:`nowhere`.\n\nChecks:\n    :func:`check` binds a :class:`CheckContext`\n"
        "    (:meth:`~CheckContext.expect`, :func:`check`).\nTrace queries:\n"
        "    :data:`RESUMING` and :func:`conformance.toolkit.locate`.\n"
    )
    assert docstring_groups(doc) == {
        "checks": ["check", "CheckContext"],
        "trace queries": ["RESUMING"],
    }


def test_the_usage_scan(tmp_path: Path) -> None:
    (tmp_path / "rt_x").mkdir()
    (tmp_path / "rt_x" / "checks.py").write_text(
        "from conformance.toolkit import check, say\n"
        "def f():\n    from conformance.toolkit import show\n"
        "from conformance.toolkit.machinery import Check\n"
    )
    assert used_by_rule_packages(tmp_path) == {
        "check": {"rt_x"},
        "say": {"rt_x"},
        "show": {"rt_x"},
    }
