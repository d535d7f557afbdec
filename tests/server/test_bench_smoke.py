"""The benchmark code runs and measures what it says (never how fast: no timing asserts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.__main__ import main as bench_main
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
