"""``qipai play baohuang``: one deal in the terminal, you against four bots.

After every bot action a line says what it did; on your turn a Rich table shows each seat's
role as you know it, card count and last action, then the set to beat and your hand (card ids
and rank string). Type ``accept``, ``decline``, ``declare 7H`` (or card ids), a set as a rank
string (``999LL``) or card ids (``9H1 9S0 LJ2``), ``pass``; ``moves`` lists your legal actions,
``help``, ``resign`` and ``quit`` work as in every game. Bad input gets the reason and a new
prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import action_words, face, legal_words, place_names, seat_table, show_cards
from qipai.games.terminal import APPLIED, QUIT, RESIGNED, print_result, take_turn
from qipai.i18n import say

SEATS = 5


def _role(view: dict, s: int) -> str:
    if view["emperor"] == s:
        return say("term.bh.emperor")
    if view["guard"] == s:
        return say("term.bh.guard")
    if view["emperor"] is None:
        return say("term.bh.candidate") if view["candidate"] == s else ""
    return ""


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    last: dict[int, str] = {}
    for s, text, _ in view["plays"]:
        last[s] = show_cards(action_words(text))
    table = seat_table(state.game, view["phase"], ["seat", "player", "role", "cards", "last"])
    for s in range(SEATS):
        mark = "▶ " if s in view["to_act"] else ""
        place = say("term.bh.out", {"n": view["finished"].index(s) + 1}) if s in view["finished"] else ""
        table.add_row(f"{mark}{s}", names[s], _role(view, s), str(view["counts"][s]) + place, last.get(s, ""))
    console.print(table)
    info = []
    if view["package"] is not None:
        info.append(say("term.bh.package", {"cards": show_cards(view["package"])}))
    if view["named_card"]:
        info.append(say("term.bh.named", {"card": face(view["named_card"]),
                                          "revealed": show_cards(view["revealed"])})
                    + (" 明独" if view["ming_du"] else ""))
    if view["hidden_du"]:
        info.append(say("term.bh.hiddenDu"))
    if view["top"] is not None:
        info.append(say("term.toBeatPlain", {"play": view["top"]["set"], "seat": names[view["top"]["seat"]]}))
    if view["tribute"]:
        info.append(say("term.bh.tribute", {"list": ", ".join(f"{names[g]}→{names[r]} {face(c)}"
                                                              for g, r, c in view["tribute"])}))
    if info:
        console.print("  ".join(info), markup=False)
    console.print(say("term.lbl.hand", {"n": len(view["hand"]), "cards": show_cards(view["hand"])}),
                  markup=False)
    console.print(say("term.lbl.ranks", {"ranks": view["hand_ranks"]}), markup=False)


def seat_bots(game, bot: str | None, seat: int, seed: int | None, seats: int):
    """``(state, bots, names)`` of a terminal deal: a new state from ``seed``, a ``bot`` bot
    (default ``rule``) for every seat but ``seat``, and the seats' names. Raises OptionError
    for a bad seat."""
    if seat not in range(seats):
        raise OptionError(f"seat must be 0..{seats - 1}, got {seat!r}",
                          code="game.bad_seat", params={"seat": seat, "max": seats - 1})
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s)
            for s in range(seats) if s != seat}
    names = place_names(seat, seats, name)
    return state, bots, names


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded baohuang game) in the terminal against four ``bot``
    bots (default ``rule``); ``seat`` (0..4) is yours; ``seed`` fixes the deal. ``read_line``
    returns a line of input and raises ``EOFError`` at the end (default ``console.input``).
    Returns the final state (unfinished if you quit). Raises OptionError for a bad seat."""
    console = console or Console()
    read_line = read_line or console.input
    if game.options["ruleset"] == "sdbh.provisional":
        from .shandong_play import run as run_shandong
        return run_shandong(game, bot, seat, seed, console, read_line)
    state, bots, names = seat_bots(game, bot, seat, seed, SEATS)
    console.print(say("term.help.baohuang"), markup=False)
    while not state.is_terminal():
        actor = state.current_player
        if actor != seat:
            state.apply(bots[actor].choose(state, actor), actor)
            played = show_cards(action_words(str(state.log[-1]), "baohuang"))
            console.print(say("term.namePlayed", {"name": names[actor], "action": played}),
                          markup=False)
            continue
        render(state, seat, names, console)
        while True:
            try:
                text = read_line(say("term.prompt")).strip()
            except EOFError:
                console.print(say("term.eofDeal"), markup=False)
                return state
            if not text:
                continue
            done = take_turn(text, state, seat, console, help_text=say("term.help.baohuang"),
                             move_text=lambda a: legal_words([a], "baohuang"))
            if done == QUIT:
                return state
            if done in (RESIGNED, APPLIED):
                break
    d = state.result.details
    if d.get("order"):
        console.print(say("term.bh.order", {"order": ", ".join(names[s] for s in d["order"])}), markup=False)
    if d.get("mode"):
        guard = (say("term.bh.noGuard", {"mode": say(f"term.bh.mode.{d['mode']}", default=d["mode"])})
                 if d["guard"] is None else names[d["guard"]])
        console.print(say("term.bh.sides", {"emperor": names[d["emperor"]], "guard": guard,
                                            "score": d.get("side_score")}), markup=False)
    print_result(state, seat, console)
    return state
