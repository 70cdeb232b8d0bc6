"""``qipai play wakeng``: one deal in the terminal, you against two bots.

Type plays as rank strings (``456``, ``KK``, ``T`` = ten) or card codes (``5H 5S``), ``pass``,
``bid 1``..``bid 3`` while bidding, ``hint`` for your legal actions, ``quit`` to stop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import bids_line, place_names, play_table, seat_table, show_cards, to_beat
from qipai.games.terminal import result_line
from qipai.i18n import say


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    table = seat_table(state.game, view["phase"], ["seat", "player", "role", "cards"])
    for s in range(3):
        role = ("" if view["digger"] is None else
                say("term.wk.digger" if s == view["digger"] else "term.wk.opponent"))
        mark = "▶ " if s in view["to_act"] else ""
        table.add_row(f"{mark}{s}", names[s], role, str(view["counts"][s]))
    console.print(table)
    info = [bids_line(view["bids"], names)]
    if view["bid"]:
        info.append(say("term.wk.bid", {"n": view["bid"], "name": view["bid_name"]}))
    if view["pit"] is not None:
        info.append(say("term.wk.pit", {"cards": show_cards(view["pit"])}))
    if view["top"] is not None:
        info.append(to_beat("wakeng", view["top"], view["top"]["play"], names))
    console.print("  ".join(info), markup=False)
    console.print(say("term.lbl.handRanks", {"n": len(view["hand"]), "cards": show_cards(view["hand"]),
                                             "ranks": view["hand_ranks"]}), markup=False)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded wakeng game) at ``seat`` (0-2) against ``bot``
    (default: the rule bot). ``read_line(prompt)`` returns a line and raises ``EOFError`` at the
    end of input. Returns the final state (unfinished if you quit)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2):
        raise OptionError(f"seat must be 0, 1 or 2, got {seat!r}",
                          code="game.bad_seat", params={"seat": seat, "max": 2})
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s) for s in range(3) if s != seat}
    names = place_names(seat, 3, name)
    if not play_table(state, seat, bots, names, console, read_line,
                      lambda: render(state, seat, names, console), say("term.help.wakeng"), game="wakeng"):
        return state
    console.print(say("term.dealOverWords", {"result": result_line(state, seat, names)}), markup=False)
    return state
