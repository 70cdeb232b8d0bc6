"""Search bots (levels 3–5): MCTS over a game's :class:`~qipai.bots.mcts.Searcher`, thinking in
a process pool so that a server's event loop never waits for them.

A game registers its searcher with :func:`register_searcher`, which registers the bots
``mcts3``, ``mcts4`` and ``mcts5`` (budgets in :data:`LEVEL_BUDGETS`). Each decision goes
through one picklable job, ``think(game_id, options, seat, inputs, playouts, ms, seed)``, whose
``inputs`` come from :meth:`Searcher.inputs` — for a game with hidden information only the
seat's view — so what the search may know is exactly what is sent to the worker.

* :meth:`SearchBot.choose` (terminal play, events in virtual time, benchmarks) thinks in the
  calling process with the playout budget only, so a fixed seed gives a fixed move.
* :meth:`SearchBot.choose_async` (a live table) sends the job to the pool
  (:func:`pool`, ``QIPAI_BOT_WORKERS`` processes, default 2) with a time limit: the level's, cut
  to a quarter of what the seat's clock has left. A worker killed while thinking does not
  lose the move: the pool is replaced and the job sent again (then the rule bot answers).
* Either way, a search that cannot sample the hidden cards of the view
  (:class:`~qipai.bots.ismcts.NoDeterminization`) is answered by the rule bot too, logged once
  per bot: a built-in bot never loses a table by its own fault.

Turns the searcher does not search (opening choices, bidding, marking dead stones) are answered
by the game's rule bot in the calling process: those are one-step rules, fast.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from multiprocessing import get_context
from typing import Any

from qipai.bots.ismcts import NoDeterminization
from qipai.bots.mcts import Budget, OutOfTime, Searcher, deadline
from qipai.core.pools import release, stop_pool

#: level -> (iterations, time limit in ms on a live table)
LEVEL_BUDGETS: dict[int, Budget] = {3: Budget(300, 1500), 4: Budget(1200, 4000), 5: Budget(4000, 10000)}
#: the least and most time a live search is given (ms), and what is kept back for the move's trip
MIN_MS, SAFETY_MS = 50, 400
#: the time (ms) kept for a job's trip to a worker and back when its answer is due at a set time
HOP_MS = 500

_SEARCHERS: dict[str, Searcher] = {}
log = logging.getLogger(__name__)


def register_searcher(searcher: Searcher, rule_bot: Callable[[int | None], Any]) -> None:
    """Register ``searcher`` for its game and the bots ``mcts3`` .. ``mcts5`` that use it
    (``rule_bot(seed)`` answers the turns the searcher does not search)."""
    from qipai.bots import register_bot

    _SEARCHERS[searcher.game_id] = searcher
    for level, budget in LEVEL_BUDGETS.items():
        register_bot(searcher.game_id, f"mcts{level}",
                     lambda seed, b=budget, lv=level: SearchBot(searcher, rule_bot(seed), b, seed, lv))


def searcher_for(game_id: str) -> Searcher:
    """The registered searcher of ``game_id`` (importing the game's bot module). KeyError if none."""
    from qipai.bots import _load

    _load(game_id)
    return _SEARCHERS[game_id]


@cache
def _game(game_id: str, options_json: str) -> Any:
    import qipai

    return qipai.load(game_id, **json.loads(options_json))


def think(game_id: str, options: dict[str, Any], seat: int, inputs: dict[str, Any], playouts: int,
          ms: int | None, seed: int, sent: float | None = None) -> str:
    """One decision (runs in a worker process or in the caller): the text of the action the
    search chooses for ``seat`` from ``inputs``, within ``ms`` from the call, or from ``sent``
    (the ``time.monotonic()`` at which a live table sent the job: a job that waited in the
    pool's queue for a free worker has that much less time; the root states' preparation
    counted; :func:`qipai.bots.mcts.deadline`). Raises what the searcher raises:
    :class:`~qipai.bots.mcts.OutOfTime` when no root state was drawn in time (at once when the
    job waited past its time)."""
    if ms is not None and sent is not None:
        ms -= int((time.monotonic() - sent) * 1000)
        if ms <= 0:
            raise OutOfTime("the job waited for a worker past its time")
    searcher = searcher_for(game_id)
    game = _game(game_id, json.dumps(options, sort_keys=True))
    with deadline(ms):
        roots = searcher.root_states(game, inputs)
        return searcher.search(roots, seat, Budget(playouts, ms), random.Random(seed)).action


_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def pool() -> ProcessPoolExecutor:
    """The shared process pool of search bots (created at first use; ``QIPAI_BOT_WORKERS``
    processes, default 2; a pool broken by a dead worker is replaced)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            workers = int(os.environ.get("QIPAI_BOT_WORKERS", "2"))
            ctx = get_context("forkserver")
            ctx.set_forkserver_preload(["qipai.bots.search"])
            _pool = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx)
        return _pool


def close_pool() -> None:
    """Stop the search bots' processes: the pool's workers, and the forkserver and resource
    tracker that made them (a server shutting down leaves none of them running). A search
    asked for later starts a new pool."""
    global _pool
    with _pool_lock:
        executor, _pool = _pool, None
    if executor is None:
        return
    stop_pool(executor)
    del executor
    release()              # its queues' semaphores released before the tracker that counts them stops
    from multiprocessing import forkserver, resource_tracker
    forkserver._forkserver._stop()
    resource_tracker._resource_tracker._stop()


def _drop_pool(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def live_ms(budget: Budget, ms_left: int | None) -> int:
    """The time a live search gets: the level's limit, cut to a quarter of ``ms_left`` (the
    seat's time to its deadline, ``None`` for no clock) after :data:`SAFETY_MS`."""
    limit = budget.ms or 1000
    if ms_left is None:
        return limit
    return max(MIN_MS, min(limit, (ms_left - SAFETY_MS) // 4))


class SearchBot:
    """MCTS at one level (see the module docstring). ``level`` is 3, 4 or 5."""

    def __init__(self, searcher: Searcher, rule: Any, budget: Budget, seed: int | None, level: int) -> None:
        self.searcher = searcher
        self.rule = rule
        self.budget = budget
        self.level = level
        self.name = f"mcts{level}"
        self.rng = random.Random(seed)
        self.unsampled = 0           # decisions the rule bot answered for want of a sample
        #: :meth:`choose`'s time limit in ms (``None``: the playout budget only, reproducible)
        self.ms: int | None = None

    def job(self, state: Any, seat: int) -> tuple[str, dict[str, Any], int, dict[str, Any]] | None:
        """``(game id, options, seat, inputs)`` of a searched decision, or None when the rule
        bot answers this turn."""
        if not self.searcher.searched(state, seat):
            return None
        return state.game.id, dict(state.game.options), seat, self.searcher.inputs(state, seat)

    def _action(self, state: Any, seat: int, text: str) -> Any:
        return _resolved(self.searcher.resolver(state, seat), text)

    def _unsampled(self, state: Any, seat: int, error: NoDeterminization | OutOfTime) -> Any:
        """The rule bot's move when the search could not sample the view (logged once)."""
        if not self.unsampled:
            log.warning("%s %s: the rule bot answers: %s", state.game.id, self.name, error)
        self.unsampled += 1
        return self.rule.choose(state, seat)

    def choose(self, state: Any, seat: int) -> Any:
        """Think in this process with the playout budget only (reproducible), or within
        :attr:`ms` too when set."""
        job = self.job(state, seat)
        seed = self.rng.getrandbits(32)
        if job is None:
            return self.rule.choose(state, seat)
        try:
            text = think(*job, self.budget.playouts, self.ms, seed)
        except (NoDeterminization, OutOfTime) as e:
            return self._unsampled(state, seat, e)
        return self._action(state, seat, text)

    async def choose_async(self, state: Any, seat: int, ms_left: int | None,
                           due_ms: int | None = None) -> Any:
        """Think in the process pool for at most :func:`live_ms`, and when ``due_ms`` is given
        (the time to the end of a held private window, by which the answer must be back) for at
        most ``due_ms`` less :data:`HOP_MS` (never under :data:`MIN_MS`); the state is read only
        before the first ``await``, except when the rule bot answers (below).

        A worker that dies while thinking (killed, out of memory) breaks the pool: the pool
        is replaced and the job sent again with what is left of the time; when the new pool
        breaks too, the rule bot answers (its move is still made, the table never waits on a
        dead worker). The rule bot answers too when the search finds no sample of the view, or
        none within the time limit."""
        job = self.job(state, seat)
        seed = self.rng.getrandbits(32)
        if job is None:
            return self.rule.choose(state, seat)
        legal = self.searcher.resolver(state, seat)
        loop = asyncio.get_running_loop()
        start = time.monotonic()
        for attempt in (1, 2):
            spent = int((time.monotonic() - start) * 1000)
            ms = live_ms(self.budget, None if ms_left is None else ms_left - spent)
            if due_ms is not None:
                ms = max(MIN_MS, min(ms, due_ms - spent - HOP_MS))
            executor = pool()
            try:
                text = await loop.run_in_executor(executor, think, *job, self.budget.playouts, ms, seed,
                                                  time.monotonic())
                break
            except BrokenProcessPool:
                _drop_pool(executor)
                if attempt == 2:
                    return self.rule.choose(state, seat)
            except (NoDeterminization, OutOfTime) as e:
                return self._unsampled(state, seat, e)
        return _resolved(legal, text)


def _resolved(lookup: Any, text: str) -> Any:
    """The legal action ``lookup`` (:meth:`Searcher.resolver`) finds for the search's ``text``;
    ``ValueError`` when it is not legal now."""
    action = lookup(text)
    if action is None:
        raise ValueError(f"the search chose {text!r}, which is not legal now")
    return action
