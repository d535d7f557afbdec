"""The benchmark code runs and measures what it says (never how fast: no timing asserts)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from bench.__main__ import main as bench_main
from bench._doc import Measured, update
from bench._held import time_held_delivery
from bench._reads import MESSAGES, build_turn, read_in_process, read_over_http


def test_held_delivery_delivers_every_held_artifact(tmp_path: Path) -> None:
    timing = time_held_delivery(300, workdir=tmp_path)  # above the default held bound
    assert timing.count == 300 and timing.delivered == 300
    assert timing.seconds > 0
    assert list(tmp_path.iterdir()) == []  # its scratch database is gone


def test_the_read_benchmark_builds_a_hundred_message_turn(tmp_path: Path) -> None:
    db = tmp_path / "reads.db"
    conversation, turn = build_turn(db)
    latency = read_in_process(db, conversation, turn, reads=5)
    assert latency.reads == 5 and 0 < latency.p50_ms <= latency.p99_ms
    assert MESSAGES == 100


@pytest.mark.slow
def test_the_http_read_benchmark_reads_a_real_server(tmp_path: Path) -> None:
    db = tmp_path / "reads.db"
    conversation, turn = build_turn(db)
    latency = read_over_http(db, conversation, turn, log_dir=tmp_path, reads=5)
    assert latency.reads == 5 and latency.p50_ms > 0


def test_the_dispatcher(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["--help"]) == 0
    assert "reference" in capsys.readouterr().out
    assert bench_main(["no-such-bench"]) == 2
    assert "unknown benchmark" in capsys.readouterr().err


def _measured(name: str, output: str) -> Measured:
    return Measured(name, output, datetime.date(2026, 12, 3), 0.5, 1.25, 2)


def test_the_figures_say_when_and_on_what_load_they_were_measured() -> None:
    page = update("# Benchmarks\n\nProse.\n", _measured("suite", "run: 6.1 s\n"))
    assert page.startswith("# Benchmarks\n\nProse.\n\n## `python -m bench suite`\n")
    assert "Measured 2026-12-03 by `python -m bench suite` on 2 cores" in page
    assert "load average 0.50 before and 1.25 after" in page
    assert "```text\nrun: 6.1 s\n```\n" in page


def test_new_figures_replace_only_their_own_benchmarks_block() -> None:
    page = update("# B\n\n", _measured("suite", "old suite\n"))
    page = update(page, _measured("journal", "journal figures\n"))
    page = page.replace("## `python -m bench journal`", "## The journal, explained")
    again = update(page, _measured("suite", "new suite\n"))
    assert "new suite" in again and "old suite" not in again
    assert "journal figures" in again and "## The journal, explained" in again
    assert again.count("python -m bench suite`") == 2  # the heading and the line
    assert update(again, _measured("suite", "new suite\n")) == again


def test_the_loop_benchmark_measures_every_stage_unless_told_which() -> None:
    from bench.loop import STAGES, chosen_stages

    assert chosen_stages([]) == list(STAGES)
    assert chosen_stages(["slow-and-typecheck", "unit"]) == ["slow-and-typecheck", "unit"]
    with pytest.raises(SystemExit):
        chosen_stages(["slowest"])


def test_a_stage_fails_when_the_command_beside_it_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command run beside a stage's own counts as the stage's (make fails the slow
    tier's stage when mypy beside it fails), and the stage waits for it."""
    import sys

    from bench import loop

    quick = (sys.executable, "-c", "pass")
    failing = (sys.executable, "-c", "import time, sys; time.sleep(0.3); sys.exit(3)")
    monkeypatch.setitem(loop.STAGES, "beside-fails", loop.Stage((quick,), beside=failing))
    monkeypatch.setitem(loop.STAGES, "own-fails", loop.Stage((failing,), beside=quick))
    cost = loop.measure("beside-fails")
    assert cost.code == 3  # known only once the stage has waited for it
    assert loop.measure("own-fails").code == 3


def test_the_hunt_ceiling_replays_exactly_the_search_it_recorded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The replayed search asks the very questions the recorded one asked, each equal to
    the one recorded, no more and no fewer (it stops the benchmark otherwise), and both
    figures are printed."""
    from bench.hunt import ceiling

    ceiling(10)
    out = capsys.readouterr().out
    assert "the runtime's answers replayed" in out and "the hunt's own share of the CPU" in out


def test_a_replay_asked_something_else_says_so() -> None:
    from bench.hunt import _Replaying

    replaying = _Replaying([({"cmd": "hello"}, {"protocol": "x"})])
    assert "error" in replaying.request({"cmd": "start"})
    assert replaying.diverged is not None and "'start'" in replaying.diverged
    again = _Replaying([({"cmd": "hello"}, {"protocol": "x"})])
    assert again.request({"cmd": "hello"}) == {"protocol": "x"} and again.diverged is None
    assert not again.left()
