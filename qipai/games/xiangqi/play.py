"""``qipai play xiangqi``: one game in the terminal against a built-in bot.

The board is drawn with Rich. Moves are typed in any notation the referee reads (ICCS
``h2e2``, WXF ``C2=5``, Chinese ``炮二平五``). Commands: ``moves``, ``resign``, ``draw``,
``help``, ``quit``. A refused move is answered with the reason; the third refused submission
in a game loses it (rules §4.4); text that is not written like a move at all is a typo, answered
without counting.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from qipai.core.errors import IllegalAction
from qipai.games.terminal import (
    HANDLED,
    QUIT,
    RESIGNED,
    common_command,
    opponent_for,
    opponent_moves,
    print_result,
    refusal,
)
from qipai.i18n import say

# every glyph names its side, so the board reads right without colour (piped, logged):
# Red 俥傌炮, Black 車馬砲, as on printed boards
NAMES = {"K": "帅", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
         "k": "将", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒"}
RED_FILES = "九八七六五四三二一"
MAX_REFUSED = 3


def board_text(state, flip: bool = False) -> Text:
    """The position as a Rich Text grid, Red at the bottom unless ``flip``."""
    last = None
    if state.log:
        last_text = state.log[-1] if isinstance(state.log[-1], str) else state.log[-1][1]
        last = {_sq(last_text[:2]), _sq(last_text[2:4])}
    files = range(8, -1, -1) if flip else range(9)
    ranks = range(10) if flip else range(9, -1, -1)
    out = Text()
    out.append("   " + " ".join(f" {'abcdefghi'[f]}" for f in files) + "\n", style="dim")
    for r in ranks:
        out.append(f" {r} ", style="dim")
        for f in files:
            sq = r * 9 + f
            p = state.piece_at(sq)
            style = "bold red" if p and p.isupper() else "bold white" if p else "dim"
            if last and sq in last:
                style += " on grey23"
            out.append(NAMES[p] if p else "・", style=style)
            out.append(" ")
        out.append("\n")
        if r == (5 if not flip else 4):
            out.append("    " + "  楚 河        汉 界\n", style="dim")
    if flip:   # Black's files are numbered 1-9 from Black's right (file a)
        out.append("   " + " ".join(f"{f + 1:>2}" for f in files) + "\n", style="dim")
    else:
        out.append("   " + " ".join(f"{RED_FILES[f]}" for f in files) + "\n", style="dim red")
    return out


def _sq(text: str) -> int:
    return int(text[1]) * 9 + "abcdefghi".index(text[0])


def run(game, *, bot, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one game: the human has ``seat`` (0 = Red), the bot the other."""
    if seat not in (0, 1):
        raise IllegalAction("xiangqi seats are 0 (Red) and 1 (Black)",
                            code="xiangqi.xiangqi_seats_red_black")
    state = game.new_state()
    opponent = opponent_for(game, bot, seed)
    refused = 0
    side = (say("term.xq.red"), say("term.xq.black"))
    console.print(say("term.xq.intro", {"side": side[seat], "who": _who(opponent),
                                        "examples": "h2e2, C2=5, 炮二平五"}), markup=False)
    while not state.is_terminal():
        console.print(board_text(state, flip=seat == 1))
        if state.current_player != seat:
            mover, before = state.current_player, state.clone()
            move = opponent_moves(opponent, state, mover)
            if move is not None:
                console.print(say("term.plays", {"who": side[mover], "move": _describe(before, move)}),
                              markup=False)
            continue
        check = say("term.inCheck") if state.in_check() else ""
        line = read_line(say("term.toMove", {"side": side[seat], "check": check})).strip()
        if not line:
            continue
        done = common_command(line.lower(), state, seat, console, help_text=say("term.help.xiangqi"),
                              bot=bot if isinstance(bot, str) else opponent.name)
        if done == QUIT:
            return
        if done == RESIGNED:
            break
        if done == HANDLED:
            continue
        from qipai.games.xiangqi.notation import looks_like_move

        if not looks_like_move(line):
            console.print(say("term.notAMove", {"text": repr(line)}), markup=False)
            continue
        try:
            state.apply(line)
        except IllegalAction as e:
            refused += 1
            console.print(say("term.refusedOf", {"reason": refusal(e), "n": refused, "max": MAX_REFUSED}),
                          markup=False)
            if refused >= MAX_REFUSED:
                state.forfeit(seat, "illegal_moves")
    console.print(board_text(state, flip=seat == 1))
    print_result(state, seat, console)


def _describe(state, move) -> str:
    try:
        from qipai.games.xiangqi.notation import to_chinese, to_wxf

        if isinstance(move, str):          # an engine's move, as text
            move = state.game.parse_action(move, state)
        return f"{move} ({to_wxf(state, move)}, {to_chinese(state, move)})"
    except ImportError:
        return str(move)


def _who(opponent) -> str:
    name = getattr(opponent, "name", "bot")
    return say("term.theBot", {"name": name}) if ":" not in name else name
