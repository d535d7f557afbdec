"""SIGKILL the server again and again while turns resume; nothing held is lost or doubled.

Every artifact is made and held (each turn pauses on a question) before the first kill,
so the kills only ever land on resumes: on the answer's claim, on the resumed run, or
inside its write-back.  A crash may lose what the crashed run had collected in memory,
never what was held; here a resumed run collects nothing, so every held artifact must
reach the wire exactly once, in order, whatever moment each kill picked.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import httpx
import pytest

from reference_impl.server import build_runtime
from reference_impl.server.process import ServerProcess, spawn_server

pytestmark = pytest.mark.slow

TURNS = 240
NOTES = 3
KILLS = 20
#: More rounds are run, up to this many, until a kill is seen to cut a run in flight.
MAX_ROUNDS = 100
DRIVERS = 12
#: A kill waits for this many actions to be under way at once.
IN_FLIGHT = 3
_BROKEN = (httpx.TransportError,)  # the server died under the request
#: How long a round may wait for the drivers' progress: generous, for a busy machine.
_PATIENCE = 300.0


class _Progress:
    """Counts the actions the server has answered in this round, and those in flight,
    so that a kill lands after a chosen amount of work and while several actions are
    under way, whatever the machine's speed, never after a time."""

    def __init__(self) -> None:
        self.answered = 0
        self.in_flight = 0
        self.changed = threading.Condition()

    def sending(self) -> None:
        with self.changed:
            self.in_flight += 1
            self.changed.notify_all()

    def answered_one(self) -> None:
        with self.changed:
            self.in_flight -= 1
            self.answered += 1
            self.changed.notify_all()

    def wait_for(self, count: int, threads: list[threading.Thread]) -> None:
        """Until ``count`` actions were answered and ``IN_FLIGHT`` more are under way
        (or every driver has stopped)."""
        with self.changed:
            self.changed.wait_for(
                lambda: (
                    (self.answered >= count and self.in_flight >= IN_FLIGHT)
                    or not any(t.is_alive() for t in threads)
                ),
                timeout=_PATIENCE,
            )


def _drive(
    http: httpx.Client,
    turns: list[tuple[str, str]],
    done: set[str],
    lock: threading.Lock,
    ready: threading.Barrier,
    errors: list[BaseException],
    progress: _Progress,
) -> None:
    """Finish ``turns`` one after another (answer a paused turn, Continue a stopped one)
    until they are all complete or the server dies."""
    try:
        _finish(http, turns, done, lock, ready, progress)
    except BaseException as err:  # reported by the test thread
        errors.append(err)


def _finish(
    http: httpx.Client,
    turns: list[tuple[str, str]],
    done: set[str],
    lock: threading.Lock,
    ready: threading.Barrier,
    progress: _Progress,
) -> None:
    # Warm up (connection, worker thread, database connection) before the kill clock runs.
    http.get("/api/conversations/warm-up/messages")
    ready.wait()
    for conversation, turn in turns:
        path = f"/api/conversations/{conversation}/turns/{turn}"
        try:
            while True:
                view = http.get(path).json()
                if view["status"] == "completed":
                    with lock:
                        done.add(turn)
                    break
                if view["status"] == "paused":
                    action, body = "answer", {"value": "go"}
                elif view["status"] == "stopped" and view["continueOffered"]:
                    action, body = "continue", None
                else:
                    raise AssertionError(f"turn {turn} is {view['status']}")
                progress.sending()
                http.post(f"{path}/{action}", json=body)
                progress.answered_one()
        except _BROKEN:
            return


