"""``rttool scenarios list|show|dump``: lines, JSON a vendor can replay, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adapters.codec import validator
from conformance.cli import main
from tests.adapters.conftest import stdio_spec
from tests.adapters.toy import write_toy

FAST = ["--hunt-samples", "0", "--only", "RT-TOOL-9"]
#: a rule with a check that sends a second scenario only after judging the first
LATER = ["--hunt-samples", "0"]


def _lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().out.splitlines()


def test_list_prints_a_line_per_scenario_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", *FAST]) == 0
    lines = _lines(capsys)
    body, summary = lines[:-1], lines[-1]
    assert body and all(line.startswith("RT-TOOL-9#") for line in body)
    assert all("  serves RT-TOOL-9#" in line and "  needs " in line for line in body)
    later = [line for line in body if "  after " in line]
    assert f"{len(later)} sent only after" in summary
    assert summary.startswith(f"{len(body)} scenarios:")


def test_show_prints_the_facts_then_the_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", *LATER]) == 0
    later = next(line for line in _lines(capsys) if "  after " in line).split("  ")[0]
    assert main(["scenarios", "show", later, *LATER]) == 0
    out = capsys.readouterr().out
    assert out.startswith(later + "\n") and "  sent: only after " in out
    scenario = json.loads(out[out.index("\n{") :])
    assert scenario["id"] == later.rsplit("/", 1)[1]


def test_show_json_is_one_valid_scenario_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", *FAST]) == 0
    case = _lines(capsys)[0].split("  ")[0].rsplit("/", 1)[0]
    assert main(["scenarios", "show", case, "--json", *FAST]) == 0
    lines = _lines(capsys)
    assert lines
    for line in lines:
        assert list(validator("scenario").iter_errors(json.loads(line))) == []


def test_an_unknown_id_is_one_line_with_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "show", "rt9-c1", *FAST]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "did you mean RT-TOOL-9#c1/" in captured.err


def test_an_unknown_rule_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", "--only", "rt-tool-9"]) == 2
    assert "did you mean RT-TOOL-9" in capsys.readouterr().err


def test_dump_writes_every_scenario_valid_and_an_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scenarios"
    assert main(["scenarios", "dump", str(out), "--hunt-samples", "2"]) == 0
    index = json.loads((out / "index.json").read_text("utf-8"))
    files = [item["file"] for item in index["scenarios"]]
    assert sorted(path.name for path in out.iterdir()) == sorted([*files, "index.json"])
    check = validator("scenario")
    for item in index["scenarios"]:
        scenario = json.loads((out / item["file"]).read_text("utf-8"))
        assert list(check.iter_errors(scenario)) == [], item["file"]
        assert item["id"].endswith("/" + scenario["id"])
    kinds = {item["kind"] for item in index["scenarios"]}
    assert kinds == {"check", "vector", "hunt-sample"}
    assert index["handshake"]["profiles"] == ["runtime", "durable-resume"]
    assert f"wrote {len(files)} scenarios" in capsys.readouterr().out


def test_dump_into_a_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("mine", "utf-8")
    assert main(["scenarios", "dump", str(blocker), *FAST]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the scenarios" in err
    assert blocker.read_text("utf-8") == "mine"


def test_a_harness_handshake_marks_what_it_is_not_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toy = write_toy(tmp_path)
    code = main(["scenarios", "list", "--impl", stdio_spec(str(toy)), "--first-only", *FAST])
    assert code == 0
    lines = _lines(capsys)
    unsent = [line for line in lines if "not sent: the handshake lacks gates" in line]
    assert unsent and "not sent to this handshake" in lines[-1]


def test_building_the_parsers_imports_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import argparse, sys\n"
        "from conformance.cli import _doctor, _scenarios\n"
        "for module in (_doctor, _scenarios):\n"
        "    module.configure(argparse.ArgumentParser())\n"
        "heavy = [m for m in ('conformance.catalog', 'conformance.checks', 'hypothesis',\n"
        "                     'jsonschema', 'conformance.doctor') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_listing_writes_nothing_in_the_working_directory(tmp_path: Path) -> None:
    from tests.conformance._support import rttool

    done = rttool("scenarios", "list", "--only", "RT-TOOL-7#c1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "10 hunt samples" in done.stdout
    assert list(tmp_path.iterdir()) == []
