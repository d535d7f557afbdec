"""SIGKILL the server again and again while turns resume; nothing held is lost or doubled.

Every artifact is made and held (each turn pauses on a question) before the first kill,
so the kills only ever land on resumes: on the answer's claim, on the resumed run, or
inside its write-back.  A crash may lose what the crashed run had collected in memory,
never what was held; here a resumed run collects nothing, so every held artifact must
reach the wire exactly once, in order, whatever moment each kill picked.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx
import pytest

from reference_impl.server import build_runtime
from reference_impl.server.process import ServerProcess, spawn_server

pytestmark = pytest.mark.slow

TURNS = 240
NOTES = 3
KILLS = 20
DRIVERS = 12
_BROKEN = (httpx.TransportError,)  # the server died under the request


def _drive(
    http: httpx.Client,
    turns: list[tuple[str, str]],
    done: set[str],
    lock: threading.Lock,
    ready: threading.Barrier,
    errors: list[BaseException],
) -> None:
    """Finish ``turns`` one after another (answer a paused turn, Continue a stopped one)
    until they are all complete or the server dies."""
    try:
        _finish(http, turns, done, lock, ready)
    except BaseException as err:  # reported by the test thread
        errors.append(err)


def _finish(
    http: httpx.Client,
    turns: list[tuple[str, str]],
    done: set[str],
    lock: threading.Lock,
    ready: threading.Barrier,
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
                    http.post(f"{path}/answer", json={"value": "go"})
                elif view["status"] == "stopped" and view["continueOffered"]:
                    http.post(f"{path}/continue")
                else:
                    raise AssertionError(f"turn {turn} is {view['status']}")
        except _BROKEN:
            return


def _round(
    server: ServerProcess, turns: list[tuple[str, str]], done: set[str], delay: float | None
) -> None:
    """Drive the unfinished turns with several clients; SIGKILL the server ``delay``
    seconds after they start (``None``: let them finish)."""
    lock = threading.Lock()
    todo = [pair for pair in turns if pair[1] not in done]
    clients = [httpx.Client(base_url=server.url, timeout=30.0) for _ in range(DRIVERS)]
    ready = threading.Barrier(DRIVERS + 1, timeout=60)
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=_drive, args=(client, todo[i::DRIVERS], done, lock, ready, errors))
        for i, client in enumerate(clients)
    ]
    try:
        for thread in threads:
            thread.start()
        ready.wait()
        if delay is not None:
            time.sleep(delay)
            server.kill()
        for thread in threads:
            thread.join(60)
            assert not thread.is_alive()
    finally:
        if delay is not None:  # a failed round leaves no server behind
            server.kill()
        for client in clients:
            client.close()
    assert errors == []


def test_sigkill_during_write_backs_loses_and_doubles_nothing(tmp_path: Path) -> None:
    db = tmp_path / "runtime.db"
    turns: list[tuple[str, str]] = []
    with spawn_server(db, log_dir=tmp_path) as server, httpx.Client(base_url=server.url) as http:
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
    for _ in range(KILLS):
        server = spawn_server(db, log_dir=tmp_path)
        httpx.get(f"{server.url}/api/openapi.json", timeout=30.0)  # serving, not starting
        before = len(done)
        _round(server, turns, done, rng.uniform(0.005, 0.08))
        finished_per_round.append(len(done) - before)
    with spawn_server(db, log_dir=tmp_path) as server:
        _round(server, turns, done, None)
        assert done == {turn for _, turn in turns}
        with httpx.Client(base_url=server.url) as http:
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
        f"\n{KILLS} kills: {crashed} runs cut mid-flight; turns finished per round: "
        f"{finished_per_round}"
    )
