"""``qipai play gomoku`` / ``qipai play renju``: one game in the terminal against a built-in bot.

The board is drawn with Rich, row 15 at the top, the last stone highlighted and, in renju with
Black to move, Black's forbidden points marked ``×``. Type a point (``h8``) or one of:
``pass``, ``swap``, ``offer g11 j11``, ``choose j11``, ``claim``, ``forbidden`` (list Black's
forbidden points), ``resign``, ``draw``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction
from qipai.games.terminal import HANDLED, QUIT, RESIGNED, common_command, print_result

from .board import BLACK, COLUMNS, SIZE, WHITE, point, point_name

HELP = ("Type a point (h8) or: pass, swap, offer g11 j11, choose j11, claim, forbidden, "
        "resign, draw, quit.")


def board_text(state, show_forbidden: bool = True) -> Text:
    """The position as a Rich Text grid, row 15 at the top."""
    last = state.moves[-1][1] if state.moves else None
    forbidden = set()
    if show_forbidden:
        view = state.view(None)
        forbidden = set(view["forbidden"] or ())
    out = Text()
    out.append("    " + " ".join(COLUMNS) + "\n", style="dim")
    for row in range(SIZE - 1, -1, -1):
        out.append(f"{row + 1:>3} ", style="dim")
        for col in range(SIZE):
            p = point(col, row)
            s = state.board.get(p)
            if s == BLACK:
                ch, style = "●", "bold"
            elif s == WHITE:
                ch, style = "○", "bold"
            elif point_name(p) in forbidden:
                ch, style = "×", "red"
            else:
                ch, style = "┼", "dim"
            if p == last:
                style += " reverse"
            out.append(ch, style=style)
            if col < SIZE - 1:
                out.append(" ")
        out.append(f" {row + 1}\n", style="dim")
    out.append("    " + " ".join(COLUMNS) + "\n", style="dim")
    return out


def _normalise(line: str) -> str:
    """Terminal shorthand to action text: ``offer g11 j11`` -> ``offer:g11,j11``."""
    parts = line.split()
    if parts and parts[0].lower() == "offer" and len(parts) == 3:
        return f"offer:{parts[1]},{parts[2]}"
    if parts and parts[0].lower() == "choose" and len(parts) == 2:
        return f"choose:{parts[1]}"
    return line


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one game: the human has ``seat`` (0 starts as Black), the bot the other seat."""
    if seat not in (0, 1):
        raise IllegalAction("gomoku seats are 0 (Black at the start) and 1 (White)",
                            code="gomoku.gomoku_seats_black_start")
    state = game.new_state()
    opponent = make_bot(game.id, bot, seed)
    console.print(f"You play seat {seat} ({'Black' if seat == 0 else 'White'} at the start) "
                  f"against the {bot} bot; rules: {game.options['ruleset']}, opening "
                  f"{game.options['opening']}. {HELP}", markup=False)
    while not state.is_terminal():
        if state.current_player != seat:
            console.print(board_text(state))
            action = opponent.choose(state, state.current_player)
            console.print(f"Seat {state.current_player} plays {action}", markup=False)
            state.apply(action)
            continue
        console.print(board_text(state))
        view = state.view(seat)
        prompt = f"{view['colours'][seat]} (move {view['move_number']}"
        if view["phase"] == "offer":
            prompt += ", offer two points"
        elif view["phase"] == "choose":
            prompt += ", choose " + " or ".join(view["choices"]["choose"])
        if view["choices"]["swap"]:
            prompt += ", or swap"
        line = read_line(prompt + ")> ").strip()
        if not line:
            continue
        cmd = line.lower()
        if cmd == "forbidden":
            pts = state.forbidden_points()
            console.print(", ".join(f"{p} ({k})" for p, k in pts.items()) or "none", markup=False)
            continue
        done = common_command(cmd, state, seat, console, help_text=HELP, bot=bot)
        if done == QUIT:
            return
        if done == RESIGNED:
            break
        if done == HANDLED:
            continue
        try:
            state.apply(_normalise(line))
        except IllegalAction as e:
            console.print(f"Refused: {e.reason}", markup=False)
    console.print(board_text(state, show_forbidden=False))
    print_result(state, seat, console)
