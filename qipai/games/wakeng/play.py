"""``qipai play wakeng``: one deal in the terminal, you against two bots.

Type plays as rank strings (``456``, ``KK``, ``T`` = ten) or card codes (``5H 5S``), ``pass``,
``bid 1``..``bid 3`` while bidding, ``hint`` for your legal actions, ``quit`` to stop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import play_table, show_cards

HELP = ("挖坑: type a play as ranks (456, KK, 3333; T = ten) or card codes (5H 5S); 'pass'; while "
        "bidding 'bid 1'..'bid 3' or 'pass'; 'hint' lists your legal actions; 'quit' stops.")


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    table = Table(title=f"挖坑 wakeng — {view['phase']}")
    for col in ("seat", "player", "role", "cards"):
        table.add_column(col)
    for s in range(3):
        role = "" if view["digger"] is None else ("挖坑者 digger" if s == view["digger"] else "opponent")
        mark = "▶ " if s in view["to_act"] else ""
        table.add_row(f"{mark}{s}", names[s], role, str(view["counts"][s]))
    console.print(table)
    info = [f"bids: {' '.join(f'{s}:{a}' for s, a in view['bids']) or '-'}"]
    if view["bid"]:
        info.append(f"bid {view['bid']} ({view['bid_name']})")
    if view["pit"] is not None:
        info.append("pit " + show_cards(view["pit"]))
    if view["top"] is not None:
        info.append(f"to beat: {view['top']['play']} ({view['top']['type']}, seat {view['top']['seat']})")
    console.print("  ".join(info), markup=False)
    console.print(f"your hand ({len(view['hand'])}): {show_cards(view['hand'])}   = {view['hand_ranks']}",
                  markup=False)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded wakeng game) at ``seat`` (0-2) against ``bot``
    (default: the rule bot). ``read_line(prompt)`` returns a line and raises ``EOFError`` at the
    end of input. Returns the final state (unfinished if you quit)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2):
        raise OptionError(f"seat must be 0, 1 or 2, got {seat!r}")
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s) for s in range(3) if s != seat}
    names = ["you" if s == seat else f"bot ({name})" for s in range(3)]
    if not play_table(state, seat, bots, names, console, read_line,
                      lambda: render(state, seat, names, console), HELP):
        return state
    res = state.result
    side = "digger" if res.details.get("digger") in res.winners else "opponents"
    who = "you won" if seat in res.winners else "you lost"
    console.print(f"Deal over ({res.reason}): the {side} win — {who}. Scores: {res.text}", markup=False)
    return state
