"""The standings published in ``reports/`` are current, reproducible and linked.

Each committed ``standing.json`` and ``STANDING.md`` must be exactly what a fresh run
makes (so ``make run`` and ``make reports`` leave no tracked file modified), carry no
timings, and link only evidence that is committed beside them; ``reports/README.md``
must be their matrix.  Regenerate them with ``make reports`` (the reference's alone with
``make run``); how each is made is ``conformance.publish``, the product's, tested here.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.publish import (
    COMMITTED,
    EVIDENCE,
    Checkout,
    Committed,
    matrix_page,
    matrix_picture,
)
from conformance.report import is_reproducible, load_standing, render
from tests._standings import CHECKOUT, FreshStanding, group

REGENERATE = "the committed standings are out of date: regenerate them with `make reports`"


def _files(folder: Path) -> dict[str, bytes]:
    """The committed pair and every evidence file, by path relative to ``folder``."""
    found = {name: (folder / name).read_bytes() for name in ("standing.json", "STANDING.md")}
    for kind in EVIDENCE:
        for path in sorted((folder / kind).rglob("*")):
            if path.is_file():
                found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


def _folder(entry: Committed) -> Path:
    return entry.folder(CHECKOUT)


@pytest.fixture(
    params=[pytest.param(entry, marks=group(entry.name)) for entry in COMMITTED],
    ids=lambda entry: entry.name,
)
def entry(request: pytest.FixtureRequest) -> Committed:
    chosen: Committed = request.param
    assert (_folder(chosen) / "standing.json").is_file(), f"{chosen.name}: {REGENERATE}"
    return chosen


@pytest.mark.slow
def test_a_fresh_run_makes_exactly_the_committed_files(
    entry: Committed, fresh_standing: Callable[[str], FreshStanding]
) -> None:
    made = fresh_standing(entry.name)
    done, tmp_path = made.done, made.folder
    allowed = (0,) if entry.conforms else (0, 1)
    assert done.returncode in allowed, done.stdout + done.stderr
    if not entry.exact:
        assert _verdicts(tmp_path) == _verdicts(_folder(entry)), f"{entry.name}: {REGENERATE}"
        return
    fresh, committed = _files(tmp_path), _files(_folder(entry))
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
    report = load_standing(_folder(entry) / "standing.json")
    assert is_reproducible(report), REGENERATE


def test_the_committed_page_renders_from_the_committed_json(entry: Committed) -> None:
    report = load_standing(_folder(entry) / "standing.json")
    page = b"".join(f.content for f in render(report, "markdown").files if f.path == "STANDING.md")
    assert page == (_folder(entry) / "STANDING.md").read_bytes(), REGENERATE


def test_every_linked_evidence_file_is_committed_and_nothing_else(entry: Committed) -> None:
    report = load_standing(_folder(entry) / "standing.json")
    linked = set(report.evidence_paths())
    present = {name for name in _files(_folder(entry)) if name.split("/")[0] in EVIDENCE}
    assert linked == present, REGENERATE


def test_the_reports_readme_is_the_matrix_of_the_committed_standings() -> None:
    readme = (CHECKOUT.reports / "README.md").read_text("utf-8")
    assert readme == matrix_page(CHECKOUT), REGENERATE


def test_the_picture_the_readme_shows_is_the_grid_of_the_committed_standings() -> None:
    picture = (CHECKOUT.reports / "matrix.svg").read_text("utf-8")
    assert "](matrix.svg)" in matrix_page(CHECKOUT)
    assert picture == matrix_picture(CHECKOUT), REGENERATE


def test_an_implementation_without_its_dependencies_is_skipped_with_a_line(
    tmp_path: Path,
) -> None:
    from conformance.cli._publish import publication_text, step_text
    from conformance.publish import publish

    absent = Committed(
        name="absent",
        impl="python:absent_runtime.harness:create",
        requires=("absent_runtime_for_rttool_tests",),
        install="pip install -e '.[absent]'",
    )
    published = Committed(name="reference", impl="reference")
    (tmp_path / "reports" / "reference").mkdir(parents=True)
    shutil.copy(_folder(published) / "standing.json", tmp_path / "reports" / "reference")
    said: list[str] = []
    done = publish(
        Checkout.at(tmp_path),
        (absent,),
        entries=(published, absent),
        progress=lambda step: said.append(step_text(step).out),
    )
    said.append(publication_text(done).out)
    assert (done.exit_code, [step.exit_code for step in done.steps]) == (0, [None])
    assert "".join(said) == (
        "rttool publish: skipped absent: absent_runtime_for_rttool_tests not installed "
        "(install them with pip install -e '.[absent]')\n"
        "rttool publish: wrote reports/README.md\n"
        "rttool publish: wrote reports/index.html\n"
        "rttool publish: wrote reports/matrix.svg\n"
    )
    assert "reference" in (tmp_path / "reports" / "README.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["publish", "no-such-runtime"], "no such published standing: name=no-such-runtime"),
        (["publish", "--root", "."], "not a checkout of rttool"),
    ],
)
def test_publish_refuses_an_unknown_name_or_a_folder_that_is_not_a_checkout(
    arguments: list[str],
    said: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path if "--root" in arguments else CHECKOUT.root)
    assert main(arguments) == 2
    assert said in capsys.readouterr().err
