"""Every file rttool reads is read through ``adapters.files``: at most a cap, a regular
file only (never a FIFO that blocks, ``/dev/zero`` that never ends, a directory), and,
for JSON, with every key once; each refusal is one line naming the file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from adapters.files import UnreadableFile, read_bytes, read_json
from conformance.cli import main
from conformance.report import to_json
from tests.report.sample import sample_report

KINDS = ["fifo", "device", "directory"]


def _plant(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)  # nobody writes it: a blocking read would wait forever
    elif kind == "device":
        path.symlink_to("/dev/zero")  # endless: a read to the end never ends
    else:
        path.mkdir()


@pytest.mark.parametrize("kind", KINDS)
def test_the_reader_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "standing.json"
    _plant(target, kind)
    with pytest.raises(UnreadableFile, match="not a regular file") as caught:
        read_bytes(target, limit=1024)
    assert str(target) in str(caught.value)


def test_the_reader_refuses_a_file_past_its_cap(tmp_path: Path) -> None:
    target = tmp_path / "big"
    target.write_bytes(b"x" * 2048)
    with pytest.raises(UnreadableFile, match="larger than 1024 bytes"):
        read_bytes(target, limit=1024)
    assert read_bytes(target, limit=100, tail=True) == b"x" * 100


def test_json_with_a_key_given_twice_is_refused_naming_it(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    target.write_text('{"a": {"b": 1, "b": 2}}', "utf-8")
    with pytest.raises(UnreadableFile, match="given twice") as caught:
        read_json(target, limit=1024)
    assert "/a/b" in str(caught.value)


def _one_line(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert str(path) in err
    return err


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["render", "gate", "matrix"])
def test_report_commands_refuse_a_standing_that_is_not_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str
) -> None:
    report = tmp_path / "report"
    report.mkdir()
    standing = report / "standing.json"
    _plant(standing, kind)
    args = {
        "render": ["report", "render", str(standing), "--out", str(tmp_path / "out")],
        "gate": ["report", "gate", str(standing)],
        "matrix": ["report", "matrix", str(report), "--out", str(tmp_path / "site")],
    }[command]
    assert main(args) == 2
    assert "not a regular file" in _one_line(capsys, standing)


def test_a_standing_with_a_key_given_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    standing = tmp_path / "standing.json"
    text = to_json(sample_report())
    assert text.startswith("{") and '"format"' in text
    standing.write_text('{"format": "x", ' + text[1:], "utf-8")  # format given twice
    assert main(["report", "gate", str(standing)]) == 2
    assert "given twice" in _one_line(capsys, standing)


@pytest.mark.parametrize("kind", KINDS)
def test_replay_and_expectations_refuse_what_is_not_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    planted = tmp_path / "planted.json"
    _plant(planted, kind)
    assert main(["replay", str(planted)]) == 2
    assert "not a regular file" in _one_line(capsys, planted)
    standing = tmp_path / "standing.json"
    standing.write_text(to_json(sample_report()), "utf-8")
    assert main(["report", "gate", str(standing), "--expectations", str(planted)]) == 2
    assert "not a regular file" in capsys.readouterr().err
