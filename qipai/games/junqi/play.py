"""``qipai play junqi`` (and ``siguo-junqi``): one game in the terminal against built-in bots.

The board is drawn from the human seat's view: each cell shows the owner's letter and the
piece code (``S40``), ``?`` for a hidden piece, ``( )`` for an empty camp, ``[ ]`` for an empty
headquarters, ``.`` for any other empty point. In the layout phase type ``random`` (or ``1`` ..
``3``) for one of the offered layouts, or a full layout (``b1=F d1=M ...``); ``layouts`` shows
the offers. Then type a move (``a4-a9``) or ``moves``, ``resign``, ``draw``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction
from qipai.games.terminal import HANDLED, QUIT, RESIGNED, common_command, print_result, refusal
from qipai.i18n import say

from .board import Board, siguo_xy

STYLE = ("bold cyan", "bold red", "bold green", "bold magenta")


def xy(board: Board, p: int) -> tuple[int, int]:
    """Drawing coordinates of point ``p``: (column, row) with rows growing upwards."""
    name = board.names[p]
    if board.variant == "luzhan":
        return "abcde".index(name[0]), int(name[1:]) - 1
    if name[0] == "C":
        return 4 + 2 * int(name[1]), 4 + 2 * int(name[2])
    return siguo_xy(name[0], int(name[1]), int(name[2]))


def board_text(state, seat: int | None) -> Text:
    """The board as seen by ``seat`` (see the module docstring)."""
    b: Board = state.board
    view = state.view(seat)
    at = {x["point"]: x for x in view["pieces"]}
    cells = {xy(b, p): p for p in range(b.n)}
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    out = Text()
    for y in range(height - 1, -1, -1):
        out.append(f"{y + 1:>3} " if b.variant == "luzhan" else "    ", style="dim")
        for x in range(width):
            p = cells.get((x, y))
            if p is None:
                out.append("    ")
                continue
            piece = at.get(b.names[p])
            if piece is not None:
                code = piece["piece"]
                out.append(f"{b.seats[piece['seat']]}{code:<2} ", style=STYLE[piece["seat"]])
            elif b.camp[p]:
                out.append("( ) ", style="dim")
            elif b.hq[p]:
                out.append("[ ] ", style="dim")
            else:
                out.append(" .  ", style="dim")
        out.append("\n")
    if b.variant == "luzhan":
        out.append("    " + "".join(f" {c}  " for c in "abcde") + "\n", style="dim")
    return out


def _human_turn(state, seat: int, line: str, console: Console) -> None:
    """Apply the human's line (raises :class:`IllegalAction`)."""
    if state.phase == "layout":
        offers = state.legal_actions(seat)
        if line.lower() == "random":
            line = "1"
        if line.isdecimal() and 1 <= int(line) <= len(offers):
            state.apply(offers[int(line) - 1], seat)
            return
    state.apply(line, seat)


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one game: the human has ``seat``, bots named ``bot`` the others."""
    state = game.new_state(seed=seed)
    if seat not in range(state.num_seats):
        raise IllegalAction(f"junqi {game.variant} seats are 0..{state.num_seats - 1}",
                            code="junqi.junqi_seats",
                            params={"variant": game.variant, "n": state.num_seats - 1})
    letters = state.board.seats
    bots = {s: make_bot(game.id, bot, None if seed is None else seed * 10 + s)
            for s in range(state.num_seats) if s != seat}
    console.print(say("term.junqi.welcome", {"letter": letters[seat], "seat": seat,
                                             "variant": game.variant, "bot": bot})
                  + " " + say("term.help.junqi"), markup=False)
    while not state.is_terminal():
        others = [s for s in state.to_act if s != seat]
        if others:
            s = others[0]
            action = bots[s].choose(state, s)
            state.apply(action, s)
            if state.phase == "play" or state.history:
                console.print(f"{letters[s]} plays {state.history[-1][1] if state.history else 'its layout'}",
                              markup=False)
            continue
        console.print(board_text(state, seat))
        prompt = (say("term.jq.layout") if state.phase == "layout"
                  else say("term.jq.toMove", {"side": letters[seat]}))
        line = read_line(prompt + "> ").strip()
        if not line:
            continue
        cmd = line.lower()
        if cmd == "layouts" and state.phase == "layout":
            for i, a in enumerate(state.legal_actions(seat), 1):
                console.print(f"{i}: {a}", markup=False)
            continue
        done = common_command(cmd, state, seat, console, help_text=say("term.help.junqi"), bot=bot)
        if done == QUIT:
            return
        if done == RESIGNED:
            if not state.is_terminal():       # siguo: only this seat is out; bots play on
                console.print(say("term.jq.out"), markup=False)
                _finish_with_bots(state, seat, game, bot, seed)
            break
        if done == HANDLED:
            continue
        try:
            _human_turn(state, seat, line, console)
        except IllegalAction as e:
            console.print(say("term.refused", {"reason": refusal(e)}), markup=False)
    console.print(board_text(state, seat))
    print_result(state, seat, console)


def _finish_with_bots(state, seat: int, game, bot: str, seed: int | None) -> None:
    bots = {s: make_bot(game.id, bot, None if seed is None else seed * 10 + s)
            for s in range(state.num_seats)}
    while not state.is_terminal():
        s = state.to_act[0]
        state.apply(bots[s].choose(state, s), s)
