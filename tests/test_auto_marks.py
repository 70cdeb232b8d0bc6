"""The server's moves marked in a card table's history (``Timeouts.auto_marks``): a mark lands on
the very entry of the plays the server made for a seat, counting back over the seat's listed
plays only (4A4's 叉/勾 declines are not listed), and a window closing by itself for a seat that
could not claim carries no mark."""

from __future__ import annotations

import asyncio

from qipai.bots import make_bot
from qipai.core import load
from qipai.match import BotPlayer
from qipai.match.runner import GameRunner
from qipai.match.timesource import VirtualTime


class SilentOnce(BotPlayer):
    """A bot that lets its clock run out on its second regular (no window) turn."""

    def __init__(self, bot):
        super().__init__(bot)
        self.regular = 0

    def on_turn(self, runner, seat, turn):
        if runner.state.window is None:
            self.regular += 1
            if self.regular == 2:
                return
        super().on_turn(runner, seat, turn)


class NotedRunner(GameRunner):
    """Notes which entry of the plays (``state.play_log``) each server move made, and why."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.made: dict[int, str] = {}

    def _apply_auto(self, seat, action, t, why, used):
        before = len(self.state.play_log)
        super()._apply_auto(seat, action, t, why, used)
        if len(self.state.play_log) > before and self.state.play_log[before][0] == seat:
            self.made[before] = why


def marked_entries(play_log, marks):
    """The entries a history marks: each seat's entries counted back from the end (as the web
    client's markAutos does)."""
    want = {(s, later): why for s, later, why in marks}
    later: dict[int, int] = {}
    out = {}
    for i in range(len(play_log) - 1, -1, -1):
        s = play_log[i][0]
        k = later.get(s, 0)
        later[s] = k + 1
        if (s, k) in want:
            out[i] = want[(s, k)]
    return out


def test_marks_land_on_the_server_moves_and_never_on_a_window_decline():
    checked = 0
    for seed in range(4):
        game = load("fouafour")
        players = [SilentOnce(make_bot("fouafour", "rule", seed=seed)),
                   *(BotPlayer(make_bot("fouafour", "random", seed=seed * 10 + s)) for s in (1, 2, 3))]
        runner = NotedRunner(game, players, clock="card_default", time=VirtualTime(),
                             seed=f"m{seed}", private_hold=2000)
        seen = {}

        def watch(r=runner, seen=seen):
            for i, why in marked_entries(r.state.play_log, r.auto_marks()).items():
                seen[i] = why

        orig = runner._sync_turns

        def sync(t, acted, orig=orig, watch=watch):
            orig(t, acted)
            watch()

        runner._sync_turns = sync
        asyncio.run(runner.run())
        windows = [e for e in runner.events if e["type"] == "auto" and e["why"] == "window"]
        assert windows, "no 叉/勾 window closed by itself"
        want = {i: why for i, why in runner.made.items() if why in ("timeout", "trusteeship")}
        assert seen == want
        assert "window" not in set(seen.values())
        checked += len(want)
    assert checked
