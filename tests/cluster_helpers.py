"""Helpers for tests of several real ``qipai serve`` workers on the machine's PostgreSQL and
Redis: start a worker, wait for it, play over its WebSockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import subprocess
import time
import zlib
from pathlib import Path

import httpx

from .e2e.timing import until as within
from .server_process import free_port, serve_process

REDIS = os.environ.get("QIPAI_TEST_REDIS", "redis://127.0.0.1:6379/0")


class Worker:
    """One ``qipai serve`` worker of the cluster ``name`` (``cluster``) on its own port (its log
    in ``log``), on the database ``database_url`` (forked from the test process's zygote where it
    can be: tests/server_process.py ``serve_process``)."""

    def __init__(self, tmp: Path, database_url: str, name: str, index: int,
                 args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log = tmp / f"worker{index}.log"
        self.database_url, self.cluster = database_url, name
        self.log.write_text("")
        self.proc = serve_process(["--port", str(self.port), "--database-url", database_url,
                                   "--redis-url", REDIS, *args], self.log,
                                  env={**os.environ, "QIPAI_CLUSTER_NAME": name, **(env or {})})

    def wait_up(self) -> None:
        for _ in range(600):
            try:
                if httpx.get(self.base + "/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.log.read_text()
            time.sleep(0.1)
        raise AssertionError("the worker did not start:\n" + self.log.read_text())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def cluster_name() -> str:
    """A new cluster name (its Redis keys start with it)."""
    return "qipai-test-" + secrets.token_hex(4)


def forget_cluster(name: str) -> None:
    """Delete the Redis keys of the cluster ``name``."""
    import redis

    r = redis.Redis.from_url(REDIS)
    try:
        keys = list(r.scan_iter(match=name + ":*"))
        if keys:
            r.delete(*keys)
    finally:
        r.close()


def start_workers(tmp: Path, database_url: str, n: int, name: str, args: tuple[str, ...] = (),
                  env: dict[str, str] | None = None) -> list[Worker]:
    """``n`` workers of the cluster ``name``, all answering (``args``: more ``qipai serve``
    arguments; ``env``: more environment)."""
    workers = [Worker(tmp, database_url, name, i, args, env) for i in range(n)]
    for w in workers:
        w.wait_up()
    return workers


async def signup(base: str, name: str) -> dict[str, str]:
    """Sign ``name`` up through ``base``: its cookie header. The sign-up comes from an address of
    its own (X-Forwarded-For, heeded by workers started with ``--forwarded-allow-ips
    127.0.0.1``): the sign-up limit per address (5, then one per 20 s) is counted for the whole
    cluster, and a module's tests sign up more accounts than that from 127.0.0.1."""
    address = f"198.51.100.{zlib.crc32(name.encode()) % 254 + 1}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/signup", json={"username": name, "password": "correct horse"},
                            headers={"X-Forwarded-For": address})
        assert r.status_code == 201, r.text
        return {"Cookie": f"qipai_session={r.cookies['qipai_session']}"}


async def until(sock, kind: str, timeout: float = 30.0, seen: list | None = None) -> dict:
    """The next message of type ``kind`` (a commitment is answered with a nonce on the way);
    every message received goes to ``seen``."""
    while True:
        msg = json.loads(await asyncio.wait_for(sock.recv(), timeout))
        if seen is not None:
            seen.append(msg)
        if msg["type"] == "commitment":
            await sock.send(json.dumps({"type": "nonce", "nonce": secrets.token_hex(8)}))
        if msg["type"] == kind:
            return msg


async def state_at(sock, seq: int, timeout: float = 30.0, seen: list | None = None) -> dict:
    """The first state message with ``seq`` at least ``seq``."""
    while True:
        m = await until(sock, "state", timeout, seen)
        if m["seq"] >= seq:
            return m


