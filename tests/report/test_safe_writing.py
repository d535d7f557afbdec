"""Writing reports and evidence never follows a symbolic link out of the report directory,
and removes only files rttool itself wrote."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from adapters.files import real_directory, write_file
from conformance.report import write_reports
from tests.report.sample import sample_report, write_evidence

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside the report directory, holding a file nobody may touch."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "precious.txt").write_text("untouched\n", encoding="utf-8")
    return folder


def _untouched(outside: Path) -> None:
    assert sorted(path.name for path in outside.iterdir()) == ["precious.txt"]
    assert (outside / "precious.txt").read_text(encoding="utf-8") == "untouched\n"


@pytest.mark.parametrize(
    "name", ["standing.json.partial", "standing.json", "allure-results/categories.json.partial"]
)
def test_a_link_named_like_a_file_is_replaced_not_followed(
    tmp_path: Path, outside: Path, name: str
) -> None:
    report_dir = tmp_path / "report"
    (report_dir / "allure-results").mkdir(parents=True)
    (report_dir / name).symlink_to(outside / "precious.txt")
    write_reports(sample_report(), report_dir)
    _untouched(outside)
    assert json.loads((report_dir / "standing.json").read_text(encoding="utf-8"))["rules"]
    assert not list(report_dir.rglob("*.tmp"))  # no temporary file is left behind


@pytest.mark.parametrize("folder", ["allure-results", "evidence"])
def test_a_linked_folder_is_replaced_by_a_real_one(
    tmp_path: Path, outside: Path, folder: str
) -> None:
    report_dir = tmp_path / "report"
    report_dir.mkdir()
    (report_dir / folder).symlink_to(outside, target_is_directory=True)
    if folder == "evidence":
        written = write_file(report_dir, "evidence/RT-TOOL-7_c4/trace.json", b"{}\n")
    else:
        write_reports(sample_report(), report_dir, ["allure"])
        written = next((report_dir / folder).glob("*-result.json"))
    assert not (report_dir / folder).is_symlink() and written.is_file()
    _untouched(outside)


def test_a_file_where_a_folder_belongs_is_an_error_not_a_link(tmp_path: Path) -> None:
    (tmp_path / "evidence").write_text("not a folder\n", encoding="utf-8")
    with pytest.raises(OSError):
        real_directory(tmp_path, "evidence/case")
    with pytest.raises(OSError):
        write_file(tmp_path, "../escape.json", b"{}")


def test_only_rttools_own_allure_files_are_removed(tmp_path: Path) -> None:
    write_evidence(tmp_path)
    write_reports(sample_report(), tmp_path, ["allure"])
    results = tmp_path / "allure-results"
    ours = {path.name for path in results.iterdir()} - {"categories.json", "environment.properties"}
    assert any("-attachment." in name for name in ours)
    # Another tool's results, containers and attachments share the folder.
    theirs = {
        "0000-result.json": json.dumps(
            {
                "name": "t",
                "labels": [{"name": "framework", "value": "pytest"}],
                "attachments": [{"source": "0000-attachment.txt"}],
            }
        ),
        "0000-attachment.txt": "their attachment",
        "0000-container.json": "{}",
        "1111-result.json": "not even JSON",
    }
    for name, text in theirs.items():
        (results / name).write_text(text, encoding="utf-8")
    later = replace(
        sample_report(), run=replace(sample_report().run, started_at="2025-02-01T00:00:00+00:00")
    )
    write_reports(later, tmp_path, ["allure"])
    names = {path.name for path in results.iterdir()}
    assert set(theirs) <= names
    assert not ours & names  # every result and attachment of the earlier rendering is gone


def test_hypothesis_storage_is_never_a_link(pytester: pytest.Pytester, outside: Path) -> None:
    report_dir = pytester.path / "out"
    report_dir.mkdir()
    (report_dir / ".hypothesis").symlink_to(outside, target_is_directory=True)
    result = pytester.runpytest(
        "--rttool-impl",
        "reference",
        "--rttool-only",
        "RT-TOOL-7#c5",
        "--rttool-examples",
        "2",
        "--rttool-hunt-seconds",
        "1",
        "--rttool-report-dir",
        str(report_dir),
        "-p",
        "no:cacheprovider",
    )
    assert result.ret == 0
    assert not (report_dir / ".hypothesis").is_symlink()
    _untouched(outside)
