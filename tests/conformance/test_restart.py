"""The restart with string hashing fixed never loses or repeats work: only the console
script's own process starts again, only where its program can be read again and the
interpreter reads ``PYTHONHASHSEED``; an embedding program calls ``main()``, which never
restarts it, or ``run_with_fixed_hashing`` for a child with hashing fixed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance import cli, reproducible
from conformance.reproducible import hashing_fixed, restart_refused, run_with_fixed_hashing

#: A small run (one rule, no hunt) whose report shows it ran.
_RUN = ["run", "-q", "--no-hunt", "--only", "RT-TOOL-1", "--report-dir", "out"]


def _ci_environ() -> dict[str, str]:
    environ = {**os.environ, "CI": "true"}
    environ.pop("PYTHONHASHSEED", None)
    return environ


def _calling_main(*, before: str = "") -> str:
    """A program embedding rttool: ``before``, then ``main()`` on its command line."""
    return (
        "import sys\n"
        f"{before}\n"
        f"sys.argv = ['wrapper', *{_RUN!r}]\n"
        "from conformance.cli import main\n"
        "raise SystemExit(main())\n"
    )


def test_a_program_read_from_standard_input_runs_its_command(tmp_path: Path) -> None:
    """``python - < script.py`` calling ``main()`` in CI: the command runs here (it used
    to start again, find standard input spent, and exit 0 having run nothing)."""
    script = tmp_path / "script.py"
    script.write_text(_calling_main(), encoding="utf-8")
    with script.open("rb") as program:
        done = subprocess.run(
            [sys.executable, "-"],
            stdin=program,
            cwd=tmp_path,
            env=_ci_environ(),
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "standing.json").is_file()
    assert "string hashing is not fixed (rttool was called by another program)" in done.stderr


def test_a_wrapper_calling_main_does_its_own_work_once(tmp_path: Path) -> None:
    """A wrapper script that does some work and then calls ``main()`` in CI is never
    started again: its work is done once (it used to be done twice)."""
    script = tmp_path / "wrapper.py"
    work = "open('work.txt', 'a').write('done\\n')"
    script.write_text(_calling_main(before=work), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=_ci_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "work.txt").read_text(encoding="utf-8") == "done\n"
    assert (tmp_path / "out" / "standing.json").is_file()


def test_under_python_E_the_command_runs_as_it_is_and_says_so(tmp_path: Path) -> None:
    """``python -E`` ignores ``PYTHONHASHSEED``: a restart would set it in vain (hashing
    stays random), so the command runs here and one line says hashing is not fixed."""
    done = subprocess.run(
        [sys.executable, "-E", "-m", "conformance.cli", *_RUN],
        cwd=tmp_path,
        env=_ci_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("string hashing is not fixed (python -E (or -I) ignores") == 1


class _Restarted(Exception):
    pass


@pytest.fixture
def no_exec(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Calls to ``os.execve`` are recorded and stop the command, never replace the test."""
    started: list[list[str]] = []

    def execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        started.append(argv)
        raise _Restarted

    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    return started


def _ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from conformance.cli import _run

    ran: list[str] = []
    monkeypatch.setattr(_run, "run", lambda args: ran.append(args.command) or 0)
    return ran


@pytest.mark.parametrize("program", ["-", "", "a-pipe"])
def test_the_console_script_does_not_start_again_from_standard_input(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_exec: list[list[str]],
    tmp_path: Path,
    program: str,
) -> None:
    """``python - < script``, ``python < script`` and a program read from a pipe
    (``python <(...)``): the process runs its command as it is, never starting again."""
    if program == "a-pipe":
        program = str(tmp_path / "program")
        os.mkfifo(program)
    ran = _ran(monkeypatch)
    monkeypatch.setattr(sys, "argv", [program, "run", "--no-hunt"])
    assert cli.console() == 0
    assert no_exec == [] and ran == ["run"]
    assert "read from standard input or a pipe" in capsys.readouterr().err


def test_main_never_starts_its_caller_again(
    monkeypatch: pytest.MonkeyPatch, no_exec: list[list[str]], tmp_path: Path
) -> None:
    """Whatever its command line, ``main()`` runs the command in the caller's process."""
    ran = _ran(monkeypatch)
    script = tmp_path / "wrapper.py"
    script.write_text("", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", [str(script), "run", "--no-hunt"])
    assert cli.main() == 0
    assert no_exec == [] and ran == ["run"]


def test_an_interpreter_ignoring_the_environment_has_no_fixed_hashing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert hashing_fixed({"PYTHONHASHSEED": "0"}, ignored=False)
    assert not hashing_fixed({"PYTHONHASHSEED": "0"}, ignored=True)
    monkeypatch.setattr(sys, "flags", SimpleNamespace(ignore_environment=1))
    assert not hashing_fixed({"PYTHONHASHSEED": "0"})
    assert restart_refused() == "python -E (or -I) ignores PYTHONHASHSEED"


def test_an_embedder_runs_rttool_as_a_child_with_hashing_fixed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    called: list[tuple[list[str], dict[str, str]]] = []

    def call(argv: list[str], env: dict[str, str]) -> int:
        called.append((argv, env))
        return 1

    monkeypatch.setattr(subprocess, "call", call)
    assert run_with_fixed_hashing(["selftest"], environ={"CI": "true"}) == 1
    argv, env = called[0]
    assert argv == [sys.executable, "-P", "-m", "conformance.cli", "selftest"]
    assert env == {"CI": "true", "PYTHONHASHSEED": "0"}
    assert run_with_fixed_hashing(["run"], environ={"PYTHONHASHSEED": "5"}) == 1
    assert called[1][1] == {"PYTHONHASHSEED": "5"}  # a seed given is kept
    assert reproducible.HASH_SEED_VALUE == "0"


def test_a_program_that_is_a_file_or_a_launcher_may_start_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script = tmp_path / "rttool"
    script.write_text("", encoding="utf-8")
    for program in (str(script), "-c", str(tmp_path / "rttool-launcher-without-exe")):
        monkeypatch.setattr(sys, "argv", [program, "selftest"])
        assert restart_refused() is None, program