def lease_owner(name: str, table_id: str) -> str | None:
    """The worker holding ``table_id``'s lease in the cluster ``name`` (None: nobody)."""
    import redis

    r = redis.Redis.from_url(REDIS, decode_responses=True)
    try:
        return r.get(f"{name}:lease:{table_id}")
    finally:
        r.close()


def epoch_of(url: str, table_id: str) -> int:
    """The table's fencing epoch in the database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return c.execute(text("SELECT lease_epoch FROM tables WHERE id = :t"), {"t": table_id}).scalar()
    finally:
        engine.dispose()


@contextlib.contextmanager
def running_cluster(pg_template, tmp: Path, n: int, args: tuple[str, ...] = (),
                    env: dict[str, str] | None = None):
    """``n`` workers on a database of their own: yields ``(database URL, cluster name,
    [workers])``; everything is stopped, dropped and forgotten afterwards."""
    import pytest

    from .pg import drop, skip_postgres, sqlalchemy_url

    if skip_postgres():
        pytest.skip("QIPAI_NO_POSTGRES=1: PostgreSQL tests left out")
    db = pg_template.new_database()
    url = sqlalchemy_url(db)
    name = cluster_name()
    workers = start_workers(tmp, url, n, name, args, env)
    try:
        yield url, name, workers
    finally:
        for w in workers:
            w.stop()
        drop(db)
        forget_cluster(name)


async def xiangqi_table(made_at: Worker, sat_at: Worker, red: str, black: str) -> tuple[str, dict, dict]:
    """A xiangqi table without clocks made by the new account ``red`` through ``made_at`` (its
    owner) and sat at by ``black`` through ``sat_at``: ``(table id, red's headers, black's)``."""
    red_h, black_h = await signup(made_at.base, red), await signup(sat_at.base, black)
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(made_at.base + "/api/tables", headers=red_h,
                            json={"game": "xiangqi", "settings": {"clock": "none"}})
        tid = r.json()["id"]
        assert (await http.post(f"{sat_at.base}/api/tables/{tid}/sit", headers=black_h)).status_code == 200
    return tid, red_h, black_h


def workers_fixture(n: int, tag: str, args: tuple[str, ...] = ()):
    """A module-scoped pytest fixture: the ``[workers]`` of :func:`running_cluster` (``args``:
    more ``qipai serve`` arguments)."""
    import pytest

    @pytest.fixture(scope="module")
    def cluster(pg_template, tmp_path_factory):
        with running_cluster(pg_template, tmp_path_factory.mktemp(tag), n, args) as (_, _, workers):
            yield workers
    return cluster


def worker_id(name: str, worker: Worker) -> str:
    """The id of ``worker`` in the cluster ``name`` (from the address it publishes in Redis)."""
    import redis

    r = redis.Redis.from_url(REDIS, decode_responses=True)
    try:
        for _ in within(30):
            for key in r.scan_iter(match=f"{name}:worker:*"):
                raw = r.get(key)
                if raw and json.loads(raw)["pid"] == worker.proc.pid:
                    return key.removeprefix(f"{name}:worker:")
            time.sleep(0.1)
    finally:
        r.close()
    raise AssertionError("the worker published no address")


def move_table(name: str, table_id: str, old: Worker, new: Worker) -> None:
    """Make ``new`` serve the live table ``table_id`` that ``old`` serves, both running: its
    lease is given to nobody alive for a moment (``old`` drops the table at its next heartbeat,
    as when another worker took it), then freed and the table asked for through ``new``, which
    takes it over at once."""
    import redis

    key = f"{name}:lease:{table_id}"
    r = redis.Redis.from_url(REDIS, decode_responses=True)
    try:
        r.set(key, "nobody", px=60_000)
        for _ in within(30):
            if table_id not in {t["id"] for t in httpx.get(old.base + "/api/tables", timeout=30).json()}:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"{old.base} kept table {table_id}")
        r.delete(key)
        assert httpx.get(f"{new.base}/api/tables/{table_id}", timeout=30).status_code == 200
        assert r.get(key) == worker_id(name, new)
    finally:
        r.close()
