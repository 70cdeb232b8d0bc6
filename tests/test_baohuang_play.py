"""``qipai play baohuang`` in a scripted terminal, and the bots playing whole deals."""

from __future__ import annotations

import io

from rich.console import Console

import qipai
from qipai.bots import bot_names, make_bot
from qipai.games.baohuang.play import run


def scripted(lines):
    it = iter(lines)

    def read_line(prompt: str) -> str:
        return next(it)
    return read_line


def test_terminal_deal_to_the_end_with_default_actions():
    """A bad line and 'moves' first, then the human answers every prompt with the timeout
    default of its seat; the deal ends with the result lines."""
    buf = io.StringIO()
    console = Console(file=buf, width=140, color_system=None)
    game = qipai.load("baohuang")
    made = []
    new_state = game.new_state
    game.new_state = lambda **kw: made.append(new_state(**kw)) or made[-1]   # keep the state
    first = iter(["@@", "moves"])

    def read_line(prompt: str) -> str:
        return next(first, None) or str(made[0].default_action(0))

    final = run(game, bot="rule", seat=0, seed=3, console=console, read_line=read_line)
    out = buf.getvalue()
    assert final is made[0] and final.is_terminal()
    assert "not accepted" in out and "Game over:" in out and "finishing order" in out


def test_terminal_quit_and_bad_seat():
    buf = io.StringIO()
    console = Console(file=buf, width=140, color_system=None)
    state = run(qipai.load("baohuang"), bot="random", seat=2, seed=5, console=console,
                read_line=scripted(["help", "quit"]))
    assert not state.is_terminal() and "Actions:" in buf.getvalue()
    try:
        run(qipai.load("baohuang"), seat=5, console=console, read_line=scripted([]))
    except qipai.core.errors.OptionError as e:
        assert "0..4" in str(e)
    else:
        raise AssertionError("seat 5 accepted")


def test_bots_finish_whole_deals_fast():
    import time
    assert {"random", "rule"} <= set(bot_names("baohuang"))
    game = qipai.load("baohuang")
    start = time.perf_counter()
    for seed in range(10):
        state = game.new_state(seed=seed)
        bots = [make_bot("baohuang", "rule" if s % 2 else "random", seed=s) for s in range(5)]
        while not state.is_terminal():
            p = state.current_player
            state.apply(bots[p].choose(state, p))
        assert sorted(state.result.details["order"]) == [0, 1, 2, 3, 4]
    assert time.perf_counter() - start < 10


def test_rule_bot_beats_random_bots_as_a_side():
    """The rule bots at every seat against random bots at every seat: rule seats score more."""
    game = qipai.load("baohuang")
    rule_total = 0
    for seed in range(20):
        state = game.new_state(seed=seed)
        rule_seats = {seed % 5, (seed + 2) % 5}
        bots = [make_bot("baohuang", "rule" if s in rule_seats else "random", seed=s) for s in range(5)]
        while not state.is_terminal():
            p = state.current_player
            state.apply(bots[p].choose(state, p))
        places = state.result.details["places"]
        rule_total += sum(3 - places[s] for s in rule_seats)
    assert rule_total > 0
