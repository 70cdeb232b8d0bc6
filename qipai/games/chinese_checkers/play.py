"""``qipai play chinese-checkers`` (or ``tiaoqi``): a two-player game in the terminal against a bot.

The star is drawn with Rich, N at the top, with its cell names (docs/games/chinese-checkers.md):
the column letters (a–z without i) above and below, the row number (1–17) after each row;
``n9`` is the centre. Every move the terminal shows (the bot's, the list of legal moves) is
written in cell names. Type a move as cells joined by ``>`` (``q4>p5``; for a chain the start
and end are enough, ``p3>t7``); the engine's ``q,r`` holes are read too (``-1,5>-1,4``). Or
``pass``, ``moves`` (every legal move), ``resign``, ``draw``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction
from qipai.games.terminal import HANDLED, QUIT, RESIGNED, common_command, print_result, refusal
from qipai.i18n import say

from .board import COLUMNS, COORDS, INDEX, cell_name, parse_hole
from .notation import parse_action

STYLES = ("bold red", "bold cyan", "bold green", "bold yellow", "bold magenta", "bold white")
#: each seat's marble: a shape of its own, so the sides are told apart without colour too
#: (piped, NO_COLOR); a terminal in colour draws them in STYLES as well
GLYPHS = ("●", "○", "▲", "△", "■", "□")


def board_text(state, you: int | None = None) -> Text:
    """The star as Rich Text, N at the top, the last move's holes highlighted, and under it the
    legend: each seat's marble and its side (``you`` marked)."""
    last = set()
    if state.last and ">" in state.last:
        last = {INDEX[tuple(int(v) for v in h.split(","))] for h in state.last.split(">")}
    out = Text()
    ruler = " " * 4 + COLUMNS + "\n"               # the cell columns: hole q,r at 2q + r + 12
    out.append(ruler, style="dim")
    for r in range(-8, 9):
        row = [h for h, (q, rr) in enumerate(COORDS) if rr == r]
        first_q = COORDS[row[0]][0]
        out.append(" " * (2 * first_q + r + 16))
        for h in row:
            owner = state.board[h]
            style = "dim" if owner < 0 else STYLES[owner]
            if h in last:
                style += " reverse"
            out.append("·" if owner < 0 else GLYPHS[owner], style=style)
            out.append(" ")
        out.append(" " * (12 - COORDS[row[-1]][0] * 2 - r) + f"{9 - r}\n", style="dim")
    out.append(ruler, style="dim")
    out.append_text(legend(state, you))
    return out


def legend(state, you: int | None = None) -> Text:
    """``● S (you)  ○ N``: each seat's marble, in its colour, and the side it plays."""
    out = Text()
    for i, camp in enumerate(state.camps):
        if i:
            out.append("  ")
        out.append(GLYPHS[i], style=STYLES[i])
        out.append(" " + say("term.cc.legendYou" if i == you else "term.cc.legend", {"side": side(camp)}))
    return out


def cells(move) -> str:
    """A move by the cell names of its holes (``q4>p5``), or its text when it has no holes."""
    text = str(move)
    return ">".join(cell_name(parse_hole(h)) for h in text.split(">")) if ">" in text else text


def side(camp: str) -> str:
    """A camp as the board's words name it, a side in Chinese (``S`` -> 南方), its letter in
    English."""
    return say("term.cc.side", {"camp": say(f"cc.camp.{camp}")})


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one two-player game: the human has ``seat`` (0 = S, moves first), the bot the other."""
    if seat not in (0, 1):
        raise IllegalAction("terminal chinese-checkers is a two-player game: seat 0 (S) or 1 (N)",
                            code="chinese-checkers.terminal_chinese_checkers_two")
    state = game.new_state(num_seats=2)
    opponent = make_bot(game.id, bot, seed)
    camp = side(state.camps[seat])
    colour = say("term.cc.redFirst" if seat == 0 else "term.cc.cyan")
    target = say(f"cc.camp.{state.targets[seat]}")
    console.print(say("term.cc.welcome", {"camp": camp, "colour": colour, "bot": bot,
                                          "target": target, "jumps": game.options["jump_rule"]})
                  + " " + say("term.help.chinese-checkers"), markup=False)
    while not state.is_terminal():
        console.print(board_text(state, seat))
        if state.current_player != seat:
            move = opponent.choose(state, state.current_player)
            who = side(state.camps[state.current_player])
            console.print(say("term.plays", {"who": who, "move": cells(move)}), markup=False)
            state.apply(move)
            continue
        line = read_line(say("term.cc.prompt", {"camp": camp, "n": state.moves[seat] + 1})).strip()
        if not line:
            continue
        done = common_command(line.lower(), state, seat, console,
                              help_text=say("term.help.chinese-checkers"), bot=bot, move_text=cells)
        if done == QUIT:
            return
        if done == RESIGNED:
            break
        if done == HANDLED:
            continue
        try:
            state.apply(parse_action(line), seat)
        except IllegalAction as e:
            console.print(say("term.refused", {"reason": refusal(e)}), markup=False)
    console.print(board_text(state, seat))
    moves = " / ".join(str(m) for m in state.moves)
    print_result(state, seat, console, say("term.cc.moves", {"moves": moves}))
