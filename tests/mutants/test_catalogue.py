"""The mutant catalogue: well formed, covering every clause, and built on demand."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.errors import SpecError
from conformance.rules import load_corpus
from reference_impl.behaviour import Components
from reference_impl.harness import create
from reference_impl.mutants import UnknownMutant, catalogue, components_for, find

ROOT = Path(__file__).resolve().parents[2]
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _listed(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference_impl.mutants", *options],
        capture_output=True,
        text=True,
        check=False,
    )


def test_names_are_unique_and_kebab_case() -> None:
    names = [mutant.name for mutant in catalogue()]
    assert len(names) == len(set(names))
    assert [name for name in names if not KEBAB.match(name)] == []


def test_every_mutant_breaks_real_clauses_and_says_what_is_broken() -> None:
    clauses = {clause.id for clause in load_corpus().clauses}
    for mutant in catalogue():
        assert mutant.breaks, mutant.name
        assert set(mutant.breaks) <= clauses, (mutant.name, mutant.breaks)
        assert mutant.description.strip() and "\n" not in mutant.description, mutant.name


def test_every_clause_of_the_corpus_is_broken_by_some_mutant() -> None:
    broken = {clause for mutant in catalogue() for clause in mutant.breaks}
    missing = [clause.id for clause in load_corpus().clauses if clause.id not in broken]
    assert missing == []


def test_the_hunt_has_combination_bugs_of_its_own_to_find() -> None:
    """At least four mutants only the hunt may catch: rttool selftest holds the checks to
    missing each, and the hunt to finding each in a short counterexample."""
    assert len([mutant for mutant in catalogue() if mutant.hunt]) >= 4


def test_each_mutant_builds_fresh_components() -> None:
    for mutant in catalogue():
        first, second = components_for(mutant.name), components_for(mutant.name)
        assert isinstance(first, Components)
        assert first is not second and first.behaviour is not second.behaviour
        # A mutant replaces at least one component of the production runtime.
        production = Components()
        replaced = [
            type(first.behaviour) is not type(production.behaviour),
            type(first.node) is not type(production.node),
            type(first.node.policy) is not type(production.node.policy),
            type(first.node.normalizer) is not type(production.node.normalizer),
            first.node.normalizer.max_passes != production.node.normalizer.max_passes,
            type(first.wire) is not type(production.wire),
            first.collector_class is not production.collector_class,
        ]
        assert any(replaced), mutant.name


def test_an_unknown_name_fails_cleanly_pointing_at_the_list() -> None:
    with pytest.raises(UnknownMutant) as caught:
        components_for("held-bound-keeps")
    message = str(caught.value)
    assert "name=held-bound-keeps" in message
    assert "rttool selftest --list" in message
    assert "held-bound-keeps-newest" in message  # a close name is suggested
    assert isinstance(caught.value, SpecError)
    assert isinstance(caught.value, LookupError)
    with pytest.raises(UnknownMutant):
        create(mutant="no-such-mutant")


def test_find_returns_the_named_mutant() -> None:
    assert find("read-only-tool-blocked").breaks == ("DR-3#c3",)


def test_the_handshake_declares_what_the_mutant_says_about_collection() -> None:
    assert create().request({"cmd": "hello"})["collects_artifacts"] is True
    lying = create(mutant="collection-stance-misdeclared").request({"cmd": "hello"})
    assert lying["collects_artifacts"] is False
    implementation = lying["implementation"]
    assert isinstance(implementation, dict)
    assert implementation["version"].endswith("+mutant.collection-stance-misdeclared")


def test_list_as_json_prints_the_catalogue() -> None:
    done = _listed("--list", "--format", "json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert listed == [
        {
            "name": m.name,
            "breaks": list(m.breaks),
            "description": m.description,
            "hunt": m.hunt,
            "hunted": m.hunted,
        }
        for m in catalogue()
    ]


def test_list_as_text_prints_a_line_per_mutant() -> None:
    done = _listed("--list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(catalogue())
    first = catalogue()[0]
    assert lines[0].split()[:2] == [first.name, first.breaks[0]]
    assert lines[0].endswith(first.description)


def test_without_list_it_is_a_usage_error() -> None:
    done = _listed()
    assert done.returncode == 2
    assert "use --list" in done.stderr
    assert _listed("--list", "--format", "yaml").returncode == 2


def test_the_stdio_harness_refuses_an_unknown_mutant_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reference_impl.harness", "--mutant", "no-such-mutant"],
        capture_output=True,
        text=True,
        input="",
        check=False,
    )
    assert done.returncode == 2
    assert "no such mutant: name=no-such-mutant" in done.stderr
    assert "Traceback" not in done.stderr


def _documented(table_heading: str) -> list[tuple[str, str, str]]:
    """The rows ``(clause, name, description)`` of the table after ``table_heading`` in
    docs/mutants.md."""
    text = (ROOT / "docs" / "mutants.md").read_text(encoding="utf-8")
    rows: list[tuple[str, str, str]] = []
    lines = text.split(table_heading, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        table.append(line)
    for line in table[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows.append((cells[0], cells[1].strip("`"), cells[2]))
    return rows


def test_the_guide_lists_every_mutant_as_the_catalogue_describes_it() -> None:
    ordinary = [(" ".join(m.breaks), m.name, m.description) for m in catalogue() if not m.hunt]
    combined = [(" ".join(m.breaks), m.name, m.description) for m in catalogue() if m.hunt]
    assert _documented("The hand-written checks must catch each of these:") == ordinary
    assert _documented("The combination mutants, which the hand-written checks") == combined


@pytest.mark.parametrize("package", ["reference_impl.mutants", "reference_impl.variants"])
def test_both_catalogues_are_printed_by_the_one_printer(package: str) -> None:
    from importlib import import_module

    from reference_impl._catalogue import catalogue_json, catalogue_text

    entries = import_module(package).catalogue()
    for options, printed in (((), catalogue_text), (("--format", "json"), catalogue_json)):
        done = subprocess.run(
            [sys.executable, "-m", package, "--list", *options],
            capture_output=True,
            text=True,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout == printed(entries)
    width = max(len(entry.name) for entry in entries)
    assert catalogue_text(entries[:1]).startswith(f"{entries[0].name}  ")
    assert catalogue_text(entries).splitlines()[0] == (
        f"{entries[0].name:<{width}}  {entries[0].listing()}"
    )
