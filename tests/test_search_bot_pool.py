"""Search bots on live tables: a pool worker killed (SIGKILL) while a bot thinks never hangs the
table nor loses the move, and the level asked for at ``/bot`` and ``/fill`` is the bot that
plays the seat."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

import pytest

import qipai
from qipai.bots import make_bot, search
from qipai.bots.search import SearchBot

from .e2e.timing import until
from .server_helpers import client, post, signup


class Killer(threading.Thread):
    """Kills with SIGKILL every worker process of the search pool, as soon as it exists,
    ``times`` pools in a row (each pool is killed once), within ``seconds``."""

    def __init__(self, times: int, seconds: float = 30.0) -> None:
        super().__init__(daemon=True)
        self.times, self.seconds = times, seconds
        self.killed: list[int] = []
        self.pools: list[object] = []
        self.done = threading.Event()

    def run(self) -> None:
        for _ in until(self.seconds):
            if self.done.is_set() or len(self.pools) == self.times:
                return
            ex = search._pool
            procs = dict(getattr(ex, "_processes", None) or {}) if ex is not None else {}
            if ex is not None and procs and ex not in self.pools:
                self.pools.append(ex)
                for pid in procs:
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)
            time.sleep(0.01)


@pytest.fixture
def one_worker(monkeypatch):
    monkeypatch.setenv("QIPAI_BOT_WORKERS", "1")
    search._drop_pool(search.pool()) if search._pool is not None else None
    yield
    if search._pool is not None:
        search._drop_pool(search._pool)


def _think(bot: SearchBot, state, ms_left: int) -> object:
    return asyncio.run(bot.choose_async(state, 0, ms_left))


def test_a_worker_killed_while_thinking_is_replaced_and_the_move_made(one_worker):
    """The worker thinking for a level-5 xiangqi bot is killed: the pool is replaced, the job
    runs again in the new worker, and a legal move comes back within the seat's time."""
    state = qipai.load("xiangqi").new_state()
    bot = make_bot("xiangqi", "mcts5", seed=3)
    killer = Killer(times=1)
    killer.start()
    t0 = time.monotonic()
    move = _think(bot, state, 6000)         # at most (6000 - 400) / 4 = 1.4 s a try
    took = time.monotonic() - t0
    killer.done.set()
    assert killer.killed, "no worker was killed"
    assert move in state.legal_actions(0)
    assert search._pool is not None and search._pool is not killer.pools[0]
    assert took < 6.0, took
    # the new pool serves the next decision as usual
    assert _think(bot, state, 2000) in state.legal_actions(0)


def test_when_the_new_worker_dies_too_the_rule_bot_answers(one_worker):
    state = qipai.load("go", board_size=9).new_state()
    bot = make_bot("go", "mcts4", seed=5)
    killer = Killer(times=2)
    killer.start()
    move = _think(bot, state, 20_000)
    killer.done.set()
    assert len(killer.pools) == 2, "both pools were to be killed"
    assert move in state.legal_actions(0)


def test_a_table_goes_on_when_the_bots_worker_is_killed(tmp_path, one_worker):
    """The real server: a level-3 xiangqi bot is Red; its worker is killed while it thinks.
    The bot's first move is still made, by the bot (no ``bot_error`` forfeit), and the game
    goes on."""
    killer = Killer(times=1)
    with client(tmp_path, bot_delay_ms=0) as c:
        me = signup(c, "alice")
        killer.start()
        r = post(c, me, "/api/tables", {"game": "xiangqi", "seat": 1, "bots": 1, "level": 3,
                                        "settings": {"clock": "xq_s2_15s"}})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        summary = None
        for _ in until(30):
            summary = c.get(f"/api/tables/{tid}").json()
            if summary["plies"]:
                break
            time.sleep(0.05)
        killer.done.set()
        runner = c.app.state.hub.get(tid).runner
        notes = [e for e in runner.events if e.get("type") == "bot_error"]
        assert killer.killed, "no worker was killed"
        assert summary["plies"] == 1 and summary["status"] == "playing", summary
        assert not notes and not runner.state.is_terminal()


def test_the_level_chosen_at_bot_and_fill_is_the_seats_bot(tmp_path):
    """``/bot`` with ``level`` 3 and ``/fill`` with ``level`` 4: the seats name mcts3 and mcts4,
    and the players the game starts with are search bots of those levels and budgets."""
    with client(tmp_path, bot_delay_ms=0) as c:
        me = signup(c, "alice")
        t = post(c, me, "/api/tables", {"game": "doudizhu", "seat": 2,
                                        "settings": {"clock": "none"}}).json()
        r = post(c, me, f"/api/tables/{t['id']}/bot", {"seat": 0, "level": 3}).json()
        assert r["seats"][0]["bot"] == "mcts3" and r["status"] == "open"
        bad = post(c, me, f"/api/tables/{t['id']}/fill", {"level": 7})
        assert bad.status_code == 400 and bad.json()["error"] == "bad_level"
        r = post(c, me, f"/api/tables/{t['id']}/fill", {"level": 4}).json()
        assert r["status"] == "playing" and r["seats"][1]["bot"] == "mcts4"
        players = c.app.state.hub.get(t["id"]).runner.players
        bots = [getattr(p, "bot", None) for p in players]
        assert isinstance(bots[0], SearchBot) and bots[0].level == 3
        assert isinstance(bots[1], SearchBot) and bots[1].level == 4
        assert bots[0].budget == search.LEVEL_BUDGETS[3] and bots[1].budget == search.LEVEL_BUDGETS[4]
        assert bots[2] is None                  # alice's seat


def test_jobs_queued_behind_a_busy_worker_answer_within_the_seats_time(one_worker):
    """Six tables' level-5 go bots ask at once with one worker: each job's time counts from when
    it was sent, not from when the worker took it up, so a job that waited its time out is
    answered by the rule bot at once and every seat has its move within its clock (counted from
    the worker's start, the sixth answer came after six searches of 0.6 s: 3.6 s)."""
    state = qipai.load("go", board_size=9).new_state()
    bots = [make_bot("go", "mcts5", seed=s) for s in range(6)]
    ms_left = 2800                          # a search of (2800 - 400) / 4 = 600 ms each
    _think(bots[0], state, 1000)            # the worker started, off the measure

    async def timed(bot):
        t0 = time.monotonic()
        move = await bot.choose_async(state, 0, ms_left)
        return move, (time.monotonic() - t0) * 1000

    async def all_at_once():
        return await asyncio.gather(*(timed(b) for b in bots))

    answers = asyncio.run(all_at_once())
    for move, took in answers:
        assert move in state.legal_actions(0)
        assert took < ms_left, [round(t) for _, t in answers]
    assert sum(b.unsampled for b in bots) >= 1      # the jobs that waited: the rule bot's moves
