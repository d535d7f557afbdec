"""Every file rttool reads is held to the one nesting limit: a rule page (front matter or
example), an expectations file, a ``standing.json`` given to ``report render|diff|gate``,
a replay file.  Each is refused in one line naming the file and the JSON pointer where
the limit was reached; none is a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.cli import main
from tests.report.sample import sample_report
from tests.rules._paths import LINT_FIXTURES

DEEP = 100_000
DEEP_JSON = "[" * DEEP + "]" * DEEP


def _standing(folder: Path) -> Path:
    from conformance.report import write_reports

    write_reports(sample_report(), folder, ["json"])
    return folder / "standing.json"


def _deep_standing(folder: Path) -> Path:
    data = json.loads(_standing(folder / "good").read_text(encoding="utf-8"))
    data["warnings"] = "DEEP"
    text = json.dumps(data).replace('"DEEP"', DEEP_JSON, 1)
    path = folder / "deep-standing.json"
    path.write_text(text, encoding="utf-8")
    return path


def _deep_page(folder: Path, where: str) -> Path:
    pages = folder / "pages"
    pages.mkdir()
    page = pages / "RT-TOOL-5.md"
    shutil.copy(LINT_FIXTURES / "clean" / "RT-TOOL-5.md", page)
    text = page.read_text(encoding="utf-8")
    if where == "front-matter":
        text = text.replace("part: II\n", "part: II\nx: " + DEEP_JSON + "\n", 1)
    else:
        start = text.index("```json")
        body = text.index("\n", start) + 1
        end = text.index("```", body)
        text = text[:body] + '{"x": ' + DEEP_JSON + "}\n" + text[end:]
    page.write_text(text, encoding="utf-8")
    return pages


def _deep_expectations(folder: Path) -> Path:
    path = folder / "expected.yaml"
    path.write_text(
        "expectations:\n  - rule: RT-TOOL-7\n    reason: r\n    x: " + DEEP_JSON + "\n",
        encoding="utf-8",
    )
    return path


def _deep_replay(folder: Path) -> Path:
    path = folder / "counterexample.json"
    path.write_text('{"invariant": "no-loss", "x": ' + DEEP_JSON + "}", encoding="utf-8")
    return path


CASES = {
    "lint-front-matter": (lambda d: ["rules", "lint", str(_deep_page(d, "front-matter"))], 1),
    "lint-example": (lambda d: ["rules", "lint", str(_deep_page(d, "example"))], 1),
    "render": (lambda d: ["report", "render", str(_deep_standing(d)), "--out", str(d)], 2),
    "diff": (lambda d: ["report", "diff", str(_deep_standing(d)), str(_standing(d / "n"))], 2),
    "gate": (lambda d: ["report", "gate", str(_deep_standing(d))], 2),
    "gate-expectations": (
        lambda d: [
            "report",
            "gate",
            str(_standing(d / "s")),
            "--expectations",
            str(_deep_expectations(d)),
        ],
        2,
    ),
    "check-expectations": (
        lambda d: ["expectations", "check", str(_deep_expectations(d))],
        2,
    ),
    "run-expectations": (
        lambda d: ["run", "--no-hunt", "--expectations", str(_deep_expectations(d))],
        2,
    ),
    "replay": (lambda d: ["replay", str(_deep_replay(d))], 2),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_file_nested_too_deep_is_refused_in_one_line(
    case: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    build, code = CASES[case]
    args = build(tmp_path)
    capfd.readouterr()
    assert main(args) == code
    out, err = capfd.readouterr()
    said = [line for line in (out + err).splitlines() if "nested deeper than the limit" in line]
    assert len(said) == 1, out + err
    assert "Traceback" not in out + err
    line = said[0]
    assert "128" in line and "/0/0/0" in line  # the limit and the pointer
    named = [part for part in args if part.endswith((".json", ".yaml", ".md"))] or args[-1:]
    assert any(Path(name).name in line for name in named) or "pages" in line, line
