"""Each shipped harness's README explains every clause its committed standing fails.

A standing says which clauses a framework does not meet; the harness's README says, for
each, what the framework does that breaks the clause's words (or what the harness cannot
do). The table and the standing must name the same clauses, so that a verdict that
changes (a check charged to another clause, a framework upgrade) cannot leave the
explanation behind.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The published standing's folder under reports/ -> the harness's folder under harnesses/
# (a path: the JavaScript harnesses live under harnesses/js/).
HARNESSES = {
    "langgraph": "langgraph",
    "pydantic-ai": "pydanticai",
    "adk": "adk",
    "smolagents": "smol",
    "llamaindex": "llamaindex",
    "autogen": "autogen",
    "openai-agents-js": "js/openai-agents",
}

_CELL = re.compile(r"^(?P<rule>(?:RT-TOOL|DR)-\d+) (?P<numbers>¶\d+(?:, ¶\d+)*)$")


def failing_in_standing(name: str) -> set[str]:
    """The citations of the clauses ``reports/<name>/standing.json`` reports failing."""
    standing = json.loads((ROOT / "reports" / name / "standing.json").read_text("utf-8"))
    return {
        clause["citation"]
        for rule in standing["rules"]
        for clause in rule["clauses"]
        if clause["standing"] == "does-not-conform"
    }


def failing_in_readme(text: str) -> list[str]:
    """The clauses the first table of the README's ``## Failing clauses`` section
    explains, one per citation.

    A row may name several clauses of one rule (``RT-TOOL-8 ¶1, ¶2, ¶4``)."""
    section = text.split("## Failing clauses", 1)
    assert len(section) == 2, "the README has no '## Failing clauses' section"
    cited: list[str] = []
    started = False
    for line in section[1].splitlines():
        if not line.startswith("|"):
            if started:  # the section's first table ends here; what follows is prose
                break
            continue
        started = True
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] in {"clause", "---"}:
            continue
        match = _CELL.match(cells[0])
        assert match, f"a row's first cell is not a clause citation: {cells[0]!r}"
        assert len(cells) > 1 and cells[1], f"the row for {cells[0]} explains nothing"
        numbers = match["numbers"].split(", ")
        cited.extend(f"{match['rule']} {number}" for number in numbers)
    return cited


@pytest.mark.parametrize("name", sorted(HARNESSES))
def test_the_readme_explains_exactly_the_failing_clauses(name: str) -> None:
    readme = ROOT / "harnesses" / HARNESSES[name] / "README.md"
    cited = failing_in_readme(readme.read_text("utf-8"))
    assert len(cited) == len(set(cited)), f"{readme.name} explains a clause twice"
    failing = failing_in_standing(name)
    assert set(cited) == failing, (
        f"unexplained: {sorted(failing - set(cited))}; "
        f"explained but not failing: {sorted(set(cited) - failing)}"
    )


def test_the_table_reader_expands_a_row_of_several_clauses() -> None:
    text = "## Failing clauses\n\n| clause | what breaks it |\n| --- | --- |\n"
    text += "| RT-TOOL-8 ¶1, ¶2, ¶4 | no decoding |\n| DR-2 ¶2 | no note |\n\nWas:\n\n| x | y |\n"
    assert failing_in_readme(text) == ["RT-TOOL-8 ¶1", "RT-TOOL-8 ¶2", "RT-TOOL-8 ¶4", "DR-2 ¶2"]


def test_the_table_reader_refuses_a_row_that_explains_nothing() -> None:
    text = "## Failing clauses\n\n| clause | what breaks it |\n| --- | --- |\n| RT-TOOL-1 ¶1 |  |\n"
    with pytest.raises(AssertionError, match="explains nothing"):
        failing_in_readme(text)
