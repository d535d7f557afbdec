"""``rttool selftest``: says so when a mutant survives or is missed.

That the suite kills every mutant by its own clauses, and every legal variant conforms,
is ``make selftest`` itself (part of ``make test``), whose exit code says all of it: the
tests here hold that exit code and report to what they mean, with stand-in cases.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from adapters.errors import BadJson
from conformance import selftest as engine
from conformance.cli import main
from conformance.engine import Case
from conformance.rules import Corpus
from conformance.toolkit import CheckContext


def _case(clause: str, run: Callable[[CheckContext], None]) -> Case:
    return Case(
        id=f"{clause}/fake",
        name="fake",
        kind="check",
        clauses=(clause,),
        summary="a stand-in case",
        run=run,
    )


def _passes(ctx: CheckContext) -> None:
    """A case that catches nothing."""


def _fails(ctx: CheckContext) -> None:
    ctx.fail("caught by a stand-in")


def _only_cases(monkeypatch: pytest.MonkeyPatch, *cases: Case) -> None:
    def stand_ins(corpus: Corpus) -> list[Case]:
        return list(cases)

    monkeypatch.setattr(engine, "suite_cases", stand_ins)


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, dict)
    return out


def _mutants(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    mutants = _json(capsys)["mutants"]
    assert isinstance(mutants, list)
    return mutants


def test_a_mutant_nothing_catches_survives_and_fails_the_selftest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _only_cases(monkeypatch, _case("RT-TOOL-1#c1", _passes))
    code = main(["selftest", "--format", "json", "--only", "result-missing-error-key"])
    report = _json(capsys)
    assert code == 1
    assert report["mutants"] == [
        {
            "name": "result-missing-error-key",
            "breaks": ["RT-TOOL-1#c1"],
            "caught": False,
            "caught_by": [],
            "missed": ["RT-TOOL-1#c1"],
            "caught_by_cases": [],
            "beyond": [],
        }
    ]
    assert (report["killed"], report["total"], report["uncovered"]) == (0, 1, [])
    assert report["unproven"] == []  # only known when every mutant ran


def test_text_output_names_the_survivor(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _only_cases(monkeypatch, _case("RT-TOOL-1#c1", _passes))
    assert main(["selftest", "--only", "result-missing-error-key"]) == 1
    out = capsys.readouterr().out
    assert "restricted mode" in out and "what CI runs" in out and "--full" in out
    assert "result-missing-error-key" in out and "caught: NO" in out
    assert "killed 0 of 1 mutant in" in out
    assert "surviving mutants: result-missing-error-key" in out


def test_a_catch_by_another_clause_is_reported_missed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _only_cases(monkeypatch, _case("RT-TOOL-1#c2", _fails), _case("RT-TOOL-1#c1", _passes))
    code = main(["selftest", "--format", "json", "--only", "result-missing-error-key"])
    (mutant,) = _mutants(capsys)
    assert (mutant["caught"], mutant["caught_by"], mutant["missed"]) == (
        True,
        ["RT-TOOL-1#c2"],
        ["RT-TOOL-1#c1"],
    )
    assert code == 1


def test_restricted_mode_runs_only_the_rules_a_mutant_breaks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A failing case of another rule is not run by default, and is with --full.
    _only_cases(monkeypatch, _case("RT-TOOL-2#c1", _fails), _case("RT-TOOL-1#c1", _fails))
    main(["selftest", "--format", "json", "--only", "result-missing-error-key"])
    assert _mutants(capsys)[0]["caught_by"] == ["RT-TOOL-1#c1"]
    main(["selftest", "--format", "json", "--full", "--only", "result-missing-error-key"])
    assert _mutants(capsys)[0]["caught_by"] == [
        "RT-TOOL-1#c1",
        "RT-TOOL-2#c1",
    ]


def test_an_uncovered_clause_fails_the_selftest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only = engine.MutantInfo("result-missing-error-key", ("RT-TOOL-1#c1",), "one mutant")
    monkeypatch.setattr(engine, "read_catalogue", lambda: (only,))
    _only_cases(monkeypatch, _case("RT-TOOL-1#c1", _fails))
    # The legal variants have nothing to do with which clauses the mutants cover.
    code = main(["selftest", "--format", "json", "--no-variants"])
    report = _json(capsys)
    assert report["variants"] == []
    assert report["killed"] == report["total"] == 1
    uncovered = report["uncovered"]
    assert isinstance(uncovered, list) and "RT-TOOL-1#c2" in uncovered
    assert "RT-TOOL-1#c1" not in uncovered and "DR-6#c5" in uncovered
    assert code == 1


def test_an_unknown_mutant_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--only", "no-such-mutant"]) == 2
    err = capsys.readouterr().err
    assert "no such mutant: no-such-mutant" in err and "rttool selftest --list" in err


def test_list_names_every_mutant_without_running_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("held-bound-keeps-newest ") for line in out)
    assert any(line.endswith("(hunt only)") for line in out)
    assert "caught" not in "".join(out)


def test_list_in_json_gives_both_catalogues(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance._variants import read_variants

    assert main(["selftest", "--list", "--format", "json"]) == 0
    listed = _json(capsys)
    assert [m["name"] for m in listed["mutants"]] == [m.name for m in engine.read_catalogue()]
    assert [v["name"] for v in listed["variants"]] == [v.name for v in read_variants()]
    assert {"name", "breaks", "description", "hunt", "hunted"} == set(listed["mutants"][0])
    assert {"name", "reading", "clauses", "description"} == set(listed["variants"][0])


def test_a_case_no_mutant_made_fail_is_unproven() -> None:
    from conformance.selftest import MutantResult, unproven_cases

    cases = [_case("RT-TOOL-1#c1", _passes), _case("RT-TOOL-1#c2", _passes)]
    caught = MutantResult(
        "m",
        ("RT-TOOL-1#c1",),
        True,
        ("RT-TOOL-1#c1",),
        (),
        2,
        0.1,
        caught_by_cases=(cases[0].id,),
    )
    assert unproven_cases(cases, [caught]) == (cases[1].id,)


def test_a_bad_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["selftest", "--format", "yaml"])
    assert exited.value.code == 2


@pytest.mark.parametrize(
    ("text", "pointer"),
    [
        ("[]", "/"),
        ('[{"name": "Bad Name", "breaks": ["RT-TOOL-1#c1"], "description": ""}]', "/0/name"),
        ('[{"name": "ok", "breaks": [], "description": ""}]', "/0/breaks"),
        ('[{"name": "ok", "breaks": ["RT-TOOL-1"], "description": ""}]', "/0/breaks/0"),
        ('[{"name": "ok", "breaks": ["RT-TOOL-1#c1"], "description": 3}]', "/0/description"),
        ('[{"name": "ok", "breaks": ["RT-TOOL-1#c1"], "description": ""}, 7]', "/1"),
    ],
)
def test_a_malformed_catalogue_is_refused_with_its_pointer(text: str, pointer: str) -> None:
    with pytest.raises(BadJson) as refused:
        engine.parse_catalogue(text)
    assert f"pointer={pointer}" in str(refused.value)


def test_duplicate_names_and_non_json_are_refused() -> None:
    entry = {"name": "twice", "breaks": ["RT-TOOL-1#c1"], "description": "x"}
    with pytest.raises(BadJson, match="name=twice"):
        engine.parse_catalogue(json.dumps([entry, entry]))
    with pytest.raises(BadJson, match="not JSON"):
        engine.parse_catalogue("not json")


def test_the_catalogue_is_read_from_the_reference_runtime() -> None:
    catalogue = engine.read_catalogue()
    assert any(
        m.name == "held-lost-on-failed-write-back" and m.breaks == ("RT-TOOL-7#c4",)
        for m in catalogue
    )


@pytest.mark.parametrize(
    ("alone", "steps", "hunt_only", "clean"),
    [
        (False, 3, True, True),
        (True, 3, True, False),  # a combination bug the checks catch is no combination bug
        (True, 3, False, True),  # a mutant the hunt must find as well as the checks
        (False, None, True, False),  # not found
        (False, engine.MAX_COUNTEREXAMPLE_STEPS, True, True),
        (False, engine.MAX_COUNTEREXAMPLE_STEPS + 1, True, False),  # too long to read
    ],
)
def test_a_hunted_mutant_is_clean_only_when_the_hunt_finds_it_short(
    alone: bool, steps: int | None, hunt_only: bool, clean: bool
) -> None:
    verdict = engine.HuntVerdict(alone, steps, 10, 0.1, hunt_only=hunt_only, invariants=("x",))
    caught = engine.MutantResult("m", ("DR-1#c1",), True, ("DR-1#c1",), (), 1, 0.1, hunt=verdict)
    assert caught.clean is clean
    missed = engine.MutantResult("m", ("DR-1#c1",), True, (), ("DR-1#c1",), 1, 0.1, hunt=verdict)
    assert missed.clean is False
