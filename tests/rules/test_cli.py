"""``rttool rules``: output formats and exit codes (0 clean, 1 finding, 2 usage)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.rules import load_corpus
from tests.rules._paths import (
    DR_CLAUSES,
    LINT_FIXTURES,
    RT_TOOL_CLAUSES,
    UPSTREAM,
    copy_corpus,
    copy_upstream,
)


def test_lint_the_bundled_corpus_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "lint"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "16 files, 0 errors, 0 warnings\n"


def test_lint_errors_exit_1_with_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    folder = LINT_FIXTURES / "verdict-unknown"
    assert main(["rules", "lint", str(folder)]) == 1
    assert capsys.readouterr().out == (
        f"{folder}/RT-TOOL-5.md:55: verdict-unknown: example 2 has unknown verdict 'vanished'\n"
    )


def test_lint_warnings_alone_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "lint", str(LINT_FIXTURES / "related-unknown" / "RT-TOOL-5.md")]) == 0
    assert ": related-unknown: warning: " in capsys.readouterr().out


def test_lint_a_missing_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "lint", str(tmp_path / "nowhere")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_lint_paths_are_shown_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(LINT_FIXTURES / "rule-hash", tmp_path / "pages")
    monkeypatch.chdir(tmp_path)
    assert main(["rules", "lint", "pages"]) == 1
    assert capsys.readouterr().out.startswith("pages/RT-TOOL-5.md:13: rule-hash: ")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["rules", "list", "--format", "yaml"])
    assert raised.value.code == 2
    assert main(["rules"]) == 2
    assert main(["rules", "show", "RT-TOOL-99"]) == 2
    assert "no such rule in the corpus" in capsys.readouterr().err


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == [f"RT-TOOL-{n}" for n in range(1, 11)] + [
        f"DR-{n}" for n in range(1, 7)
    ]
    assert [row["clauses"] for row in rows] == [*RT_TOOL_CLAUSES, *DR_CLAUSES]
    assert set(rows[0]) == {
        "id",
        "title",
        "level",
        "profiles",
        "posture",
        "clauses",
        "examples",
        "file",
    }
    assert rows[6]["examples"] == 1
    assert rows[6]["file"].endswith("RT-TOOL-7.md")
    assert rows[-1]["profiles"] == ["durable-resume"]


def test_list_text_is_a_table_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:6] == ["ID", "LEVEL", "POSTURE", "PROFILES", "CLAUSES", "EXAMPLES"]
    assert len(lines) == 18
    title_column = lines[0].index("TITLE")
    assert [line[title_column:] for line in lines[1:-1]] == [rule.title for rule in load_corpus()]
    clauses_end = lines[0].index("CLAUSES") + len("CLAUSES")
    assert [line[:clauses_end].split()[-1] for line in lines[1:-1]] == [
        str(count) for count in (*RT_TOOL_CLAUSES, *DR_CLAUSES)
    ]
    assert lines[-1] == (
        "16 rules, 74 clauses, 39 examples (RT-TOOL: 10 rules, 46 clauses, 23 examples; "
        "DR: 6 rules, 28 clauses, 16 examples)"
    )


def test_show_json_has_clause_ids_citations_and_examples(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "show", "RT-TOOL-7", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["id"] == "RT-TOOL-7"
    assert shown["rule_hash"] == shown["computed_hash"] == "f0f3b75bf81e"
    assert [clause["id"] for clause in shown["clauses"]] == [f"RT-TOOL-7#c{n}" for n in range(1, 6)]
    assert shown["clauses"][1]["citation"] == "RT-TOOL-7 ¶2"
    assert shown["examples"][0]["verdict"] == "held"
    assert shown["examples"][0]["value"]["tool_call_id"] == "call_1"
    assert shown["names"] == shown["referenced_by"] == ["RT-TOOL-4", "RT-TOOL-6"]


def test_show_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "DR-4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("DR-4 — An interrupted write is not blindly retried\n")
    assert "  DR-4 ¶2  [DR-4#c2, line 25]  An identical retry" in out
    assert "Names: DR-1, DR-3\n" in out


def test_import_writes_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pages"
    assert main(["rules", "import", str(UPSTREAM), "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"wrote {out / 'RT-TOOL-1.md'}"
    assert sorted(path.name for path in out.iterdir()) == sorted(
        f"RT-TOOL-{n}.md" for n in range(1, 11)
    )
    assert main(["rules", "lint", str(out)]) == 0


def test_import_counts_own_rules_naming_upstream_ones(tmp_path: Path) -> None:
    folder = copy_corpus(tmp_path)
    page = folder / "DR-6.md"
    page.write_text(
        page.read_text("utf-8").replace("- Names: DR-3, DR-5", "- Names: RT-TOOL-9, DR-3, DR-5")
    )
    assert main(["rules", "import", str(UPSTREAM), "--out", str(folder)]) == 0
    assert "- Referenced by: RT-TOOL-10, DR-6\n" in (folder / "RT-TOOL-9.md").read_text("utf-8")


def test_import_of_something_else_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "import", str(tmp_path)]) == 2
    assert "not an upstream checkout" in capsys.readouterr().err


def test_check_upstream_same(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "check-upstream", str(UPSTREAM)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"RT-TOOL-{n} same" for n in range(1, 11)]


def test_check_upstream_difference_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_upstream(tmp_path)
    (root / "rules" / "RT-TOOL-6.yml").unlink()
    folder = copy_corpus(tmp_path)
    assert main(["rules", "check-upstream", str(root), "--corpus", str(folder)]) == 1
    assert "RT-TOOL-6 extra" in capsys.readouterr().out.splitlines()


def test_a_broken_corpus_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = copy_corpus(tmp_path)
    (folder / "DR-2.md").write_text("not a page", "utf-8")
    assert main(["rules", "list", "--corpus", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "DR-2.md:1: front-matter-missing" in err
    assert "Traceback" not in err


def test_lint_a_folder_without_pages_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "lint", str(tmp_path)]) == 2
    assert "no rule pages" in capsys.readouterr().err


def test_an_upstream_file_without_its_fields_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_upstream(tmp_path)
    (root / "rules" / "schema.json").unlink()
    one = root / "rules" / "RT-TOOL-1.yml"
    one.write_text(one.read_text("utf-8").replace("title:", "heading:"), "utf-8")
    assert main(["rules", "check-upstream", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rttool: error: upstream rule file lacks a field: ")
    assert "field=title" in err
