"""``--example-db``: hypothesis's databases, scoped by implementation and corpus, shared
across shards and runs; a Redis that goes away leaves the hunt going on local storage."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis.database import InMemoryExampleDatabase

from conformance._arguments import example_db
from conformance._redact import redacted
from conformance.hunt._database import ScopedDatabase, open_database
from tests.conformance._support import rttool
from tests.shard._redis import redis_server

#: A mutant the hunt finds at once: a repeat of a call reported as work (RT-TOOL-10).
MUTANT = "repeats-counted-as-work"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "url", ["dir:cache/examples", "redis://127.0.0.1:6379/0", "github-artifact:acme/runtime"]
)
def test_the_three_forms_are_taken(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cache").mkdir()  # a folder not there yet is made in one that is
    monkeypatch.chdir(tmp_path)
    assert example_db(url) == url


@pytest.mark.parametrize("url", ["", "dir:", "redis://", "github-artifact:acme", "s3://x", "a/b"])
def test_anything_else_is_refused(url: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="expected one of dir:PATH"):
        example_db(url)


def test_a_password_is_never_shown() -> None:
    assert redacted("redis://:s3cret@cache:6379/0") == "redis://***@cache:6379/0"
    assert redacted("redis://cache:6379/0?password=s3cret") == "redis://cache:6379/0?password=***"


def test_keys_are_scoped_and_deletions_kept_from_the_shared_store() -> None:
    store = InMemoryExampleDatabase()
    one = ScopedDatabase(store, b"runtime-a:", "dir:x")
    other = ScopedDatabase(store, b"runtime-b:", "dir:x")
    one.save(b"key", b"found")
    assert list(one.fetch(b"key")) == [b"found"] and one.replayed == 1
    assert list(other.fetch(b"key")) == [] and other.replayed == 0  # never another's
    one.delete(b"key", b"found")  # a shard that set the invariant aside
    assert list(other.fetch(b"key")) == []
    assert list(ScopedDatabase(store, b"runtime-a:", "dir:x").fetch(b"key")) == [b"found"]
    one.save(b"key.secondary", b"on the way")
    assert list(one.fetch(b"key.secondary")) == [b"on the way"]
    assert one.replayed == 1  # hypothesis's own sub-keys hold no saved bug


class _GoneAway(InMemoryExampleDatabase):
    def fetch(self, key: bytes) -> Iterable[bytes]:
        raise ConnectionRefusedError("the server went away")

    def save(self, key: bytes, value: bytes) -> None:
        raise ConnectionRefusedError("the server went away")


def test_a_store_that_goes_away_is_replaced_by_the_fallback_for_good() -> None:
    fallback = InMemoryExampleDatabase()
    scoped = ScopedDatabase(_GoneAway(), b"s:", "redis://h:1/0", fallback=fallback)
    scoped.save(b"key", b"value")
    assert scoped.lost
    assert list(fallback.fetch(b"s:key")) == [b"value"]
    assert list(scoped.fetch(b"key")) == [b"value"]


def test_a_github_artifact_is_read_only_and_findings_stay_local(tmp_path: Path) -> None:
    scoped = open_database("github-artifact:acme/runtime", b"s:", tmp_path / "local")
    scoped.save(b"key", b"value")  # no request: saving never reaches GitHub
    assert list((tmp_path / "local").rglob("*")), "the finding is kept locally"


def _hunt_entry(report: Path, name: str) -> dict[str, object]:
    standing = json.loads((report / "standing.json").read_text(encoding="utf-8"))
    for entry in standing["run"]["shard"]["hunt"]:
        if entry["check"]["name"] == name:
            return entry["check"]  # type: ignore[no-any-return]
    raise AssertionError(f"{name} not judged")


def _replayed(report: Path) -> int:
    standing = json.loads((report / "standing.json").read_text(encoding="utf-8"))
    return int(standing["hunt"]["replayed"])


@pytest.mark.slow
def test_a_bug_one_shard_found_is_replayed_first_by_the_next_through_redis(
    tmp_path: Path,
) -> None:
    with redis_server(tmp_path) as server:
        common = ["run", "-q", "--only", "RT-TOOL-10", "--examples", "25"]
        common += ["--hunt-seconds", "2", "--example-db", server.url]
        first = rttool(
            *common, "--mutant", MUTANT, "--shard", "1/2", "--report-dir", "s1", cwd=tmp_path
        )
        assert first.returncode == 1, first.stderr
        found = _hunt_entry(tmp_path / "s1", "hunt-work-reported")
        assert found["outcome"] == "failed"
        second = rttool(
            *common, "--mutant", MUTANT, "--shard", "2/2", "--report-dir", "s2", cwd=tmp_path
        )
        assert second.returncode == 0, second.stderr  # shard 2 reports no rule of its own
        replayed = _hunt_entry(tmp_path / "s2", "hunt-work-reported")
        assert replayed["outcome"] == "failed"
        # Its first example was the saved counterexample: found before anything else.
        assert "found after 1 examples" in str(replayed["message"])
        assert _replayed(tmp_path / "s2") >= 1
        steps = str(found["message"]).partition("steps: ")[2].partition(";")[0]
        assert steps and steps in str(replayed["message"])
        # Another runtime (the reference itself) shares the server, never the examples.
        clean = rttool(*common, "--shard", "2/2", "--report-dir", "clean", cwd=tmp_path)
        assert clean.returncode == 0, clean.stderr
        assert _replayed(tmp_path / "clean") == 0
        assert _hunt_entry(tmp_path / "clean", "hunt-work-reported")["outcome"] != "failed"
        merged = rttool("report", "merge", "s1", "s2", "--out", "merged", cwd=tmp_path)
        assert merged.returncode == 0, merged.stderr
        gated = rttool("report", "gate", "merged/standing.json", cwd=tmp_path)
        assert gated.returncode == 1  # the merged standing carries the finding
        # ... and the evidence it names, copied from the shard that found it.
        standing = json.loads((tmp_path / "merged" / "standing.json").read_text("utf-8"))
        named = {
            path
            for rule in standing["rules"]
            for clause in rule["clauses"]
            for check in clause["checks"]
            for path in check["evidence"].values()
            if path and check["outcome"] == "failed"
        }
        assert named and all((tmp_path / "merged" / path).is_file() for path in named)


@pytest.mark.slow
def test_a_redis_that_goes_away_leaves_the_run_going_on_local_storage(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        argv = [sys.executable, "-m", "conformance.cli", "run", "-q", "--only", "RT-TOOL-10"]
        argv += ["--examples", "25", "--hunt-seconds", "8", "--example-db", server.url]
        argv += ["--report-dir", str(tmp_path / "out")]
        run = subprocess.Popen(
            argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        while server.commands() < 2 and run.poll() is None:  # the hunt has reached Redis
            time.sleep(0.1)
        server.stop()
        _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    warnings = [line for line in err.splitlines() if "went away" in line]
    assert len(warnings) == 1 and warnings[0].startswith("rttool: warning: the example database")
    standing = json.loads((tmp_path / "out" / "standing.json").read_text(encoding="utf-8"))
    assert standing["hunt"]["examples"] > 0
    assert any("went away" in warning for warning in standing["warnings"])
