"""The load client of ``server_load.py``: scripted people, each playing games at a table over a
WebSocket (one seat; the server's bots play the others) until a given moment, in this process
or spread over several (:func:`play_in_processes`): one asyncio process alone lagged by
seconds at 500 games, and its round trips then measured the client rather than the server.

Every time is ``time.monotonic`` (``CLOCK_MONOTONIC``, the same clock in every process on
Linux), so the processes' round trips, failover gaps and loop lags merge as they are.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets


def run_with_uvloop(coro) -> Any:
    """``asyncio.run(coro)`` on uvloop when it is installed (as the server runs)."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(coro)


async def loop_lag(out: list[tuple[float, float]], stop: asyncio.Event) -> None:
    """This client's own event-loop lag: (when, ms late) every 10 ms."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        asked = loop.time()
        await asyncio.sleep(0.01)
        out.append((time.monotonic(), (loop.time() - asked - 0.01) * 1000))


class Stats:
    def __init__(self, reconnect: bool = False) -> None:
        self.reconnect = reconnect        # a broken socket is opened again (a failover run)
        self.gaps: list[float] = []       # seconds from a broken socket to the state again
        self.back_at: list[float] = []    # when each broken game was served again (monotonic)
        self.acked_lost = 0               # positions acknowledged, then missing after a reconnect
        self.retried = 0                  # requests sent again after a failover
        self.rtt: list[float] = []
        self.rtt_at: list[float] = []     # when each round trip ended
        self.plies = 0
        self.errors: list[str] = []
        self.finished = 0
        self.lost = 0
        self.human_moves = 0

    def seen(self, seq: int, last_seq: int, sent_at: float | None,
             sent_seq: int) -> tuple[int, float | None]:
        """A state of move number ``seq`` arrived: the plies it adds are counted, and the round
        trip of this seat's move sent at ``sent_at`` (after ``sent_seq``) if it answers it.
        Returns the new ``(last_seq, sent_at)``."""
        if seq > last_seq:
            self.plies += seq - last_seq
            last_seq = seq
        if sent_at is not None and seq > sent_seq:
            self.rtt.append((time.perf_counter() - sent_at) * 1000)
            self.rtt_at.append(time.monotonic())
            sent_at = None
        return last_seq, sent_at


async def signup(http: httpx.AsyncClient, name: str) -> str:
    for attempt in range(5):             # a worker of a cluster still starting may drop one
        try:
            return await _signup(http, name)
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(1)
    raise AssertionError("unreachable")


async def _signup(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/signup", json={"username": name, "password": "benchmark-password"})
    if r.status_code == 409:
        r = await http.post("/api/login", json={"username": name, "password": "benchmark-password"})
    r.raise_for_status()
    return r.cookies["qipai_session"]


async def play(http: httpx.AsyncClient, base: str, token: str, game: str, think: float, until: float,
               stats: Stats, rng: random.Random, bot: str) -> None:
    cookie = {"Cookie": f"qipai_session={token}"}
    while time.monotonic() < until:
        try:
            r = await http.post("/api/tables", headers=cookie,
                                json={"game": game, "bots": 2 if game == "doudizhu" else 1, "bot": bot})
        except httpx.HTTPError as e:
            if stats.reconnect:          # a connection to the worker just killed: ask another
                stats.retried += 1
                await asyncio.sleep(0.5)
                continue
            stats.errors.append(f"create: {type(e).__name__}: {e}")
            return
        if r.status_code != 201:
            stats.errors.append(f"create: {r.text}")
            return
        tid = r.json()["id"]
        try:
            await one_game(base, tid, cookie, think, until, stats, rng)
        except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed,
                TimeoutError) as e:                                         # the connection failed
            stats.errors.append(f"{tid}: handshake: {type(e).__name__}: {e}")
            stats.lost += 1
            return


async def one_game(base: str, tid: str, cookie: dict[str, str], think: float, until: float,
                   stats: Stats, rng: random.Random) -> None:
    """Play one game; in a failover run a socket that breaks is opened again (for up to 30 s)
    and the game goes on: the state it then gets must hold every position seen before."""
    game = {"last_seq": 0, "broken_at": None}
    while True:
        broken = await one_socket(base, tid, cookie, think, until, stats, rng, game)
        if not broken:
            return
        game["broken_at"] = game["broken_at"] or time.monotonic()
        if time.monotonic() - game["broken_at"] > 30:
            stats.errors.append(f"{tid}: not served again within 30 s")
            stats.lost += 1
            return
        await asyncio.sleep(0.2)


async def one_socket(base: str, tid: str, cookie: dict[str, str], think: float, until: float,
                     stats: Stats, rng: random.Random, game: dict) -> bool:
    """One socket of a game: True when it broke and the game should go on over a new one."""
    uri = f"ws://{base}/ws/tables/{tid}"
    last_seq = game["last_seq"]
    try:
        ws = await websockets.connect(uri, additional_headers=cookie, max_size=1 << 20, open_timeout=60)
    except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed, TimeoutError):
        if stats.reconnect:         # a failover run: the worker went away during the handshake
            return True
        raise
    try:
        return await socket_loop(ws, tid, think, until, stats, rng, game, last_seq)
    except websockets.ConnectionClosed:           # a send on a socket that broke
        if stats.reconnect:
            return True
        stats.errors.append(f"{tid}: connection closed")
        stats.lost += 1
        return False


#: the head of a state message as the server writes it (``tablemsg.state_message``, compact JSON)
_STATE_HEAD = re.compile(r'\{"type":"state","table":"[^"]*","game":"[^"]*","status":"playing",'
                         r'"seq":(\d+),"seat":(\d+),"to_act":\[([\d,]+)\],')


def others_turn(text: str) -> int | None:
    """The ``seq`` of a state message of a game in play in which other seats than this one are
    to act (its result is then none, and nothing but the move number is needed), else None:
    read from the message's head, without decoding the whole state (views, clocks, move list).
    Anything else (another kind of message, another layout) is None, and decoded in full."""
    m = _STATE_HEAD.match(text)
    if m is None or m[2] in m[3].split(","):
        return None
    return int(m[1])


async def socket_loop(ws, tid: str, think: float, until: float, stats: Stats, rng: random.Random,
                      game: dict, last_seq: int) -> bool:
    sent_at: float | None = None
    sent_seq = -1
    resigned = False
    async with ws:
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=60)
            except (TimeoutError, websockets.ConnectionClosed) as e:
                if stats.reconnect and isinstance(e, websockets.ConnectionClosed):
                    game["last_seq"] = last_seq
                    return True
                stats.errors.append(f"{tid}: {type(e).__name__}")
                stats.lost += 1
                return False
            seq = others_turn(text)
            if seq is not None and game["broken_at"] is None and (resigned or time.monotonic() < until):
                # another seat is to act: only the move number counts (most of the messages)
                last_seq, sent_at = stats.seen(seq, last_seq, sent_at, sent_seq)
                continue
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                if resigned and msg["error"] == "not_playing":
                    continue            # the game ended by itself while the resignation was on its way
                if stats.reconnect and msg["error"] == "moved":
                    continue            # the close that follows opens a new socket
                stats.errors.append(f"{tid}: {msg['error']}: {msg['message']}")
                if sent_at is not None and not resigned:     # the move was refused: ask again
                    sent_at = None
                    await ws.send(json.dumps({"type": "sync"}))
                continue
            if kind == "commitment":      # the deal waits for this seat's nonce (§6.1)
                await ws.send(json.dumps({"type": "nonce", "nonce": f"{rng.getrandbits(128):032x}"}))
            if kind != "state":
                continue
            seq = msg["seq"]
            if game["broken_at"] is not None:      # served again after a failover
                stats.gaps.append(time.monotonic() - game["broken_at"])
                stats.back_at.append(time.monotonic())
                game["broken_at"] = None
                if seq < last_seq:
                    stats.acked_lost += last_seq - seq
            last_seq, sent_at = stats.seen(seq, last_seq, sent_at, sent_seq)
            if msg["result"]:
                if msg["record"] is not None:
                    stats.finished += 1
                    return False
                continue
            if time.monotonic() >= until and not resigned:
                await ws.send(json.dumps({"type": "resign"}))
                resigned = True
                continue
            seat = msg["seat"]
            if seat not in msg["to_act"] or sent_at is not None or resigned:
                continue
            legal = msg.get("legal") or msg["view"].get("legal_moves")
            action = legal[-1] if legal[-1].startswith("bid") else rng.choice(legal)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent_at, sent_seq = time.perf_counter(), seq
            stats.human_moves += 1
            await ws.send(json.dumps({"type": "move", "seq": seq, "action": action}))


def client_procs_default() -> int:
    """The load client's processes by default: one per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


