"""A mutant's suite run forked from a warm parent, of the cases of the rules that reach
its line, ends as a fresh process's run of the whole suite does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mutation._catalogue import Mutant, enumerate_mutants, load_modules
from mutation._execute import EXIT_UNDRIVABLE, HuntPlan, Outcome, Status, Workspace
from mutation._reach import Reach, cases_reaching, load_order, load_reach, rules_reaching
from mutation._run import baseline, run_mutants
from mutation._warm import SERVER_COMMAND, WarmParent, WarmPool

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "reference_impl"

# Two mutants the suite kills (a store that never migrates its schema, a journal entry
# written with the wrong flag: only DR-1's cases run its line) and one it cannot (the
# catalogue printer's exit status).
KILLED = (
    "store.py:Store._version:ReplaceComparisonOperator_Gt_Eq:cdbe314a",
    "journal.py:Journal.to_json:ReplaceTrueWithFalse:72ed70ba",
)
SURVIVING = "_catalogue.py:catalogue_main:NumberReplacer:06d3d9b2"


def _run(
    chosen: list[Mutant], sources: dict[str, str], work: Path, warm: bool
) -> tuple[list[Outcome], Reach]:
    hunt = HuntPlan(seed=23, examples=10)
    work.mkdir(parents=True)
    env = Workspace(work, PACKAGE, hunt).parent_environment()
    pool = WarmPool(env, work) if warm else None
    reach: Reach = {}
    if warm:  # the unmutated run records which rules' cases run each line
        first = WarmParent(env, work)
        try:
            baseline(work, PACKAGE, hunt, first, work / "reach.json")
        finally:
            first.close()
        reach = load_reach(work / "reach.json")
    try:
        outcomes, interrupted = run_mutants(
            chosen,
            sources,
            PACKAGE,
            work,
            jobs=1,
            timeout=300.0,
            log=work / "outcomes.jsonl",
            report=lambda mutant, outcome: None,
            hunt=hunt,
            warm=pool,
            reach=reach,
        )
    finally:
        if pool is not None:
            pool.close()
    assert not interrupted
    return sorted(outcomes, key=lambda outcome: outcome.mutant_id), reach


@pytest.mark.slow
def test_forked_and_spawned_runs_end_alike(tmp_path: Path) -> None:
    modules = load_modules(PACKAGE)
    sources = {module.name: module.text for module in modules}
    by_id = {mutant.id: mutant for mutant in enumerate_mutants(modules)}
    chosen = [by_id[ident] for ident in (*KILLED, SURVIVING)]
    # A fresh process per mutant for the killed ones only: a survivor's run is the whole
    # suite, the same code path as theirs but five times the cost.
    spawned, _ = _run(chosen[: len(KILLED)], sources, tmp_path / "spawned", warm=False)
    forked, reach = _run(chosen, sources, tmp_path / "forked", warm=True)
    # The journal's mutant is judged by the cases of the one rule that runs its line.
    assert rules_reaching(reach, by_id[KILLED[1]]) == ("DR-1",)
    # ... and the cases that ran it, recorded beside the map, go first in its run.
    first = cases_reaching(load_order(tmp_path / "forked" / "order.json"), by_id[KILLED[1]])
    assert first and all(case.startswith("DR-1#") for case in first)
    statuses = {outcome.mutant_id: outcome.status for outcome in forked}
    assert statuses == {
        KILLED[0]: Status.KILLED,
        KILLED[1]: Status.KILLED,
        SURVIVING: Status.SURVIVED,
    }
    assert [
        (o.mutant_id, o.status, o.exit_code, o.detail, o.hunt_only)
        for o in forked
        if o.mutant_id != SURVIVING
    ] == [(o.mutant_id, o.status, o.exit_code, o.detail, o.hunt_only) for o in spawned]


@pytest.mark.slow  # a warm parent loads the suite in an interpreter of its own
def test_a_fork_runs_the_copy_with_its_scratch_and_error_output(tmp_path: Path) -> None:
    """The fork's runtime comes from the workspace's copy, its temporary files stay in the
    workspace, and what it writes on standard error is what the driver reads."""
    space = Workspace(tmp_path / "m", PACKAGE)
    space.prepare("__init__.py", "raise RuntimeError('the copy was imported')\n")
    parent = WarmParent(space.parent_environment(), tmp_path)
    try:
        ended = parent.run(space, ["run", "--impl", "reference", "--no-hunt", "--quiet"], 120.0)
    finally:
        parent.close()
    assert ended is not None
    code, timed_out = ended
    # The copy's runtime cannot be imported: the implementation cannot be driven.
    assert (code, timed_out) == (EXIT_UNDRIVABLE, False)
    assert "the copy was imported" in space.stderr_tail()


def test_a_parent_that_cannot_start_leaves_the_run_to_a_fresh_process(tmp_path: Path) -> None:
    space = Workspace(tmp_path / "m", PACKAGE)
    space.prepare()
    # The parent's interpreter cannot find the suite: it never says it is ready.
    env = {"PATH": "", "PYTHONNOUSERSITE": "1", "PYTHONHOME": str(tmp_path)}
    parent = WarmParent(env, tmp_path)
    assert parent.run(space, ["--version"], 30.0) is None
    assert parent.broken
    assert parent.run(space, ["--version"], 30.0) is None


@pytest.mark.slow  # a warm parent loads the suite in an interpreter of its own
def test_the_server_answers_one_json_line_per_request(tmp_path: Path) -> None:
    """``rttool --version`` in a fork: exit code 0, and its output never reaches the
    reply channel."""
    import subprocess

    space = Workspace(tmp_path / "m", PACKAGE)
    space.prepare()
    request = {
        "source": str(space.source),
        "scratch": str(space.scratch),
        "stderr": str(space.root / "stderr.txt"),
        "argv": ["--version"],
        "timeout": 60,
    }
    done = subprocess.run(
        [sys.executable, *SERVER_COMMAND],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"ready": True},
        {"exit_code": 0, "timed_out": False},
    ]


@pytest.mark.slow  # a warm parent loads the suite in an interpreter of its own
def test_the_server_answers_a_bad_request_in_one_line_and_goes_on(tmp_path: Path) -> None:
    """A ``timeout`` that is not a number is answered with one error line, not a
    traceback; a fork that cannot start the suite (its scratch folder is missing) ends
    with :data:`EXIT_NOT_STARTED`, never 1 (a finding); the next request is served."""
    import subprocess

    from conformance.cli.mutant_server import EXIT_NOT_STARTED

    space = Workspace(tmp_path / "m", PACKAGE)
    space.prepare()
    good = {
        "source": str(space.source),
        "scratch": str(space.scratch),
        "stderr": str(space.root / "stderr.txt"),
        "argv": ["--version"],
        "timeout": 60,
    }
    requests = [
        {**good, "timeout": "abc"},
        {**good, "scratch": str(tmp_path / "missing")},
        good,
    ]
    done = subprocess.run(
        [sys.executable, *SERVER_COMMAND],
        input="".join(json.dumps(request) + "\n" for request in requests),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"ready": True},
        {"error": "bad request: timeout is not a number of seconds above 0"},
        {"exit_code": EXIT_NOT_STARTED, "timed_out": False},
        {"exit_code": 0, "timed_out": False},
    ]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"timeout": "abc"}, "timeout is not a number of seconds above 0"),
        ({"timeout": True}, "timeout is not a number of seconds above 0"),
        ({"timeout": float("nan")}, "timeout is not a number of seconds above 0"),
        ({"argv": "run"}, "argv is not a list of strings"),
        ({"source": 3}, "source is not a path"),
        ({"reach": 1}, "reach is not a path"),
    ],
)
def test_a_bad_request_is_named(change: dict[str, object], said: str) -> None:
    from conformance.cli.mutant_server import request_error

    good: dict[str, object] = {"source": "s", "scratch": "t", "stderr": "e", "argv": []}
    assert request_error(good) is None
    assert request_error({**good, **change}) == said
