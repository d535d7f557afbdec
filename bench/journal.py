"""``python -m bench journal [--quick]``: the tool-call journal's benchmarks.

* journal build (:func:`reference_impl.journal.classify`) over 10k, 100k and 1M ledger
  events, best of a few runs each: wall time with the garbage collector on, as a resumed
  chunk pays it, and the growth ratios 100k/10k and 1M/100k measured with the collector
  paused for the timed call (a full collection costs time in proportion to everything
  alive, here mostly the ledger itself, and would hide the algorithm's own shape);
* the same, read from a real database as a resumed chunk does (for context, no target);
* the hard-block lookup (:meth:`reference_impl.journal.Snapshot.claim`, half hits, half
  misses) against journals of 1k to 1M completed calls, per lookup.

Targets: 1M events are classified within 2 s (collector on); the build is linear (10x the
events within 12x the time); the lookup is flat (the largest journal's lookup within 3x
the smallest's).  A missed target is reported ("MISS") and makes the exit status 1;
nothing here is a test.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from reference_impl import records
from reference_impl.journal import Entry, Journal, LedgerEvent, Snapshot, classify
from reference_impl.store import Store, dumps

__all__ = ["main", "make_ledger"]

BUILD_SIZES = (10_000, 100_000, 1_000_000)
QUICK_BUILD_SIZES = (1_000, 10_000, 100_000)
LOOKUP_SIZES = (1_000, 10_000, 100_000, 1_000_000)
QUICK_LOOKUP_SIZES = (1_000, 10_000, 100_000)
LOOKUPS = 20_000
STORED_SIZE = 100_000
GROWTH_LIMIT = 12.0
MILLION_LIMIT_S = 2.0
FLAT_LIMIT = 3.0
TOOLS = tuple(f"tool_{n}" for n in range(8))


def make_ledger(size: int, seed: int = 7) -> list[LedgerEvent]:
    """A turn's ledger of ``size`` events, shaped like a long real one: calls of a few
    tools, each ``tool_start`` mostly followed by its ``tool_done``, one call in fifty
    interrupted, and a ``clear`` now and then."""
    rng = random.Random(seed)
    events: list[LedgerEvent] = []
    call = 0
    while len(events) < size:
        tool = rng.choice(TOOLS)
        events.append(LedgerEvent("tool_start", tool, {"to": f"user{call}", "n": call}))
        roll = rng.random()
        if roll < 0.001:
            events.append(LedgerEvent("clear"))
        elif roll >= 0.02:  # else: interrupted, the start stays open
            result = {"success": True, "data": f"done {call}", "error": None}
            events.append(LedgerEvent("tool_done", tool, None, result))
        call += 1
    return events[:size]


def _best(fn: Callable[[], object], repeats: int, *, collector: bool = True) -> float:
    """The best wall time of ``repeats`` calls, each from a freshly collected heap."""
    times = []
    for _ in range(repeats):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
        finally:
            gc.enable()
    return min(times)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def _build(sizes: Sequence[int]) -> bool:
    print("Journal build (classify) over a turn's ledger, best of runs:")
    wall: dict[int, float] = {}
    paused: dict[int, float] = {}
    for size in sizes:
        events = make_ledger(size)
        journal = classify(events)
        repeats = 5 if size <= 100_000 else 3

        def run(events: list[LedgerEvent] = events) -> Journal:
            return classify(events)

        wall[size] = _best(run, repeats)
        paused[size] = _best(run, repeats, collector=False)
        print(
            f"  {size:>9,} events  {wall[size] * 1000:8.1f} ms"
            f"  ({wall[size] / size * 1e9:4.0f} ns/event; collector paused: "
            f"{paused[size] * 1000:.1f} ms)   {len(journal.completed):,} completed, "
            f"{len(journal.interrupted):,} interrupted"
        )
    ok = True
    for small, large in itertools.pairwise(sizes):
        ratio = paused[large] / paused[small]
        within = ratio <= GROWTH_LIMIT * (large / small) / 10
        ok &= within
        print(
            f"  {large:,}/{small:,}: {ratio:.1f}x the time for {large // small}x the events "
            f"(wall: {wall[large] / wall[small]:.1f}x)"
            f"   [{_verdict(within)}: within {GROWTH_LIMIT:.0f}x per 10x]"
        )
    if 1_000_000 in wall:
        fast = wall[1_000_000] <= MILLION_LIMIT_S
        ok &= fast
        print(
            f"  1M classified in {wall[1_000_000]:.3f} s   "
            f"[{_verdict(fast)}: within {MILLION_LIMIT_S:.0f} s]"
        )
    stored = STORED_SIZE if max(sizes) >= 1_000_000 else max(sizes) // 10
    print(
        f"  {stored:,} events read from the store and classified, as a resumed chunk "
        f"does: {_from_store(stored) * 1000:.1f} ms   (for context; no target)"
    )
    return ok


def _from_store(size: int) -> float:
    """A ledger of ``size`` events in a real database, read and classified."""
    rows = [
        (
            e.event,
            e.tool,
            None if e.input is None else dumps(e.input),
            None if e.result is None else dumps(e.result),
        )
        for e in make_ledger(size)
    ]
    with tempfile.TemporaryDirectory(prefix="bench-journal-") as scratch:
        store = Store(Path(scratch) / "ledger.db")
        try:
            with store.transaction() as conn:
                conn.execute("INSERT INTO conversations VALUES ('c', '{}', 'now')")
                conn.execute(
                    "INSERT INTO turns (id, conversation_id, seq, entry_point, status,"
                    " created_at, updated_at) VALUES ('t', 'c', 1, 'chat', 'running',"
                    " 'now', 'now')"
                )
                conn.executemany(
                    "INSERT INTO ledger (turn_id, run_id, event, tool, input, result,"
                    " created_at) VALUES ('t', 'r', ?, ?, ?, ?, 'now')",
                    rows,
                )
            return _best(lambda: classify(records.ledger_events(store.read(), "t")), 3)
        finally:
            store.close()


def _completed_journal(size: int) -> Journal:
    result = {"success": True, "data": "ok", "error": None}
    return Journal(
        tuple(
            Entry(TOOLS[n % len(TOOLS)], {"to": f"user{n}", "n": n}, result, n) for n in range(size)
        )
    )


def _lookups(sizes: Sequence[int], lookups: int) -> bool:
    print(f"Hard-block lookup (Snapshot.claim), {lookups:,} lookups, half hits, half misses:")
    per: dict[int, float] = {}
    for size in sizes:
        rng = random.Random(size)
        hits = rng.sample(range(size), min(size, lookups // 2))
        probes = [(TOOLS[n % len(TOOLS)], {"to": f"user{n}", "n": n}) for n in hits]
        probes += [
            (TOOLS[n % len(TOOLS)], {"to": f"nobody{n}", "n": n})
            for n in range(lookups - len(probes))
        ]
        rng.shuffle(probes)
        journal = _completed_journal(size)
        started = time.perf_counter()
        snapshot = Snapshot(journal)
        built = time.perf_counter() - started
        gc.collect()
        started = time.perf_counter()
        found = sum(snapshot.claim(tool, args) is not None for tool, args in probes)
        per[size] = (time.perf_counter() - started) / len(probes)
        if found != len(hits):
            raise RuntimeError(f"journal of {size}: {found} hits, expected {len(hits)}")
        print(
            f"  journal of {size:>9,} completed  {per[size] * 1e6:6.2f} us/lookup   "
            f"(the snapshot, taken once per resumed chunk: {built * 1000:.1f} ms)"
        )
    ratio = per[sizes[-1]] / per[sizes[0]]
    flat = ratio <= FLAT_LIMIT
    print(
        f"  {sizes[-1]:,} vs {sizes[0]:,}: {ratio:.2f}x the lookup cost   "
        f"[{_verdict(flat)}: within {FLAT_LIMIT:.0f}x]"
    )
    return flat


def main(argv: Sequence[str] | None = None) -> int:
    """Run the journal benchmarks; 0 when every target is met."""
    parser = argparse.ArgumentParser(prog="python -m bench journal")
    parser.add_argument(
        "--quick", action="store_true", help="sizes ten times smaller, for a smoke run"
    )
    args = parser.parse_args(argv)
    build = _build(QUICK_BUILD_SIZES if args.quick else BUILD_SIZES)
    lookup = _lookups(
        QUICK_LOOKUP_SIZES if args.quick else LOOKUP_SIZES,
        LOOKUPS // 10 if args.quick else LOOKUPS,
    )
    return 0 if build and lookup else 1


if __name__ == "__main__":
    raise SystemExit(main())
