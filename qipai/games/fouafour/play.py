"""``qipai play fouafour``: one 4A4 deal in the terminal, you and a bot partner (the seat
opposite) against two bots.

Type plays as rank strings (``345``, ``334455``, ``LB``, ``44A``; ``T`` = ten) or card codes,
``pass``; in a 叉 window ``cha 77`` (or just ``77``), in a 勾 window ``gou 7``; ``hint`` lists your
legal actions, ``quit`` stops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import play_table, show_cards

HELP = ("4A4: type a play as ranks (7, 55, 345, 334455, 888, LB, 44A; T = ten) or card codes; 'pass'; "
        "in a 叉 window 'cha 77' or 'pass', in a 勾 window 'gou 7' or 'pass'; 'hint' lists your legal "
        "actions; 'quit' stops.")


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    table = Table(title=f"4A4 — {view['phase']}")
    for col in ("seat", "player", "team", "cards", "out"):
        table.add_column(col)
    for s in range(4):
        mark = "▶ " if s in view["to_act"] else ""
        out = str(view["finished"].index(s) + 1) if s in view["finished"] else ""
        table.add_row(f"{mark}{s}", names[s], "AB"[s % 2], str(view["counts"][s]), out)
    console.print(table)
    info = [f"dealer {view['dealer']}", f"♥3 led by seat {view['first_leader']}"]
    if view["top"] is not None:
        info.append(f"to beat: {view['top']['play']} ({view['top']['type']}, seat {view['top']['seat']})")
    if view["window"] is not None:
        w = view["window"]
        info.append(f"{'叉' if w['kind'] == 'cha' else '勾'} window on rank {w['rank']} (seat {w['by']})")
    console.print("  ".join(info), markup=False)
    console.print(f"your hand ({len(view['hand'])}): {show_cards(view['hand'])}   = {view['hand_ranks']}",
                  markup=False)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded fouafour game) at ``seat`` (0-3); the other three
    seats are ``bot`` (default: the rule bot). ``read_line(prompt)`` returns a line and raises
    ``EOFError`` at the end of input. Returns the final state (unfinished if you quit)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2, 3):
        raise OptionError(f"seat must be 0-3, got {seat!r}")
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s) for s in range(4) if s != seat}
    names = ["you" if s == seat else ("partner " if s == (seat + 2) % 4 else "") + f"bot ({name})"
             for s in range(4)]
    if not play_table(state, seat, bots, names, console, read_line,
                      lambda: render(state, seat, names, console), HELP):
        return state
    res = state.result
    verdict = "drawn" if not res.winners else ("your team wins" if seat in res.winners else "your team loses")
    console.print(f"Deal over ({res.reason}): {res.text}, {verdict}; order out: {res.details['order']}",
                  markup=False)
    return state
