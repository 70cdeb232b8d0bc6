"""``qipai play mahjong-gb``: the human at one seat, bots at the other three, in the terminal.

Each time the human may act, the table is printed (own hand, every seat's discards, melds and
flowers) with the legal actions; type one (``discard 5p``, ``win``, ``pung``, ``chow 345p``,
``pass``, ...) or its number. Commands: ``help``, ``quit``. A refused action is answered with
the reason and nothing changes. The loop is :func:`qipai.games.tile_terminal.play_match`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from qipai import i18n
from qipai.games.tile_terminal import play_match, seat_lines, tiles_text, who
from qipai.i18n import say
from qipai.i18n.results import mahjong_hand_lines


def table_text(view: dict) -> str:
    """A plain-text table of ``state.view(seat)``, in the language of :func:`qipai.i18n.use`."""
    lines = [say("term.gb.header", {"hand": view["hand"], "total": view["hands_per_match"],
                                    "prevalent": tiles_text(view["prevalent"]), "wall": view["wall"]})]
    lines += seat_lines(view, lambda s: say("term.gb.seatExtra", {
        "wind": tiles_text(s["wind"]), "flowers": tiles_text(s["flowers"]) or "-"}))
    if "claim" in view:
        c = view["claim"]
        key = {"rob_concealed": "term.gb.ckong", "discard": "term.gb.discarded"}.get(c["kind"],
                                                                                   "term.gb.added")
        lines.append(say(key, {"who": who(c["from"], view), "tile": tiles_text(c["tile"])}))
    return "\n".join(lines)


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one match (``hands_per_match`` hands) with the human at ``seat``."""
    def report(info: dict, console: Console) -> None:
        _report(info, console, seat, game.options["hands_per_match"])
    play_match(game, bot=bot, seat=seat, seed=seed, console=console, read_line=read_line,
               table_text=table_text, report=report, help_text=say("term.gb.help"))


def _report(info: dict, console: Console, seat: int, hands: int) -> None:
    """A hand's end as the page's mahjong board words it (qipai.i18n.results.mahjong_hand_lines):
    the winner, how, each fan with its value, the total and the payments, seats by their place."""
    for line in mahjong_hand_lines(info, seat=seat, hands_per_match=hands, lang=i18n.current()):
        console.print(line, markup=False)
