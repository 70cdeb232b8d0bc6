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


def test_one_dead_stone_does_not_keep_the_board_open_at_any_level():
    """The review's game: the person (Black) played A9, then passed again and again; the level-2
    bot filled the board for 30 moves to capture that one dead stone. Once the proposer's dead
    stones are taken off nothing is open: every level passes at once after the person's pass,
    play ends, and in the marking phase the bot marks the dead stone and submits."""
    from qipai.bots import bot_levels
    for level, name in bot_levels("go").items():
        state = load("go", board_size=9, end_procedure="agreement").new_state()
        state.apply("A9")
        state.apply("E5")
        state.apply("pass")                  # the person passes; the bot to move
        bot = make_bot("go", name, level)
        assert str(bot.choose(state, state.to_act[0])) == PASS, name
        state.apply(PASS)
        assert state.phase == "marking"
        # the bot's marks: the dead A9, then done
        seat = state.seat_of(2)                # White's seat
        for _ in range(3):
            action = bot.choose(state, seat)
            state.apply(action, seat)
            if str(action).endswith("done") or seat not in state.to_act:
                break
        assert 0 in state.marks[seat], (name, state.marks)


def test_a_bot_ahead_by_the_estimated_count_passes():
    """The person leaves a few stones and passes on: once the bot is ahead by its estimate of
    the count (each open point to the nearer colour), it passes too (it filled the board before)."""
    for name in ("random", "greedy"):          # the search levels take the rule bot's pass
        state = load("go", board_size=9, end_procedure="agreement").new_state()
        bot = make_bot("go", name, 1)
        opening, moves = ["E5", "C3", "G7"], 0
        while state.phase == "play" and moves < 60:
            if state.to_act[0] == 0:
                state.apply(opening.pop(0) if opening else PASS)
            else:
                state.apply(bot.choose(state, 1))
                moves += 1
        assert state.phase == "marking" and moves <= 30, (name, moves)
