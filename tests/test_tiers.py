"""The fast tier holds nothing costly: each costly thing refuses a test not marked slow,
naming it, before anything starts."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance import _variants
from conformance import selftest as engine
from reference_impl.server import process
from tests._tiers import slow_only
from tests.conformance._support import rttool

REFUSED = r"runs only in a test marked @pytest\.mark\.slow"


def _refused(what: str) -> str:
    return rf"test_tiers\.py::.*: {what}.* {REFUSED}"


def test_slow_only_fails_a_fast_test_naming_it() -> None:
    with pytest.raises(pytest.fail.Exception, match=_refused("something costly")):
        slow_only("something costly")


@pytest.mark.slow
def test_slow_only_lets_a_slow_test_through() -> None:
    slow_only("something costly")


def test_a_real_server_is_refused(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=_refused("a real HTTP server process")):
        process.spawn_server(tmp_path / "server.db", log_dir=tmp_path)
    assert not (tmp_path / "server.db").exists()  # refused before it started


def test_more_than_a_couple_of_mutants_or_variants_is_refused() -> None:
    mutants = engine.read_catalogue()[:3]
    with pytest.raises(pytest.fail.Exception, match=_refused("the self-test of more than 2")):
        next(iter(engine.run_mutants(mutants, None, [])))  # type: ignore[arg-type]
    variants = _variants.read_variants()[:3]
    with pytest.raises(pytest.fail.Exception, match=_refused("the self-test of more than 2")):
        _variants.run_variants(variants)


def test_the_whole_self_test_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.cli import main

    with pytest.raises(pytest.fail.Exception, match=_refused("the self-test of more than 2")):
        main(["selftest", "--format", "json"])


def test_a_pytest_run_with_workers_is_refused(pytester: pytest.Pytester) -> None:
    with pytest.raises(pytest.fail.Exception, match=_refused("a pytest run with worker")):
        pytester.runpytest("-n", "2")


def test_a_run_of_the_whole_suite_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def finished(exit_code: int) -> Callable[..., subprocess.CompletedProcess[str]]:
        # What the run would have said; nothing is started.
        return lambda command, **kwargs: subprocess.CompletedProcess(command, exit_code, "", "")

    monkeypatch.setattr(subprocess, "run", finished(1))
    with pytest.raises(pytest.fail.Exception, match=_refused("a run of the whole suite")):
        rttool("run", "--impl", "reference", cwd=tmp_path)
    # A run of some clauses is not, nor is a run refused before any case ran.
    assert rttool("run", "--only", "RT-TOOL-1#c1", cwd=tmp_path).returncode == 1
    monkeypatch.setattr(subprocess, "run", finished(2))
    assert rttool("run", "--level", "core", cwd=tmp_path).returncode == 2
