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

from .board import BLACK, COLUMNS, SIZE, WHITE, point, point_name


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


def run(game, *, bot, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one game: the human has ``seat`` (0 starts as Black), the bot the other seat."""
    if seat not in (0, 1):
        raise IllegalAction("gomoku seats are 0 (Black at the start) and 1 (White)",
                            code="gomoku.gomoku_seats_black_start")
    state = game.new_state()
    opponent = opponent_for(game, bot, seed)
    who = say("term.theBot", {"name": bot}) if isinstance(bot, str) else opponent.name
    colour = say("term.gomoku.black" if seat == 0 else "term.gomoku.white")
    console.print(say("term.gomoku.welcome", {"seat": seat, "colour": colour, "who": who,
                                              "ruleset": game.options["ruleset"],
                                              "opening": game.options["opening"]})
                  + " " + say("term.help.gomoku"), markup=False)
    while not state.is_terminal():
        if state.current_player != seat:
            console.print(board_text(state))
            mover = state.current_player
            action = opponent_moves(opponent, state, mover)
            if action is not None:
                console.print(say("term.seatPlays", {"seat": mover, "move": str(action)}), markup=False)
            continue
        console.print(board_text(state))
        view = state.view(seat)
        prompt = say("term.gm.prompt", {"colour": say(f"term.{view['colours'][seat]}"),
                                        "n": view["move_number"]})
        if view["phase"] == "offer":
            prompt += say("term.gm.offer")
        elif view["phase"] == "choose":
            prompt += say("term.gm.choose", {"points": view["choices"]["choose"]})
        if view["choices"]["swap"]:
            prompt += say("term.gm.swap")
        line = read_line(prompt + say("term.gm.end")).strip()
        if not line:
            continue
        cmd = line.lower()
        if cmd == "forbidden":
            pts = state.forbidden_points()
            console.print(", ".join(f"{p} ({k})" for p, k in pts.items()) or "none", markup=False)
            continue
        done = common_command(cmd, state, seat, console, help_text=say("term.help.gomoku"),
                              bot=bot if isinstance(bot, str) else opponent.name)
        if done == QUIT:
            return
        if done == RESIGNED:
            break
        if done == HANDLED:
            continue
        try:
            state.apply(_normalise(line))
        except IllegalAction as e:
            console.print(say("term.refused", {"reason": refusal(e)}), markup=False)
    console.print(board_text(state, show_forbidden=False))
    print_result(state, seat, console)
