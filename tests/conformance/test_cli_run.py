"""``rttool run`` as a user meets it: refusals before anything runs, and the run whose
implementation cannot be driven, with credentials kept out of what it writes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from adapters.errors import SpecError
from conformance._arguments import positive_float, positive_int
from conformance._redact import redacted
from conformance.engine import resolve_spec
from tests.conformance._support import rttool


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--only", "RT-TOOL-99"], "--only names no rule or clause of the corpus"),
        (["--only", "rt-tool-7"], "did you mean RT-TOOL-7?"),
        (["--level", "core"], "--level core selects nothing"),
        (["--examples", "0"], "argument --examples: must be at least 1, got 0"),
        (["--timeout", "-1"], "argument --timeout: must be a number of seconds above 0"),
        (["-n", "0"], "argument -n/--workers: must be at least 1"),
        (["-n", "100000"], "argument -n/--workers: expected at most 64 workers"),
        (["--mutant", ""], "no such mutant"),
        (["--mutant", "bogus"], "no such mutant: name=bogus"),
        (["--impl", "foo"], "unknown implementation spec; use reference, python:MODULE:ATTR"),
        (["--impl", "python:no_such_module_xyz:create"], "no such harness module"),
        (["--api-key=s3cr3t"], "unrecognized arguments: --api-key=***"),
        (["--first", "RT-TOOL-99#c1/x"], "--first RT-TOOL-99#c1/x names no rule, clause or"),
    ],
)
def test_a_bad_selection_or_argument_is_refused_in_one_line(
    args: list[str], said: str, tmp_path: Path
) -> None:
    done = rttool("run", "--report-dir", str(tmp_path / "out"), *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr and "s3cr3t" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1  # one line, no usage block
    assert not (tmp_path / "out" / "standing.json").exists()


def test_a_run_tries_the_named_cases_first_and_may_stop_at_the_first_failure(
    tmp_path: Path,
) -> None:
    """``--first`` puts the named rule's cases first; ``--exitfirst`` stops at the first
    failing case, and the cases it never ran are untested, not errors."""
    out = tmp_path / "out"
    done = rttool(
        "run",
        *("--mutant", "malformed-calls-counted-as-work", "--no-hunt", "-q"),
        *("--only", "RT-TOOL-9", "--only", "RT-TOOL-10", "--first", "RT-TOOL-10", "-x"),
        *("--report-dir", str(out)),
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    standing = json.loads((out / "standing.json").read_text(encoding="utf-8"))
    checks = [
        (clause["id"], check)
        for rule in standing["rules"]
        for clause in rule["clauses"]
        for check in clause["checks"]
    ]
    failed = [at for at, check in checks if check["outcome"] == "failed"]
    assert failed == ["RT-TOOL-10#c4"]  # the first failing case, and nothing after it
    assert not [at for at, check in checks if check["outcome"] == "error"]
    rt9 = [check for at, check in checks if at.startswith("RT-TOOL-9#")]
    assert rt9 and all("stopped at its first failing case" in c["message"] for c in rt9)


def test_the_first_failure_stops_a_run_only_where_it_stays_a_failure(tmp_path: Path) -> None:
    """A case that fails where the standing then reads it as untested (no situation its
    clause names was reached) does not stop an ``--exitfirst`` run: the mutant, which
    never continues a turn cut by its time limit, fails RT-TOOL-10 ¶2's case of a retry
    refused on resume without reaching its situations, and the run must go on to DR-5's
    cases and fail, not end with nothing failed (exit 0, the mutant a survivor)."""
    out = tmp_path / "out"
    done = rttool(
        "run",
        *("--mutant", "time-limit-ends-turn", "--no-hunt", "-q"),
        *("--only", "RT-TOOL-10", "--only", "DR-5", "--first", "RT-TOOL-10", "-x"),
        *("--report-dir", str(out)),
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    standing = json.loads((out / "standing.json").read_text(encoding="utf-8"))
    failed = {
        clause["id"]
        for rule in standing["rules"]
        for clause in rule["clauses"]
        for check in clause["checks"]
        if check["outcome"] == "failed"
    }
    assert failed and all(clause.startswith("DR-5#") for clause in failed)


def test_a_quiet_run_prints_its_summary_only(tmp_path: Path) -> None:
    """``--quiet`` prints the table and one line counting what fails the gate; the
    failures themselves are in the reports, never one line each on the terminal."""
    loud, quiet = (
        rttool(
            "run",
            *("--mutant", "malformed-calls-counted-as-work", "--no-hunt", *flag),
            *("--only", "RT-TOOL-10", "--report-dir", str(tmp_path / name)),
            cwd=tmp_path,
        )
        for name, flag in (("loud", ()), ("quiet", ("-q",)))
    )
    assert loud.returncode == quiet.returncode == 1
    reasons = [line for line in loud.stdout.splitlines() if "RT-TOOL-10#c" in line]
    assert len(reasons) > 1  # a line per failing check without -q
    lines = quiet.stdout.splitlines()
    assert not [line for line in lines if "RT-TOOL-10#c" in line], lines
    assert f"rttool: {len(reasons)} findings fail the gate (listed in the reports)" in lines
    assert not quiet.stderr.strip(), quiet.stderr


def test_a_run_loads_no_pytest_plugin_it_does_not_name(tmp_path: Path) -> None:
    """A suite run is the suite's alone: a pytest plugin another installed package
    declares (here one that would fail every case, and leave a mark on import) is never
    loaded, while the run still judges its cases (its own plugins are named)."""
    site = tmp_path / "site"
    (site / "intruder-1.0.dist-info").mkdir(parents=True)
    (site / "intruder-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: intruder\nVersion: 1.0\n", encoding="utf-8"
    )
    (site / "intruder-1.0.dist-info" / "entry_points.txt").write_text(
        "[pytest11]\nintruder = intruder_plugin\n", encoding="utf-8"
    )
    mark = tmp_path / "imported"
    (site / "intruder_plugin.py").write_text(
        f"from pathlib import Path\nPath({str(mark)!r}).write_text('yes')\n"
        "def pytest_runtest_call(item):\n    raise AssertionError('intruder')\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    done = rttool(
        "run", "--only", "RT-TOOL-1#c1", "--no-hunt", "--report-dir", str(out), "-q",
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert not mark.exists()
    standing = json.loads((out / "standing.json").read_text(encoding="utf-8"))
    checks = [c for r in standing["rules"] for cl in r["clauses"] for c in cl["checks"]]
    assert checks and all(check["outcome"] == "passed" for check in checks)


def test_an_undrivable_run_leaves_a_junit_error_without_credentials(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = rttool(
        "run", "--impl", "stdio:false --token=SECRET123", "--report-dir", str(out), cwd=tmp_path
    )
    assert done.returncode == 3
    assert "could not be driven" in done.stderr and "SECRET123" not in done.stderr
    text = (out / "junit.xml").read_text(encoding="utf-8")
    assert "SECRET123" not in text
    root = ET.fromstring(text)
    (case,) = root.iter("testcase")
    error = case.find("error")
    assert case.get("name") == "handshake" and error is not None
    assert "exited before answering" in (error.get("message") or "")


def test_redaction_covers_urls_flags_variables_and_queries() -> None:
    # Any value of a URL's query may be a credential: none is shown.
    assert redacted("http://ann:pw@h:1/x?token=abc&page=2") == "http://***@h:1/x?token=***&page=***"
    assert redacted("stdio:API_KEY=k python h.py --api-key k2 --secret=s") == (
        "stdio:API_KEY=*** python h.py --api-key *** --secret=***"
    )
    assert redacted("the token was refused") == "the token was refused"
    # Quoted values go whole; ordinary words that merely contain a credential word stay.
    assert redacted('stdio:API_KEY="s 3" ./h --token \'t 4\' --password="p"') == (
        "stdio:API_KEY=*** ./h --token *** --password=***"
    )
    for plain in (
        "the idempotency-key header is missing",
        "a non-token value",
        "rt3-c1-key-by-key request=step",
        "max_tokens=100 keyed=3 monkey=banana",
    ):
        assert redacted(plain) == plain


def test_argument_types() -> None:
    import argparse

    assert positive_int("3") == 3 and positive_float("0.5") == 0.5
    for bad in ("0", "-2", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_int(bad)
    for bad in ("0", "-1", "nan", "inf", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_float(bad)


def test_spec_forms() -> None:
    assert resolve_spec("http://h:1", None) == "http://h:1"
    assert resolve_spec("reference", "m").endswith("?mutant=m")
    with pytest.raises(SpecError, match="applies only to the reference runtime"):
        resolve_spec("http://h:1", "m")
    with pytest.raises(SpecError, match="unknown implementation spec"):
        resolve_spec("ftp://h", None)


@pytest.mark.slow
def test_a_reproducible_report_comes_from_a_counted_seeded_hunt(tmp_path: Path) -> None:
    """``--reproducible`` alone (no ``CI=true``) makes the hunt judge exactly the example
    count asked for in one seeded search: two runs write the same standing, byte for
    byte, whatever the machine's load."""
    made = []
    for name in ("one", "two"):
        done = rttool(
            "run", "--only", "RT-TOOL-9", "--examples", "30", "--reproducible", "-q",
            "--report-dir", str(tmp_path / name),
            cwd=tmp_path,
            env={"CI": ""},
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        made.append((tmp_path / name / "standing.json").read_bytes())
    assert made[0] == made[1]
    assert json.loads(made[0])["hunt"]["examples"] == 30
