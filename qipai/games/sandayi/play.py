"""``qipai play sandayi``: one hand of 三打一 in the terminal, you against three bots.

Type ``pass`` or ``bid 65`` while bidding, ``bury`` and six cards (``bury 3D 4C 5S 9H JD QC``)
as dealer, ``trump H`` to name trump, and a single card (``AS``, ``10h``) to play; ``hint`` lists
your legal actions, ``quit`` stops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import play_table

HELP = ("三打一: while bidding 'pass' or 'bid 60'..'bid 80'; as dealer 'bury' + six cards, then "
        "'trump S|H|D|C'; in play one card such as 'AS' or '10h'; 'hint' lists your legal "
        "actions; 'quit' stops.")


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    table = Table(title=f"三打一 sandayi — {view['phase']}")
    for col in ("seat", "player", "role", "cards", "tricks"):
        table.add_column(col)
    for s in range(4):
        role = "" if view["dealer"] is None else ("庄家 dealer" if s == view["dealer"] else "defender")
        mark = "▶ " if s in view["to_act"] else ""
        table.add_row(f"{mark}{s}", names[s], role, str(view["counts"][s]), str(view["tricks_won"][s]))
    console.print(table)
    info = [f"bids: {' '.join(f'{s}:{a}' for s, a in view['bids']) or '-'}"]
    if view["redeals"]:
        info.append(f"redeals {view['redeals']}")
    if view["contract"]:
        info.append(f"contract {view['contract']}" + (" (forced)" if view["forced"] else ""))
    if view["trump"]:
        info.append(f"trump {view['trump']}")
    if view["kitty"] is not None:
        info.append("kitty " + " ".join(view["kitty"]))
    if view["buried"] is not None:
        info.append("buried " + " ".join(view["buried"]))
    info.append(f"defenders' points {view['defender_points']}")
    console.print("  ".join(info), markup=False)
    if view["last_trick"]:
        lt = view["last_trick"]
        console.print(f"last trick: {' '.join(f'{s}:{c}' for s, c in lt['cards'])} -> seat {lt['winner']}",
                      markup=False)
    if view["trick"]:
        console.print(f"this trick: {' '.join(f'{s}:{c}' for s, c in view['trick'])}", markup=False)
    console.print(f"your hand ({len(view['hand'])}): {' '.join(view['hand'])}", markup=False)


def public_text(seat: int, action: Any) -> str:
    """What the other seats learn of ``seat``'s ``action``: everything but the cards of a bury,
    which stay hidden from the defenders until the hand ends (§2.5 rule 3)."""
    text = str(action)
    return "bury (6 cards)" if text.startswith("bury") else text


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one hand of ``game`` (a loaded sandayi game) at ``seat`` (0-3) against ``bot``
    (default: the rule bot). ``read_line(prompt)`` returns a line and raises ``EOFError`` at the
    end of input. Returns the final state (unfinished if you quit)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2, 3):
        raise OptionError(f"seat must be 0, 1, 2 or 3, got {seat!r}")
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s) for s in range(4) if s != seat}
    names = ["you" if s == seat else f"bot ({name})" for s in range(4)]
    if not play_table(state, seat, bots, names, console, read_line,
                      lambda: render(state, seat, names, console), HELP, shown=public_text):
        return state
    res = state.result
    side = "dealer" if res.details.get("dealer") in res.winners else "defenders"
    who = "you won" if seat in res.winners else "you lost"
    console.print(f"Hand over ({res.reason}, D = {res.details.get('defender_points')}): the {side} win — "
                  f"{who}. Scores: {res.text}", markup=False)
    return state
