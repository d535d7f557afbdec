"""The map of which rules' cases run each line: anything unsure means the whole suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mutation._catalogue import Mutant
from mutation._reach import load_reach, rules_reaching


def _mutant(module: str, line: int) -> Mutant:
    return Mutant(f"{module}:f:AddNot:00000000", module, "f", "AddNot", 0, line, "x")


def test_a_line_some_rules_reach_is_judged_by_those_rules(tmp_path: Path) -> None:
    path = tmp_path / "reach.json"
    path.write_text(
        json.dumps({"journal.py": {"10": ["DR-1"], "11": ["*"], "12": ["DR-1", "RT-TOOL-6"]}})
    )
    reach = load_reach(path)
    assert rules_reaching(reach, _mutant("journal.py", 10)) == ("DR-1",)
    assert rules_reaching(reach, _mutant("journal.py", 12)) == ("DR-1", "RT-TOOL-6")
    # every rule's cases may depend on it; a line never run; a module never run
    assert rules_reaching(reach, _mutant("journal.py", 11)) == ()
    assert rules_reaching(reach, _mutant("journal.py", 13)) == ()
    assert rules_reaching(reach, _mutant("store.py", 10)) == ()


@pytest.mark.parametrize(
    "content",
    [
        "",
        "not json",
        "[]",
        json.dumps({"journal.py": ["DR-1"]}),
        json.dumps({"journal.py": {"10": "DR-1"}}),
        json.dumps({"journal.py": {"10": []}}),
        json.dumps({"journal.py": {"10": ["--only"]}}),
        json.dumps({"journal.py": {"10": ["DR-1", 3]}}),
    ],
)
def test_a_malformed_map_means_the_whole_suite(tmp_path: Path, content: str) -> None:
    path = tmp_path / "reach.json"
    path.write_text(content)
    assert rules_reaching(load_reach(path), _mutant("journal.py", 10)) == ()


def test_a_missing_map_means_the_whole_suite(tmp_path: Path) -> None:
    assert load_reach(tmp_path / "absent.json") == {}
