"""``docs/architecture.md`` stays true: every path it names in backticks exists, and the
README links it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
#: A span naming a file or folder of the repository: a slash, no spaces, and no
#: placeholder (``<rule>``), pattern or URL.  A bare file name (``STANDING.md``) names a
#: kind of file, not a path.
_PATH = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*$")


def named_paths(text: str) -> list[str]:
    """The repository paths ``text`` names in backticks (outside fenced blocks)."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return [span for span in _CODE_SPAN.findall(prose) if _PATH.match(span)]


def test_every_backticked_path_exists() -> None:
    paths = named_paths(PAGE.read_text("utf-8"))
    assert len(paths) > 40  # the scan reads the page
    missing = sorted({path for path in paths if not (ROOT / path).exists()})
    assert missing == []


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (
            "see `conformance/cli/` and `rules/RT-TOOL-9.md`",
            ["conformance/cli/", "rules/RT-TOOL-9.md"],
        ),
        ("not `conformance/checks/<rule>/`, `rttool run`, `python:M:A`, `STANDING.md`", []),
        ("```sh\n`adapters/nowhere.py`\n```\n", []),
    ],
)
def test_the_scan_takes_paths_only(text: str, named: list[str]) -> None:
    assert named_paths(text) == named


def test_the_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "(docs/architecture.md)" in readme
