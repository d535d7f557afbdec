"""``python -m mutation``'s commands that run no suite: --list, --show, --check, and
bad input reported as one line each."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

import mutation.__main__ as cli
from tests.mutation._fixtures import LAZY


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "box.py").write_text(LAZY, encoding="utf-8")
    monkeypatch.setattr(cli, "PACKAGE", root)
    return root


def _ids(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert cli.main(["--list"]) == 0
    return [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]


def test_list_prints_every_mutant(package: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = _ids(capsys)
    assert ids and all(ident.startswith("box.py:") for ident in ids)


def test_show_prints_a_diff(package: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _ids(capsys)[0]
    assert cli.main(["--show", first]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# {first}\n--- a/pkg/box.py\n+++ b/pkg/box.py\n")


def test_show_of_an_unknown_id_is_a_usage_error(
    package: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--show", "box.py:nothing:AddNot:00000000"]) == 2
    assert capsys.readouterr().err == (
        "mutation: error: no mutant has the id 'box.py:nothing:AddNot:00000000'\n"
    )


def test_check_reports_stale_entries(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _ids(capsys)[0]
    triage = tmp_path / "eq.txt"
    gone = "box.py:gone:AddNot:00000000"
    triage.write_text(f"{first} unobservable a\n{gone} conforming b\n", encoding="utf-8")
    assert cli.main(["--check", "--equivalents", str(triage)]) == 1
    out = capsys.readouterr().out
    assert f"{triage}:2: stale: {gone} matches no mutant\n" in out
    triage.write_text(f"{first} unobservable a\n", encoding="utf-8")
    assert cli.main(["--check", "--equivalents", str(triage)]) == 0


def test_a_malformed_triage_file_is_one_line_per_problem(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    triage = tmp_path / "eq.txt"
    triage.write_text("nonsense\nbox.py:f:AddNot:00000000 unobservable\n", encoding="utf-8")
    assert cli.main(["--check", "--equivalents", str(triage)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[2] for line in err] == [f"{triage}:1", f"{triage}:2"]
    assert all(line.startswith("mutation: error: ") for line in err)


def test_an_unknown_id_in_a_list_is_named_by_line(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "only.txt"
    listed.write_text("# gaps\nbox.py:gone:AddNot:00000000\n", encoding="utf-8")
    assert cli.main(["--only", str(listed), "--out", str(tmp_path / "out")]) == 2
    assert (
        f"{listed}:2: no mutant has the id box.py:gone:AddNot:00000000" in capsys.readouterr().err
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", [["--timeout", "0"], ["--timeout", "nan"], ["--sample", "0"]])
def test_bad_numbers_are_refused(package: Path, args: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(args)
    assert stopped.value.code == 2


def test_without_cosmic_ray_the_error_says_what_to_install(
    package: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert cli.main(["--list"]) == 2
    assert "cosmic-ray is not installed" in capsys.readouterr().err


def test_rescore_scores_kept_outcomes_with_the_current_triage(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, third = _ids(capsys)[:3]
    out = tmp_path / "out"
    out.mkdir()
    lines = [
        {"id": first, "status": "killed", "exit_code": 1, "seconds": 2.0, "detail": ""},
        {"id": second, "status": "survived", "exit_code": 0, "seconds": 3.0, "detail": ""},
        {"id": third, "status": "survived", "exit_code": 0, "seconds": 4.0, "detail": ""},
        {
            "id": "box.py:gone:AddNot:00000000",
            "status": "killed",
            "exit_code": 1,
            "seconds": 1.0,
            "detail": "",
        },
    ]
    (out / "outcomes.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines) + "not json\n", encoding="utf-8"
    )
    triage = tmp_path / "eq.txt"
    triage.write_text(f"{second} conforming allowed\n{third} unobservable same\n", encoding="utf-8")
    assert cli.main(["--rescore", "--out", str(out), "--equivalents", str(triage)]) == 0
    printed = capsys.readouterr().out
    assert "mutation: score 50.0% (1 of 2 killed" in printed
    assert "(1 run mutants triaged as conforming variants left out): 100.0%" in printed
    assert "nothing was run" in printed
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert {entry["id"] for entry in data["outcomes"]} == {first, second}
    assert (out / "survivors.txt").read_text(encoding="utf-8") == ""


def test_rescore_without_outcomes_says_so(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--rescore", "--out", str(tmp_path)]) == 2
    assert "no outcome to rescore" in capsys.readouterr().err


def test_an_output_that_is_a_file_is_refused_in_one_line(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine\n", encoding="utf-8")
    assert cli.main(["--out", str(taken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mutation: error: ") and err.count("\n") == 1
    assert str(taken) in err and "Traceback" not in err
    assert taken.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_a_list_that_is_not_a_regular_file_is_refused_in_one_line(
    package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    listed = tmp_path / "only.txt"
    if kind == "fifo":
        os.mkfifo(listed)  # nobody writes it: reading would wait forever
    elif kind == "device":
        listed.symlink_to("/dev/zero")  # endless: reading would never finish
    else:
        listed.mkdir()
    assert cli.main(["--only", str(listed), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(listed) in err and "not a regular file" in err