def _round(
    server: ServerProcess, turns: list[tuple[str, str]], done: set[str], after: int | None
) -> None:
    """Drive the unfinished turns with several clients; SIGKILL the server once it has
    answered ``after`` actions in this round, while the other clients' actions are in
    flight (``None``: let them finish)."""
    lock = threading.Lock()
    todo = [pair for pair in turns if pair[1] not in done]
    clients = [httpx.Client(base_url=server.url, timeout=_PATIENCE) for _ in range(DRIVERS)]
    ready = threading.Barrier(DRIVERS + 1, timeout=_PATIENCE)
    errors: list[BaseException] = []
    progress = _Progress()
    threads = [
        threading.Thread(
            target=_drive, args=(client, todo[i::DRIVERS], done, lock, ready, errors, progress)
        )
        for i, client in enumerate(clients)
    ]
    try:
        for thread in threads:
            thread.start()
        ready.wait()
        if after is not None:
            progress.wait_for(after, threads)
            server.kill()
        for thread in threads:
            thread.join(_PATIENCE)
            assert not thread.is_alive()
    finally:
        if after is not None:  # a failed round leaves no server behind
            server.kill()
        for client in clients:
            client.close()
    assert errors == []


def _crashed(db: Path) -> int:
    """How many runs a kill cut (the server marks them crashed as it starts)."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM runs WHERE status = 'crashed'").fetchone()[0])


def test_sigkill_during_write_backs_loses_and_doubles_nothing(tmp_path: Path) -> None:
    db = tmp_path / "runtime.db"
    turns: list[tuple[str, str]] = []
    with (
        spawn_server(db, log_dir=tmp_path, timeout=_PATIENCE) as server,
        httpx.Client(base_url=server.url, timeout=_PATIENCE) as http,
    ):
        for index in range(TURNS):
            conversation = http.post("/api/conversations").json()["id"]
            script = "; ".join(f"note t{index}n{k}" for k in range(NOTES)) + "; ask"
            view = http.post(f"/api/conversations/{conversation}/turns", json={"message": script})
            assert view.json()["status"] == "paused"
            turns.append((conversation, view.json()["id"]))
    runtime = build_runtime(db)
    held = {turn: runtime.held(turn) for _, turn in turns}
    runtime.close()
    assert all(len(artifacts) == NOTES for artifacts in held.values())

    rng = random.Random(20240611)
    done: set[str] = set()
    finished_per_round = []
    for round_number in range(MAX_ROUNDS):
        server = spawn_server(db, log_dir=tmp_path, timeout=_PATIENCE)
        # The server has recovered from the last kill by now: a run it cut is crashed.
        if round_number >= KILLS and (_crashed(db) or len(done) == len(turns)):
            server.stop()
            break
        httpx.get(f"{server.url}/api/openapi.json", timeout=_PATIENCE)  # serving
        before = len(done)
        _round(server, turns, done, rng.randint(1, DRIVERS // 2))
        finished_per_round.append(len(done) - before)
    with spawn_server(db, log_dir=tmp_path, timeout=_PATIENCE) as server:
        _round(server, turns, done, None)
        assert done == {turn for _, turn in turns}
        with httpx.Client(base_url=server.url, timeout=_PATIENCE) as http:
            views = {
                turn: http.get(f"/api/conversations/{c}/turns/{turn}").json() for c, turn in turns
            }

    runtime = build_runtime(db)
    try:
        crashed = (
            runtime.store.read()
            .execute("SELECT COUNT(*) FROM runs WHERE status = 'crashed'")
            .fetchone()[0]
        )
        for _, turn in turns:
            view = views[turn]
            assert view["status"] == "completed"
            on_messages = [a for m in view["messages"] for a in m.get("toolArtifacts", [])]
            assert on_messages == held[turn]  # each held artifact once, in order
            assert view["toolArtifacts"] == held[turn]
            assert runtime.held(turn) == []
    finally:
        runtime.close()
    urls = [a["payload"]["url"] for v in views.values() for a in v["toolArtifacts"]]
    assert len(urls) == len(set(urls)) == TURNS * NOTES
    # The kills did land while runs were in flight (a crashed run is one a kill cut).
    assert crashed >= 1
    print(
        f"\n{len(finished_per_round)} kills: {crashed} runs cut mid-flight; turns finished "
        f"per round: {finished_per_round}"
    )
