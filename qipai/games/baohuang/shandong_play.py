"""``qipai play baohuang -o ruleset=sdbh.provisional``: one deal of the experimental 山东保皇 in the
terminal, you against three bots. Type a play as a rank string (``777``, ``A23``, ``TJQKA``,
``L``) or card codes (``7H 7S``), or ``pass``; ``moves``, ``help`` and ``quit`` as in every card
game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from qipai.games.card_terminal import play_table, show_cards
from qipai.games.terminal import print_result
from qipai.i18n import say

from .shandong import SEATS, TITLES


def title_words(title: str) -> str:
    """A place's title (``TITLES``: 保皇, 反保, 草头, 包庄) in the terminal's language."""
    return say(f"term.sdbh.place.{TITLES.index(title)}", default=title)


def run(game, bot: str | None, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> Any:
    """Play one deal against three ``bot`` bots (default ``rule``); ``seat`` 0..3 is yours.
    Returns the final state (unfinished if you quit). Raises OptionError for a bad seat."""
    from .play import seat_bots

    state, bots, names = seat_bots(game, bot, seat, seed, SEATS)

    def render() -> None:
        view = state.view(seat)
        last: dict[int, str] = {s: text for s, text, *_ in view["plays"]}
        table = Table(title=say("term.sdbh.title"))
        for col in ("seat", "player", "cards", "last"):
            table.add_column(say(f"term.col.{col}"))
        for s in range(SEATS):
            mark = "▶ " if s in view["to_act"] else ""
            table.add_row(f"{mark}{s}", names[s], str(view["counts"][s]), last.get(s, ""))
        console.print(table)
        top = view["top"]
        if top is not None:
            console.print(say("term.toBeatPlain", {"play": top["play"], "seat": names[top["seat"]]}),
                          markup=False)
        console.print(say("term.lbl.handRanks", {"n": len(view["hand"]), "cards": show_cards(view["hand"]),
                                                 "ranks": view["hand_ranks"]}), markup=False)

    if play_table(state, seat, bots, names, console, read_line, render, say("term.help.sdbh")):
        d = state.result.details
        console.print(say("term.sdbh.held", {"list": ", ".join(
            say("term.sdbh.seatPoints", {"name": names[s], "points": p, "title": title_words(d["titles"][s])})
            for s, p in enumerate(d["points"]))}), markup=False)
        print_result(state, seat, console)
    return state
