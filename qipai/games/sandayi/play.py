"""``qipai play sandayi``: one hand of 三打一 in the terminal, you against three bots.

Type ``pass`` or ``bid 65`` while bidding, ``bury`` and six cards (``bury 3D 4C 5S 9H JD QC``)
as declarer, ``trump H`` to name trump, and a single card (``AS``, ``10h``) to play; ``hint`` lists
your legal actions, ``quit`` stops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from qipai.bots import make_bot
from qipai.core.errors import OptionError
from qipai.games.card_terminal import bids_line, place_names, play_table, seat_table, show_cards, trick_text
from qipai.games.terminal import result_line
from qipai.i18n import say


def render(state, human: int, names: list[str], console: Console) -> None:
    """Draw the table as ``human`` sees it (only ``state.view(human)`` is used)."""
    view = state.view(human)
    table = seat_table(state.game, view["phase"], ["seat", "player", "role", "cards", "tricks"])
    for s in range(4):
        role = ("" if view["dealer"] is None else
                say("term.sdy.dealer" if s == view["dealer"] else "term.sdy.defender"))
        mark = "▶ " if s in view["to_act"] else ""
        table.add_row(f"{mark}{s}", names[s], role, str(view["counts"][s]), str(view["tricks_won"][s]))
    console.print(table)
    info = [bids_line(view["bids"], names)]
    if view["redeals"]:
        info.append(say("term.lbl.redeals", {"n": view["redeals"]}))
    if view["contract"]:
        info.append(say("term.sdy.contract", {"n": view["contract"]})
                    + (say("term.sdy.forced") if view["forced"] else ""))
    if view["trump"]:
        trump = say(f"term.suit.{view['trump']}", default=view["trump"])
        info.append(say("term.lbl.trump", {"trump": trump}))
    if view["kitty"] is not None:
        info.append(say("term.lbl.kitty", {"cards": show_cards(view["kitty"])}))
    if view["buried"] is not None:
        info.append(say("term.lbl.buried", {"cards": show_cards(view["buried"])}))
    info.append(say("term.sdy.points", {"n": view["defender_points"]}))
    console.print("  ".join(info), markup=False)
    if view["last_trick"]:
        lt = view["last_trick"]
        plays = trick_text([[s, [c]] for s, c in lt["cards"]], names)
        console.print(say("term.lbl.lastTrick", {"plays": plays, "winner": names[lt["winner"]]}),
                      markup=False)
    if view["trick"]:
        plays = trick_text([[s, [c]] for s, c in view["trick"]], names)
        console.print(say("term.lbl.thisTrick", {"plays": plays}), markup=False)
    console.print(say("term.lbl.hand", {"n": len(view["hand"]), "cards": show_cards(view["hand"])}),
                  markup=False)


def public_text(seat: int, action: Any) -> str:
    """What the other seats learn of ``seat``'s ``action``: everything but the cards of a bury,
    which stay hidden from the defenders until the hand ends (§2.5 rule 3)."""
    text = str(action)
    return say("term.sdy.buried6") if text.startswith("bury") else text


def run(game, bot: str | None = None, seat: int = 0, seed: int | None = None,
        console: Console | None = None, read_line: Callable[[str], str] | None = None) -> Any:
    """Play one hand of ``game`` (a loaded sandayi game) at ``seat`` (0-3) against ``bot``
    (default: the rule bot). ``read_line(prompt)`` returns a line and raises ``EOFError`` at the
    end of input. Returns the final state (unfinished if you quit)."""
    console = console or Console()
    read_line = read_line or console.input
    if seat not in (0, 1, 2, 3):
        raise OptionError(f"seat must be 0, 1, 2 or 3, got {seat!r}",
                          code="game.bad_seat", params={"seat": seat, "max": 3})
    state = game.new_state(seed=seed)
    name = bot or "rule"
    bots = {s: make_bot(game.id, name, None if seed is None else seed * 7 + s) for s in range(4) if s != seat}
    names = place_names(seat, 4, name)
    if not play_table(state, seat, bots, names, console, read_line,
                      lambda: render(state, seat, names, console), say("term.help.sandayi"), game="sandayi",
                      shown=public_text):
        return state
    res = state.result
    console.print(say("term.sdy.handOver", {"result": result_line(state, seat, names)}), markup=False)
    if res.details.get("defender_points") is not None:
        console.print(say("term.sdy.points", {"n": res.details["defender_points"]}), markup=False)
    return state
