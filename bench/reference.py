"""``python -m bench reference [--quick]``: the reference runtime's benchmarks.

* held-artifact delivery on resume for N = 1k, 10k, 100k (best of a few runs each), with
  the growth ratios 10k/1k and 100k/10k;
* the turn read of a 100-message turn, 1,000 reads, in process and over HTTP.

Targets: growth is linear (10x the work within 12x the time), 10k artifacts are delivered
within 1 s, and the HTTP turn read's p50 is under 5 ms.  A missed target is reported
("MISS") and makes the exit status 1; nothing here is a test.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench._held import HeldTiming, time_held_delivery
from bench._reads import MESSAGES, Latency, build_turn, read_in_process, read_over_http

__all__ = ["main"]

SIZES = (1_000, 10_000, 100_000)
REPEATS = {1_000: 5, 10_000: 5, 100_000: 3}
QUICK_SIZES = (100, 1_000, 10_000)
GROWTH_LIMIT = 12.0
TEN_K_LIMIT_S = 1.0
HTTP_P50_LIMIT_MS = 5.0


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def _held(sizes: Sequence[int], repeats: int | None) -> bool:
    print("Held artifacts delivered on resume (Runtime.answer, in process; best of runs):")
    best: dict[int, HeldTiming] = {}
    for size in sizes:
        runs = [time_held_delivery(size) for _ in range(repeats or REPEATS.get(size, 3))]
        for run in runs:
            if run.delivered != size:
                raise RuntimeError(f"N={size}: {run.delivered} artifacts delivered")
        best[size] = min(runs, key=lambda run: run.seconds)
        shown = ", ".join(f"{run.seconds * 1000:.1f}" for run in runs)
        print(
            f"  N={size:>7,}  {best[size].seconds * 1000:9.1f} ms   "
            f"({best[size].seconds / size * 1e6:.2f} us/artifact; runs: {shown} ms)"
        )
    ok = True
    for small, large in itertools.pairwise(sizes):
        ratio = best[large].seconds / best[small].seconds
        within = ratio <= GROWTH_LIMIT * (large / small) / 10
        ok &= within
        print(
            f"  {large:,}/{small:,}: {ratio:.1f}x the time for {large // small}x the work"
            f"   [{_verdict(within)}: within {GROWTH_LIMIT:.0f}x per 10x]"
        )
    if 10_000 in best:
        fast = best[10_000].seconds <= TEN_K_LIMIT_S
        ok &= fast
        print(
            f"  10k delivered in {best[10_000].seconds:.3f} s   "
            f"[{_verdict(fast)}: within {TEN_K_LIMIT_S:.0f} s]"
        )
    return ok


def _reads(reads: int) -> bool:
    print(f"Turn read of a {MESSAGES}-message turn, {reads:,} reads:")
    with tempfile.TemporaryDirectory(prefix="bench-reads-") as scratch:
        db = Path(scratch) / "reads.db"
        conversation, turn = build_turn(db)
        local = read_in_process(db, conversation, turn, reads)
        remote = read_over_http(db, conversation, turn, log_dir=Path(scratch), reads=reads)
    for name, latency in (
        ("in process (Runtime.turn_view)", local),
        ("HTTP (uvicorn, loopback)", remote),
    ):
        print(f"  {name:<32} p50 {latency.p50_ms:6.2f} ms   p99 {latency.p99_ms:6.2f} ms")
    fast = _fast(remote)
    print(
        f"  HTTP p50 {remote.p50_ms:.2f} ms   [{_verdict(fast)}: under {HTTP_P50_LIMIT_MS:.0f} ms]"
    )
    return fast


def _fast(latency: Latency) -> bool:
    return latency.p50_ms < HTTP_P50_LIMIT_MS


def main(argv: Sequence[str] | None = None) -> int:
    """Run the reference runtime's benchmarks; 0 when every target was met."""
    parser = argparse.ArgumentParser(prog="python -m bench reference")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smaller sizes and fewer reads (a smoke run, not a measurement)",
    )
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    ok = _held(sizes, 1 if args.quick else None)
    print()
    ok &= _reads(100 if args.quick else 1000)
    sys.stdout.flush()
    return 0 if ok else 1
