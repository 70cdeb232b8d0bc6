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
from rich.table import Table

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.terminal import APPLIED, QUIT, RESIGNED, print_result, take_turn

SEATS = 5
HELP = ("Actions: accept | decline | declare 7H (or declare 7H0 7H1 7H2; 7Hx4 for 明独) | a set as "
        "ranks (999LL, T = ten, L/B = small/big joker) or card ids (9H1 9S0 LJ2) | pass. "
        "'moves' lists your legal actions; 'resign', 'quit', 'help'.")


def _role(view: dict, s: int) -> str:
    if view["emperor"] == s:
        return "皇帝 emperor"
    if view["guard"] == s:
        return "保皇派 guard"
    if view["emperor"] is None:
        return "candidate" if view["candidate"] == s else ""
    return ""


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    last: dict[int, str] = {}
    for s, text, _ in view["plays"]:
        last[s] = text
    table = Table(title=f"保皇 baohuang — {view['phase']}")
    for col in ("seat", "player", "role", "cards", "last"):
        table.add_column(col)
    for s in range(SEATS):
        mark = "▶ " if s in view["to_act"] else ""
        place = f" (out {view['finished'].index(s) + 1})" if s in view["finished"] else ""
        table.add_row(f"{mark}{s}", names[s], _role(view, s), str(view["counts"][s]) + place, last.get(s, ""))
    console.print(table)
    info = []
    if view["package"] is not None:
        info.append("package " + " ".join(view["package"]))
    if view["named_card"]:
        info.append(f"named {view['named_card']} (revealed {' '.join(view['revealed'])})"
                    + (" 明独" if view["ming_du"] else ""))
    if view["hidden_du"]:
        info.append("you hold the fourth copy: hidden 独")
    if view["top"] is not None:
        info.append(f"to beat: {view['top']['set']} (seat {view['top']['seat']})")
    if view["tribute"]:
        info.append("tribute " + ", ".join(f"{g}→{r} {c}" for g, r, c in view["tribute"]))
    if info:
        console.print("  ".join(info), markup=False)
    console.print(f"your hand ({len(view['hand'])}): {' '.join(view['hand'])}", markup=False)
    console.print(f"as ranks: {view['hand_ranks']}", markup=False)


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one deal of ``game`` (a loaded baohuang game) in the terminal against four ``bot``
    bots (default ``rule``); ``seat`` (0..4) is yours; ``seed`` fixes the deal. ``read_line``
    returns a line of input and raises ``EOFError`` at the end (default ``console.input``).
    Returns the final state (unfinished if you quit). Raises OptionError for a bad seat."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in range(SEATS):
        raise OptionError(f"seat must be 0..4, got {seat!r}")
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s)
            for s in range(SEATS) if s != seat}
    names = ["you" if s == seat else f"bot ({name})" for s in range(SEATS)]
    console.print(HELP, markup=False)
    while not state.is_terminal():
        actor = state.current_player
        if actor != seat:
            state.apply(bots[actor].choose(state, actor), actor)
            console.print(f"seat {actor}: {state.log[-1]}", markup=False)
            continue
        render(state, seat, names, console)
        while True:
            try:
                text = read_line("your action> ").strip()
            except EOFError:
                console.print("end of input: the deal is left unfinished.", markup=False)
                return state
            if not text:
                continue
            done = take_turn(text, state, seat, console, help_text=HELP)
            if done == QUIT:
                return state
            if done in (RESIGNED, APPLIED):
                break
    d = state.result.details
    if d.get("order"):
        console.print("finishing order: " + ", ".join(f"{names[s]} (seat {s})" for s in d["order"]),
                      markup=False)
    if d.get("mode"):
        console.print(f"emperor seat {d['emperor']}, guard "
                      f"{'none (' + d['mode'] + ')' if d['guard'] is None else 'seat ' + str(d['guard'])}, "
                      f"side score T = {d.get('side_score')}", markup=False)
    print_result(state, seat, console)
    return state
