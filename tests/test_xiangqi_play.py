"""`qipai play xiangqi`: the terminal game driven by scripted input, and the built-in bots."""

import io

from rich.console import Console

import qipai
from qipai.bots import bot_names, make_bot
from qipai.games.xiangqi.play import run


def play(lines, seat=0, bot="greedy"):
    out = io.StringIO()
    feed = iter(lines)

    def read_line(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    try:
        run(qipai.load("xiangqi"), bot=bot, seat=seat, seed=1, console=Console(file=out, width=80),
            read_line=read_line)
    except EOFError:
        pass
    return out.getvalue()


def test_moves_in_every_notation_then_resign():
    text = play(["h2e2", "兵七进一", "P3+1", "moves", "help", "resign"], bot="random")
    assert text.count("Refused") == 0
    assert "Game over: You lost — you resigned." in text


def test_refused_input_gets_the_reason_and_the_third_loses():
    text = play(["h2h7", "zz", "h2h8", "e0e2"])
    assert "Refused:" in text and "refused submission 1 of 3" in text
    assert "'zz' is neither a move nor a command" in text   # a typo does not count
    assert "Game over: You lost — illegal moves." in text


def test_black_seat_bot_moves_first():
    text = play(["resign"], seat=1)
    assert "Red plays" in text and "Game over: You lost — you resigned." in text


def test_greedy_bot_takes_a_free_rook_and_mates():
    assert {"random", "greedy"} <= set(bot_names("xiangqi"))
    bot = make_bot("xiangqi", "greedy", seed=0)
    st = qipai.load("xiangqi").new_state(position="4k4/9/9/9/4r4/9/9/4R4/9/3K5 w - - 0 1")
    assert str(bot.choose(st, 0)) == "e2e5"
    mate = qipai.load("xiangqi").new_state(position="3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1")
    move = bot.choose(mate, 0)
    mate.apply(move)
    assert mate.is_terminal() and mate.result.winners == (0,)   # a1a8 stalemates: a win


def test_bot_against_bot_finishes():
    st = qipai.load("xiangqi").new_state()
    bots = [make_bot("xiangqi", "greedy", seed=3), make_bot("xiangqi", "random", seed=4)]
    while not st.is_terminal():
        st.apply(bots[st.current_player].choose(st, st.current_player))
    assert st.result.reason in ("checkmate", "stalemate", "no_capture_limit", "repetition_draw",
                                "repetition_loss", "insufficient_material")


def test_board_glyphs_tell_the_sides_apart_without_colour():
    from qipai.games.xiangqi.play import NAMES, board_text

    red = {NAMES[p] for p in "KABNRCP"}
    black = {NAMES[p] for p in "kabnrcp"}
    assert not red & black
    text = board_text(qipai.load("xiangqi").new_state()).plain
    assert text.count("俥") == 2 and text.count("車") == 2 and text.count("砲") == 2
