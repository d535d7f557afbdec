"""The standings published in ``reports/`` are current, reproducible and linked.

Each committed ``standing.json`` and ``STANDING.md`` must be exactly what a fresh run
makes (so ``make run`` and ``make reports`` leave no tracked file modified), carry no
timings, and link only evidence that is committed beside them; ``reports/README.md``
must be their matrix.  Regenerate them with ``make reports`` (the reference's alone with
``make run``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.report import is_reproducible, load_standing, render
from tests.standings import COMMITTED, EVIDENCE, REPORTS, Committed, matrix_page, run_standing

REGENERATE = "the committed standings are out of date: regenerate them with `make reports`"


def _files(folder: Path) -> dict[str, bytes]:
    """The committed pair and every evidence file, by path relative to ``folder``."""
    found = {name: (folder / name).read_bytes() for name in ("standing.json", "STANDING.md")}
    for kind in EVIDENCE:
        for path in sorted((folder / kind).rglob("*")):
            if path.is_file():
                found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


@pytest.fixture(params=COMMITTED, ids=lambda entry: entry.name)
def entry(request: pytest.FixtureRequest) -> Committed:
    chosen: Committed = request.param
    assert (chosen.folder / "standing.json").is_file(), f"{chosen.name}: {REGENERATE}"
    return chosen


@pytest.mark.slow
def test_a_fresh_run_makes_exactly_the_committed_files(entry: Committed, tmp_path: Path) -> None:
    missing = entry.missing()
    if missing:
        pytest.skip(f"{entry.name}: {', '.join(missing)} not installed ({entry.install})")
    done = run_standing(entry, tmp_path, quiet=True)
    allowed = (0,) if entry.conforms else (0, 1)
    assert done.returncode in allowed, done.stdout + done.stderr
    if not entry.exact:
        assert _verdicts(tmp_path) == _verdicts(entry.folder), f"{entry.name}: {REGENERATE}"
        return
    fresh, committed = _files(tmp_path), _files(entry.folder)
    assert sorted(fresh) == sorted(committed), REGENERATE
    for name, content in fresh.items():
        assert content == committed[name], f"{entry.name}/{name}: {REGENERATE}"


def _verdicts(folder: Path) -> list[tuple[str, ...]]:
    """Every rule's and clause's standing, every entry's outcome, and the message of
    every entry but the hunt's (whose shrunk counterexample may differ)."""
    report = load_standing(folder / "standing.json")
    found: list[tuple[str, ...]] = []
    for rule in report.rules:
        found.append((rule.id, rule.standing))
        for clause in rule.clauses:
            found.append((clause.id, clause.standing))
            for check in clause.checks:
                hunted = check.hunt is not None
                found.append(
                    (clause.id, check.name, check.outcome, "" if hunted else check.message)
                )
    return found


def test_the_committed_standing_records_no_timing(entry: Committed) -> None:
    report = load_standing(entry.folder / "standing.json")
    assert is_reproducible(report), REGENERATE


def test_the_committed_page_renders_from_the_committed_json(entry: Committed) -> None:
    report = load_standing(entry.folder / "standing.json")
    page = b"".join(f.content for f in render(report, "markdown").files if f.path == "STANDING.md")
    assert page == (entry.folder / "STANDING.md").read_bytes(), REGENERATE


def test_every_linked_evidence_file_is_committed_and_nothing_else(entry: Committed) -> None:
    report = load_standing(entry.folder / "standing.json")
    linked = set(report.evidence_paths())
    present = {name for name in _files(entry.folder) if name.split("/")[0] in EVIDENCE}
    assert linked == present, REGENERATE


def test_the_reports_readme_is_the_matrix_of_the_committed_standings() -> None:
    readme = (REPORTS / "README.md").read_text("utf-8")
    assert readme == matrix_page(), REGENERATE


def test_an_implementation_without_its_dependencies_is_skipped_with_a_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.standings import __main__ as regenerate

    absent = Committed(
        name="absent",
        impl="python:absent_runtime.harness:create",
        requires=("absent_runtime_for_rttool_tests",),
        install="pip install -e '.[absent]'",
    )
    ran: list[str] = []
    monkeypatch.setattr(regenerate, "COMMITTED", (absent,))
    monkeypatch.setattr(regenerate, "run_standing", lambda entry, _: ran.append(entry.name))
    monkeypatch.setattr(regenerate, "write_matrix_pages", tuple)
    assert regenerate.main([]) == 0
    assert ran == []
    assert capsys.readouterr().out == (
        "standings: skipped absent: absent_runtime_for_rttool_tests not installed "
        "(install them with pip install -e '.[absent]')\n"
    )
