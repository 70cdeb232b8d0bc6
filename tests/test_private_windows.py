"""4A4's 叉/勾 windows close on one schedule whoever could claim (fouafour §3.4): the runner
answers at once for seats that cannot claim and applies the window's closing answer only when
``private_hold`` ms have passed. In virtual time the schedule is exact."""

from __future__ import annotations

import asyncio
import random

from qipai.bots import make_bot
from qipai.core import load
from qipai.match import BotPlayer
from qipai.match.runner import GameRunner
from qipai.match.timesource import VirtualTime

HOLD = 2000


def window_key(state):
    w = state.window
    return None if w is None else (len(state.play_log), w["kind"], w["by"])


class WatchedRunner(GameRunner):
    """Notes when each window opens and closes, who could claim it, and how many answers were
    applied at its opening."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.windows: list[dict] = []
        self._open = None

    def _sync_turns(self, t, acted):
        before = len(self.state.log)
        key = window_key(self.state)
        if self._open is not None and key != self._open["key"]:
            self._open["closed"] = t
            self._open = None
        if key is not None and self._open is None:
            w = self.state.window
            eligible = [s for s in w["waiting"] if len(self.state.legal_actions(s)) > 1]
            self._open = {"key": key, "opened": t, "eligible": eligible, "log": before,
                          "asked": len(w["waiting"])}
            self.windows.append(self._open)
        super()._sync_turns(t, acted)
        if self._open is not None and self._open["log"] == before and "at_open" not in self._open:
            self._open["at_open"] = len(self.state.log) - before


class SlowBot(BotPlayer):
    """A bot that thinks a random time below the hold."""

    def __init__(self, bot, rng):
        super().__init__(bot)
        self.rng = rng

    def on_turn(self, runner, seat, turn):
        self.think_ms = self.rng.randrange(0, HOLD)
        super().on_turn(runner, seat, turn)


def play(seed):
    game = load("fouafour")
    rng = random.Random(seed)
    players = [SlowBot(make_bot("fouafour", "random", seed=seed * 10 + s), rng) if s == 0
               else BotPlayer(make_bot("fouafour", "random", seed=seed * 10 + s)) for s in range(4)]
    runner = WatchedRunner(game, players, clock="card_default", time=VirtualTime(), seed=f"w{seed}",
                           private_hold=HOLD)
    out = asyncio.run(runner.run())
    return runner, out


def test_every_window_closes_at_the_same_time_whoever_could_claim():
    durations: dict[str, set[int]] = {"nobody": set(), "seat 0": set(), "a bot": set()}
    for seed in range(6):
        runner, out = play(seed)
        assert out.result is not None
        for w in runner.windows:
            if "closed" not in w:
                continue              # the deal ended in it
            who = "nobody" if not w["eligible"] else "seat 0" if w["eligible"] == [0] else "a bot"
            durations[who].add(w["closed"] - w["opened"])
            # answered at once: every seat asked but one, whoever could claim
            assert w["at_open"] == w["asked"] - 1, w
    assert all(durations.values()), durations
    assert durations == {k: {HOLD} for k in durations}


def test_without_a_hold_windows_are_answered_by_the_runner_at_once():
    game = load("fouafour")
    players = [BotPlayer(make_bot("fouafour", "random", seed=s)) for s in range(4)]
    runner = WatchedRunner(game, players, clock="card_default", time=VirtualTime(), seed="w0",
                           private_hold=0)
    asyncio.run(runner.run())
    assert runner.windows and all(w.get("closed", 0) == w["opened"] for w in runner.windows
                                  if not w["eligible"] and "closed" in w)


class LogTable:
    """What a journal runner needs of its table: the action log, kept in a list."""

    def __init__(self):
        self.rows = []

    def journal(self, kind, seat, action, t, data):
        entry = type("Entry", (), {})()
        entry.op = {"row": (kind, seat, action, t, data)}
        self.rows.append(entry)
        return entry

    def unjournal(self, entry):
        self.rows.remove(entry)

    def before_move(self, seat, action):
        pass

    def changed(self):
        pass

    def send_state(self, seat):
        pass

    def send_spectators(self, text):
        pass


def test_the_action_log_rebuilds_a_game_with_held_window_answers():
    from qipai.server.journal import JournalRunner, replay

    game = load("fouafour")
    rng = random.Random(3)
    players = [SlowBot(make_bot("fouafour", "random", seed=s), rng) for s in range(4)]
    runner = JournalRunner(game, players, clock="card_default", time=VirtualTime(), seed="log",
                           private_hold=HOLD)
    runner.table = LogTable()
    runner.table.journal("start", None, None, 0, None)
    asyncio.run(runner.run())
    rows = [e.op["row"] for e in runner.table.rows if e.op is not None]
    held_moves = [r for r in rows if r[0] == "expire" and r[1] == -1]
    assert held_moves, "no window answer was held"
    again = JournalRunner(game, [SlowBot(make_bot("fouafour", "random"), rng) for _ in range(4)],
                          clock="card_default", time=VirtualTime(), seed="log", private_hold=HOLD)
    again.table = LogTable()
    replay(again, rows, lambda r, d: None)
    assert again.state.log == runner.state.log and again.state.result == runner.state.result


class CountingBot(BotPlayer):
    """Counts the answers given at once and the turns told to it; notes a turn whose delayed
    answer found it over."""

    def __init__(self, bot):
        super().__init__(bot)
        self.at_once = self.told = self.stale = 0

    def answer_now(self, runner, seat):
        action = super().answer_now(runner, seat)
        self.at_once += action is not None
        return action

    def on_turn(self, runner, seat, turn):
        self.told += 1
        super().on_turn(runner, seat, turn)

    async def _answer(self, runner, seat, turn):
        self.stale += runner.turn_of(seat) != turn
        await super()._answer(runner, seat, turn)


def test_a_bot_answering_a_window_at_once_has_no_delayed_answer_scheduled():
    game = load("fouafour")
    for seed in range(2):
        players = [CountingBot(make_bot("fouafour", "rule", seed=s)) for s in range(4)]
        runner = GameRunner(game, players, clock="card_default", time=VirtualTime(), seed=f"n{seed}",
                            private_hold=0)
        out = asyncio.run(runner.run())
        assert out.result is not None
        assert sum(p.at_once for p in players) > 0
        assert sum(p.stale for p in players) == 0


class ShownRunner(GameRunner):
    """Notes, per private window, every position number (``shown_seq``) shown while it is open,
    the actions applied in it, and the events told to everybody."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.shown: list[dict] = []
        self._open = False

    def _sync_turns(self, t, acted):
        super()._sync_turns(t, acted)
        private = self.state.turns_private()
        if private and not self._open:
            self.shown.append({"seqs": set(), "first_log": len(self.state.log), "last_log": 0})
        if private:
            self.shown[-1]["seqs"].add(self.shown_seq())
            self.shown[-1]["last_log"] = len(self.state.log)
        self._open = private


def test_a_window_shows_one_number_until_it_closes_when_a_seat_with_a_choice_answers_late():
    """A mahjong claim window outlasting its minimum time (a seat with a choice still thinking):
    the forced passes applied when the minimum time ends must not change the number shown — it
    would tell how many seats could not claim (mahjong-gb 2.6)."""
    game = load("mahjong-gb", hands_per_match=1)
    late = []
    for seed in range(4):
        # seat 0 thinks past the minimum time; the others answer within it (a seat with a
        # choice is held to the minimum time, then applied while seat 0 still thinks)
        players = [BotPlayer(make_bot("mahjong-gb", "greedy", seed=seed * 10 + s),
                             think_ms=3 * HOLD if s == 0 else HOLD // 2) for s in range(4)]
        runner = ShownRunner(game, players, clock="none", time=VirtualTime(), seed=f"m{seed}",
                             private_hold=HOLD)
        out = asyncio.run(runner.run())
        assert out.result is not None
        two = [w for w in runner.shown if len(w["seqs"]) > 1]
        assert not two, two[:3]
        late += [w for w in runner.shown if w["last_log"] > w["first_log"]]
    assert late, "no window outlasted its minimum time with answers applied in it"
