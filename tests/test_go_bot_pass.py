"""The go bot passes once the opponent has passed and no play changes the score (issue 13: the
greedy bot played on inside its own area until move 124 while the player passed again and
again), and plays on while a border between the two areas is still open (one empty region touching
both colours)."""

from qipai import load
from qipai.bots import make_bot

PASS = "pass"


def walls(gap: bool):
    """9x9: Black's wall on column E, White's on column F, all of it settled; with ``gap`` the
    top of both walls is left open (E9 and F9 empty: a border still to close)."""
    state = load("go", board_size=9).new_state()
    for row in range(1, 9 if gap else 10):
        state.apply(f"E{row}")
        state.apply(f"F{row}")
    state.apply("pass")                       # Black (the person) passes; White (the bot) to move
    return state


def said(state, seed):
    """The greedy bot's choice for the seat to act, as text."""
    return str(make_bot("go", "greedy", seed).choose(state, state.to_act[0]))


def test_after_the_opponents_pass_the_greedy_bot_passes_in_a_settled_position():
    for seed in range(8):
        state = walls(gap=False)
        assert said(state, seed) == PASS


def test_with_a_border_still_open_it_plays_on():
    for seed in range(8):
        state = walls(gap=True)
        assert said(state, seed) != PASS
