"""Every format, rendered from the fixed sample report, matches its golden file.

After an intended format change: ``.venv/bin/python -m tests.report.regenerate_golden``
and review the diff (see docs/reading-a-standing-report.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.regenerate_golden import GOLDEN, render_golden

HINT = "run `.venv/bin/python -m tests.report.regenerate_golden` if the change is intended"


def _golden_files() -> set[str]:
    return {path.relative_to(GOLDEN).as_posix() for path in GOLDEN.rglob("*") if path.is_file()}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return render_golden(tmp_path_factory.mktemp("golden"))


def test_the_same_files_are_written(rendered: dict[str, bytes]) -> None:
    assert set(rendered) == _golden_files(), HINT


@pytest.mark.parametrize("relative", sorted(_golden_files()))
def test_file_matches_golden(relative: str, rendered: dict[str, bytes]) -> None:
    assert relative in rendered, HINT
    assert rendered[relative] == (GOLDEN / relative).read_bytes(), f"{relative} differs; {HINT}"


def test_rendering_is_reproducible(tmp_path: Path) -> None:
    first = render_golden(tmp_path / "one")
    second = render_golden(tmp_path / "two")
    assert first == second
