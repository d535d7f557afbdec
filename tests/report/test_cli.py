"""``rttool report`` and ``rttool expectations``: exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.cli._report import FORMAT_NAMES
from conformance.report import ALL_FORMATS, StandingReport, to_json
from tests.report.sample import sample_report, without_hunt, write_evidence


def _standing(directory: Path, report: StandingReport | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "standing.json"
    path.write_text(to_json(report or sample_report()), encoding="utf-8")
    return path


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("rttool: error")]) >= 1


def test_the_format_names_match_the_renderers() -> None:
    assert FORMAT_NAMES == ALL_FORMATS


def test_building_the_parser_imports_nothing_heavy() -> None:
    code = (
        "import argparse, sys\n"
        "from conformance.cli import _report, _expectations\n"
        "for module in (_report, _expectations):\n"
        "    module.configure(argparse.ArgumentParser())\n"
        "heavy = [m for m in ('conformance.report', 'jsonschema', 'allure_commons', 'yaml')\n"
        "         if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_render_all_formats_elsewhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    standing = _standing(tmp_path / "run")
    write_evidence(tmp_path / "run")
    assert (
        main(
            ["report", "render", str(standing), "--format", "all", "--out", str(tmp_path / "site")]
        )
        == 0
    )
    site = tmp_path / "site"
    for name in (
        "standing.json",
        "STANDING.md",
        "junit.xml",
        "report.html",
        "badge.svg",
        "badge.json",
        "badge-DR.svg",
        "badge-DR.json",
        "earl.jsonld",
    ):
        assert (site / name).is_file(), name
    assert list((site / "allure-results").glob("*-attachment.json"))
    assert "../run/evidence/RT-TOOL-7/c4/trace.json" in (site / "STANDING.md").read_text("utf-8")
    assert "wrote" in capsys.readouterr().out


def test_render_one_format_beside_the_input(tmp_path: Path) -> None:
    standing = _standing(tmp_path)
    assert main(["report", "render", str(standing), "--format", "junit"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["junit.xml", "standing.json"]


def test_render_bad_input_is_one_line_naming_the_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(to_json(sample_report()))
    data["rules"][1]["level"] = "mandatory"
    path = tmp_path / "standing.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["report", "render", str(path), "--format", "html"]) == 2
    err = capsys.readouterr().err
    _no_traceback(err)
    assert err.count("\n") == 1
    assert "pointer=/rules/1/level" in err
    assert str(path) in err


def test_render_unknown_format_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["report", "render", str(_standing(tmp_path)), "--format", "pdf"])
    assert caught.value.code == 2


def test_missing_action_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["report"])
    assert caught.value.code == 2


def test_diff_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = sample_report()
    better = replace(report, rules=report.rules[:2] + report.rules[4:])
    old = _standing(tmp_path / "old", better)
    new = _standing(tmp_path / "new", report)
    assert main(["report", "diff", str(new), str(new)]) == 0
    assert main(["report", "diff", str(old), str(new)]) == 0  # new rules are not regressions
    capsys.readouterr()
    fixed = replace(report, rules=tuple(rule for rule in report.rules if rule.id != "RT-TOOL-9"))
    worse = replace(
        fixed,
        rules=tuple(
            replace(rule, clauses=rule.clauses[:2]) if rule.id == "RT-TOOL-7" else rule
            for rule in fixed.rules
        ),
    )
    assert (
        main(
            ["report", "diff", str(_standing(tmp_path / "w", worse)), str(new), "--format", "json"]
        )
        == 1
    )
    data = json.loads(capsys.readouterr().out)
    assert {
        "kind": "rule",
        "id": "RT-TOOL-7",
        "old": "untested",
        "new": "does-not-conform",
    } in data["regressions"]
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["report", "diff", str(tmp_path / "bad.json"), str(new)]) == 2
    _no_traceback(capsys.readouterr().err)


def test_gate_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    standing = _standing(tmp_path)
    assert main(["report", "gate", str(standing)]) == 1
    assert "gate failed" in capsys.readouterr().out
    assert main(["report", "gate", str(standing), "--level", "core"]) == 0
    expectations = tmp_path / "exp.yaml"
    expectations.write_text(
        "expectations:\n  - rule: RT-TOOL-7\n    reason: a\n  - rule: RT-TOOL-9\n    reason: b\n",
        encoding="utf-8",
    )
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert (
        main(
            ["report", "gate", str(standing), "--expectations", str(expectations), "--step-summary"]
        )
        == 0
    )
    assert "gate ✅ passed" in summary.read_text("utf-8")
    expectations.write_text(
        "expectations:\n  - clause: RT-TOOL-7#c9\n    reason: a\n  - clause: RT-TOOL-7#c8\n",
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["report", "gate", str(standing), "--expectations", str(expectations)]) == 2
    err = capsys.readouterr().err
    _no_traceback(err)
    assert f"{expectations}:4: clause RT-TOOL-7#c8 has no reason" in err


def test_gate_stale_expectation_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    standing = _standing(tmp_path)
    expectations = tmp_path / "exp.yaml"
    expectations.write_text(
        "expectations:\n  - rule: RT-TOOL-7\n    reason: a\n"
        "  - rule: RT-TOOL-9\n    reason: b\n"
        "  - rule: RT-TOOL-1\n    reason: c\n",
        encoding="utf-8",
    )
    assert main(["report", "gate", str(standing), "--expectations", str(expectations)]) == 1
    assert f"stale expectation at {expectations}:6" in capsys.readouterr().out


def test_expectations_update_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    standing = _standing(tmp_path)
    out = tmp_path / "expectations.yaml"
    assert main(["expectations", "update", "--standing", str(standing), "--out", str(out)]) == 0
    assert "0 kept, 2 added, 0 dropped" in capsys.readouterr().out
    text = out.read_text("utf-8").replace(
        "reason: 2 held artifacts were lost after the write-back failed", "reason: mine"
    )
    out.write_text(text + "  - clause: RT-TOOL-1#c1\n    reason: stale\n", encoding="utf-8")
    assert main(["expectations", "update", "--standing", str(standing), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "dropped clause RT-TOOL-1#c1" in printed
    assert "2 kept, 0 added, 1 dropped" in printed
    assert "reason: mine" in out.read_text("utf-8")
    assert main(["expectations", "check", str(out), "--standing", str(standing)]) == 0
    assert main(["report", "gate", str(standing), "--expectations", str(out)]) == 0


def test_expectations_update_refuses_a_broken_existing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    standing = _standing(tmp_path)
    out = tmp_path / "expectations.yaml"
    out.write_text("expectations:\n  - clause: nope\n", encoding="utf-8")
    assert main(["expectations", "update", "--standing", str(standing), "--out", str(out)]) == 2
    _no_traceback(capsys.readouterr().err)
    assert out.read_text("utf-8") == "expectations:\n  - clause: nope\n"
    assert main(["expectations", "check", str(out)]) == 2


def test_diff_refuses_a_new_run_that_looked_less_hard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = sample_report()
    full = _standing(tmp_path / "full", report)
    partial = replace(report, run=replace(report.run, only=("RT-TOOL-7",)))
    unhunted = without_hunt(report)
    for name, newer, said in (
        ("partial", partial, "the new run covered only RT-TOOL-7 (the old one: everything)"),
        ("unhunted", unhunted, "the new run did not run the hunt, the old one did"),
    ):
        new = _standing(tmp_path / name, newer)
        capsys.readouterr()
        assert main(["report", "diff", str(full), str(new)]) == 2
        captured = capsys.readouterr()
        assert f"mismatch: {said}" in captured.out
        assert "not comparable" in captured.err
        assert main(["report", "diff", str(full), str(new), "--allow-mismatch"]) == 0
        capsys.readouterr()
        # The other way round the newer run looked harder: comparable.
        assert main(["report", "diff", str(new), str(full)]) in (0, 1)
        assert "mismatch" not in capsys.readouterr().out


def test_gate_refuses_a_level_that_gates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = sample_report()
    only_optional = replace(
        report, rules=tuple(rule for rule in report.rules if rule.level == "optional")
    )
    path = _standing(tmp_path / "r", only_optional)
    assert main(["report", "gate", str(path), "--level", "extended"]) == 2
    assert "gates nothing" in capsys.readouterr().err


def test_diff_accepts_a_new_run_that_covers_at_least_as_much(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = sample_report()

    def only(*items: str) -> Path:
        name = "-".join(items).replace("#", "_") or "all"
        return _standing(tmp_path / name, replace(report, run=replace(report.run, only=items)))

    for old, new in (
        (only("RT-TOOL-7#c3"), only("RT-TOOL-7")),  # a clause, then its rule
        (only("RT-TOOL-7", "RT-TOOL-9"), only("RT-TOOL-9", "RT-TOOL-7")),  # order is no matter
        (only("RT-TOOL-7"), only()),  # a part, then everything
    ):
        capsys.readouterr()
        assert main(["report", "diff", str(old), str(new)]) in (0, 1)
        assert "mismatch" not in capsys.readouterr().out
    assert main(["report", "diff", str(only("RT-TOOL-7")), str(only("RT-TOOL-7#c3"))]) == 2