async def play_share(base: str, games: list[tuple[int, str, float]], think: float, start: float,
                     until: float, bot: str, reconnect: bool) -> tuple[Stats, list[tuple[float, float]]]:
    """Play ``games`` (``(index, account token, seed)``: xiangqi for an even index, doudizhu for
    an odd one) from ``start`` until ``until`` (``time.monotonic``, the same clock in every
    process on Linux): the stats and this loop's lag."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    stats = Stats(reconnect=reconnect)
    lags: list[tuple[float, float]] = []
    stop = asyncio.Event()
    lag_task = asyncio.create_task(loop_lag(lags, stop))
    n = max(1, len(games))
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url="http://" + base, timeout=60, limits=limits) as http:
        await asyncio.gather(*(play(http, base, token, "xiangqi" if i % 2 == 0 else "doudizhu", think,
                                    until, stats, random.Random(seed), bot) for i, token, seed in games))
    stop.set()
    await lag_task
    return stats, lags


def client_proc(conn, base: str, games: list[tuple[int, str, float]], think: float, bot: str,
                reconnect: bool) -> None:
    """One process of the load client (``--client-procs``): tells the parent it is ready over
    ``conn``, receives ``(start, until)``, plays its share of the games and sends back its
    figures (:class:`Stats` as a dict, its loop lags, its CPU seconds) or ``{"error": text}``."""
    try:
        conn.send("ready")
        start, until = conn.recv()
        cpu0 = time.process_time()
        stats, lags = run_with_uvloop(play_share(base, games, think, start, until, bot, reconnect))
        conn.send({"stats": vars(stats), "lags": lags, "cpu": time.process_time() - cpu0})
    except Exception as e:              # the parent reports it
        conn.send({"error": f"{type(e).__name__}: {e}"})
    finally:
        conn.close()


async def play_in_processes(k: int, base: str, games: list[tuple[int, str, float]], think: float,
                            seconds: float, bot: str, reconnect: bool,
                            started: Callable[[float], Any]) -> tuple[Stats, list, float, float]:
    """Play ``games`` spread over ``k`` client processes (game i in process i mod k): their
    stats merged, their loop lags together, the start (monotonic; ``started(start)`` is called
    with it once every process is ready) and their CPU seconds."""
    import multiprocessing as mp
    from concurrent.futures import ThreadPoolExecutor

    ctx = mp.get_context("spawn")       # never fork a process that runs an event loop
    procs, conns = [], []
    for j in range(k):
        parent, child = ctx.Pipe()
        p = ctx.Process(target=client_proc, args=(child, base, games[j::k], think, bot, reconnect),
                        daemon=True)
        p.start()
        child.close()
        procs.append(p)
        conns.append(parent)
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=k)    # a thread waits for each process's answer
    try:
        for c in conns:                 # each has imported its modules: the start is fair
            if await loop.run_in_executor(pool, c.recv) != "ready":
                raise RuntimeError("a client process did not start")
        start = time.monotonic() + 0.2
        for c in conns:
            c.send((start, start + seconds))
        started(start)
        got = await asyncio.gather(*(loop.run_in_executor(pool, c.recv) for c in conns))
    finally:
        pool.shutdown(wait=False)
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.kill()
    failed = [g["error"] for g in got if "error" in g]
    if failed:
        raise RuntimeError("client process failed: " + "; ".join(failed))
    stats = Stats(reconnect=reconnect)
    lags: list[tuple[float, float]] = []
    for g in got:
        for key, value in g["stats"].items():
            if isinstance(value, list):
                getattr(stats, key).extend(value)
            elif key != "reconnect":
                setattr(stats, key, getattr(stats, key) + value)
        lags += [tuple(x) for x in g["lags"]]
    # the round trips in the order they ended, as one process would have them
    order = sorted(range(len(stats.rtt)), key=stats.rtt_at.__getitem__)
    stats.rtt, stats.rtt_at = [stats.rtt[i] for i in order], [stats.rtt_at[i] for i in order]
    return stats, lags, start, sum(g["cpu"] for g in got)
