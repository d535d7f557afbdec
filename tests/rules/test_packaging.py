"""The bundled corpus is found from a checkout, and is declared to ship in the wheel."""

from __future__ import annotations

import os
import tomllib

from conformance.rules import corpus_path, page_files
from tests.rules._paths import REPO


def test_corpus_path_is_the_repository_rules_folder() -> None:
    assert corpus_path() == (REPO / "rules").resolve()
    assert len(page_files([corpus_path()])) == 16


def test_the_package_folder_links_to_the_corpus_so_the_wheel_carries_it() -> None:
    link = REPO / "conformance" / "rules" / "_corpus"
    assert link.is_symlink()
    assert os.readlink(link) == "../../rules"
    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert "conformance*" in config["packages"]["find"]["include"]
    assert "*.md" in config["package-data"]["*"]
    assert "*.json" in config["package-data"]["*"]
