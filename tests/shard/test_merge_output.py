"""``rttool report merge`` on the standings of real shards: each share recomputed by the
engine's own split, ``--out`` never an input, the output folder made whole, and the
evidence copied once per real file under a total cap."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.cli import _merge_out, main
from conformance.report import Evidence, StandingReport, load_standing, to_json

_ONLY = ("--only", "RT-TOOL-1", "--only", "RT-TOOL-2")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two shards of a small reproducible run of the reference runtime, made once."""
    root = tmp_path_factory.mktemp("shards")
    for index in (1, 2):
        argv = ["run", "-q", "--no-hunt", "--reproducible", *_ONLY, "--shard", f"{index}/2"]
        assert main([*argv, "--report-dir", str(root / f"s{index}")]) == 0
    return root


@pytest.fixture
def shards(made: Path, tmp_path: Path) -> Path:
    """A copy of the shards this test may change."""
    for name in ("s1", "s2"):
        shutil.copytree(made / name, tmp_path / name, symlinks=True)
    return tmp_path


def _edit(folder: Path, change) -> StandingReport:  # type: ignore[no-untyped-def]
    path = folder / "standing.json"
    edited = change(load_standing(path))
    path.write_text(to_json(edited), encoding="utf-8")
    return edited


def _merge(root: Path, *extra: str, out: str = "merged") -> int:
    return main(
        ["report", "merge", str(root / "s1"), str(root / "s2"), "--out", str(root / out), *extra]
    )


def test_real_shards_merge(shards: Path) -> None:
    assert _merge(shards) == 0
    merged = load_standing(shards / "merged" / "standing.json")
    assert [rule.id for rule in merged.rules] == ["RT-TOOL-1", "RT-TOOL-2"]
    assert merged.run.shard is None


def _moved_to_left(report: StandingReport) -> StandingReport:
    info = report.run.shard
    assert info is not None and info.rules
    gone = info.rules[0]
    shard = replace(info, rules=info.rules[1:], left=(*info.left, gone))
    kept = tuple(rule for rule in report.rules if rule.id != gone)
    return replace(report, run=replace(report.run, shard=shard), rules=kept)


def _claims_every_rule(report: StandingReport) -> StandingReport:
    info = report.run.shard
    assert info is not None
    shard = replace(info, rules=tuple(sorted((*info.rules, *info.left))), left=())
    return replace(report, run=replace(report.run, shard=shard))


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (_moved_to_left, "to the others, but the split gives it to this shard"),
        (_claims_every_rule, "which the split gives to another shard"),
        (
            lambda r: replace(r, run=replace(r.run, shard=replace(r.run.shard, build="0ther"))),
            "a shard of another build of rttool cannot be verified",
        ),
    ],
)
def test_the_engines_split_is_recomputed_not_believed(  # type: ignore[no-untyped-def]
    shards: Path, capsys: pytest.CaptureFixture[str], change, said: str
) -> None:
    """The issue's probes on real shards: a rule moved from a shard's rules to its
    ``left`` (and out of its standing), a shard claiming every rule, a shard of another
    build: each refused in one line, exit 2, where the merge used to drop the rule."""
    _edit(shards / "s1", change)
    if "build" in said:
        _edit(shards / "s2", change)
    capsys.readouterr()
    assert _merge(shards) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
    assert not (shards / "merged").exists()


@pytest.mark.parametrize("out", ["s1", "s1/evidence", "."])
def test_out_is_never_an_input(shards: Path, capsys: pytest.CaptureFixture[str], out: str) -> None:
    """A shard's own folder, a folder inside it or one holding it: refused, and the
    shard's standing is left as it was."""
    before = (shards / "s1" / "standing.json").read_bytes()
    capsys.readouterr()
    assert _merge(shards, out=out) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--out must be a folder of its own" in err
    assert (shards / "s1" / "standing.json").read_bytes() == before


def test_the_output_folder_is_made_whole(shards: Path) -> None:
    """A merge in the default formats after one with ``--format all`` leaves no
    ``report.html``, ``junit.xml`` or badge of the earlier merge beside the new standing;
    what is not the report's stays."""
    assert _merge(shards, "--format", "all") == 0
    out = shards / "merged"
    assert {"report.html", "junit.xml", "badge.svg"} <= {path.name for path in out.iterdir()}
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    assert _merge(shards) == 0
    assert sorted(path.name for path in out.iterdir()) == [
        "STANDING.md",
        "notes.txt",
        "standing.json",
    ]


def _plant_evidence(folder: Path, names: list[str]) -> None:
    """Name each of ``names`` as the trace of one check of the shard's standing."""

    def naming(report: StandingReport) -> StandingReport:
        left = iter(names)
        rules = []
        for rule in report.rules:
            clauses = []
            for clause in rule.clauses:
                checks = tuple(
                    replace(check, evidence=Evidence(trace=name))
                    if (name := next(left, None))
                    else check
                    for check in clause.checks
                )
                clauses.append(replace(clause, checks=checks))
            rules.append(replace(rule, clauses=tuple(clauses)))
        assert next(left, None) is None, "not enough checks to name every file"
        return replace(report, rules=tuple(rules))

    _edit(folder, naming)


def test_evidence_is_copied_once_per_file_and_under_a_total_cap(
    shards: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Links naming one file many times are one copy (an 8 MB shard became 432 MB
    merged), and the copies stop at the total cap, each file left out said in a line."""
    monkeypatch.setattr(_merge_out, "EVIDENCE_TOTAL", 3_000_000)
    s1 = shards / ("s1" if load_standing(shards / "s1" / "standing.json").rules else "s2")
    evidence = s1 / "evidence"
    evidence.mkdir(exist_ok=True)
    (evidence / "big.json").write_bytes(b"x" * 1_000_000)
    links = [f"evidence/link-{n}.json" for n in range(5)]
    for name in links:
        (s1 / name).symlink_to("big.json")
    (evidence / "other.json").write_bytes(b"y" * 2_500_000)
    _plant_evidence(s1, ["evidence/big.json", *links, "evidence/other.json"])
    capsys.readouterr()
    assert _merge(shards) == 0
    err = capsys.readouterr().err
    copied = shards / "merged" / "evidence"
    assert (copied / "big.json").read_bytes() == b"x" * 1_000_000
    total = sum(path.stat().st_size for path in copied.iterdir())
    assert total == 1_000_000  # the links are one copy; other.json would pass the cap
    assert err.count("the same file as evidence/big.json, copied once") == len(links)
    assert "evidence/other.json: the evidence copied reached its total cap" in err
