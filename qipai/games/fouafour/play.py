"""``qipai play fouafour``: one 4A4 deal in the terminal, you and a bot partner (the seat
opposite) against two bots.

Type plays as rank strings (``345``, ``334455``, ``LB``, ``44A``; ``T`` = ten) or card codes,
``pass``; in a 叉 window ``cha 77`` (or just ``77``), in a 勾 window ``gou 7``; ``hint`` lists your
legal actions, ``quit`` stops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import place_names, play_table, seat_table, show_cards, to_beat
from qipai.games.terminal import result_line
from qipai.i18n import say


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    table = seat_table(state.game, view["phase"], ["seat", "player", "team", "cards", "out"])
    for s in range(4):
        mark = "▶ " if s in view["to_act"] else ""
        out = str(view["finished"].index(s) + 1) if s in view["finished"] else ""
        table.add_row(f"{mark}{s}", names[s], "AB"[s % 2], str(view["counts"][s]), out)
    console.print(table)
    info = [say("term.lbl.dealer", {"seat": names[view["dealer"]]}),
            say("term.faf.firstLeader", {"seat": names[view["first_leader"]]})]
    if view["top"] is not None:
        info.append(to_beat("fouafour", view["top"], view["top"]["play"], names))
    if view["window"] is not None:
        w = view["window"]
        info.append(say("term.faf.window", {"kind": "叉" if w["kind"] == "cha" else "勾", "rank": w["rank"],
                                            "seat": names[w["by"]]}))
    console.print("  ".join(info), markup=False)
    console.print(say("term.lbl.handRanks", {"n": len(view["hand"]), "cards": show_cards(view["hand"]),
                                             "ranks": view["hand_ranks"]}), markup=False)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded fouafour game) at ``seat`` (0-3); the other three
    seats are ``bot`` (default: the rule bot). ``read_line(prompt)`` returns a line and raises
    ``EOFError`` at the end of input. Returns the final state (unfinished if you quit)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2, 3):
        raise OptionError(f"seat must be 0-3, got {seat!r}",
                          code="game.bad_seat", params={"seat": seat, "max": 3})
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s) for s in range(4) if s != seat}
    names = place_names(seat, 4, name)         # the partner sits across (对家)
    if not play_table(state, seat, bots, names, console, read_line,
                      lambda: render(state, seat, names, console), say("term.help.fouafour"),
                      game="fouafour"):
        return state
    res = state.result
    console.print(say("term.dealOverWords", {"result": result_line(state, seat, names)}), markup=False)
    if res.details.get("order"):
        console.print(say("term.faf.order", {"order": ", ".join(names[s] for s in res.details["order"])}),
                      markup=False)
    return state
