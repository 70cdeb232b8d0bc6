"""``qipai play mahjong-gb``: the human at one seat, bots at the other three, in the terminal.

Each time the human may act, the table is printed (own hand, every seat's discards, melds and
flowers) with the legal actions; type one (``discard 5p``, ``win``, ``pung``, ``chow 345p``,
``pass``, ...) or its number. Commands: ``help``, ``quit``. A refused action is answered with
the reason and nothing changes. The loop is :func:`qipai.games.tile_terminal.play_match`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from qipai.games.tile_terminal import play_match, seat_lines
from qipai.i18n import say


def table_text(view: dict) -> str:
    """A plain-text table of ``state.view(seat)``, in the language of :func:`qipai.i18n.use`."""
    lines = [say("term.gb.header", {"hand": view["hand"], "total": view["hands_per_match"],
                                    "prevalent": view["prevalent"], "wall": view["wall"]})]
    lines += seat_lines(view, lambda s: say("term.gb.seatExtra", {"wind": s["wind"],
                                                                  "flowers": s["flowers"] or "-"}))
    if "claim" in view:
        c = view["claim"]
        key = {"rob_concealed": "term.gb.ckong", "discard": "term.gb.discarded"}.get(c["kind"],
                                                                                   "term.gb.added")
        lines.append(say(key, {"seat": c["from"], "tile": c["tile"]}))
    return "\n".join(lines)


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one match (``hands_per_match`` hands) with the human at ``seat``."""
    play_match(game, bot=bot, seat=seat, seed=seed, console=console, read_line=read_line,
               table_text=table_text, report=_report, help_text=say("term.gb.help"))


def _report(info: dict, console: Console) -> None:
    if not info["winners"]:
        console.print(say("term.mj.drawn", {"hand": info["hand"]}), markup=False)
        return
    for w in info["winners"]:
        f = info["fans"][str(w)]
        names = ", ".join(f"{x['name']} {x['value']}" + (f"×{x['count']}" if x["count"] > 1 else "")
                          for x in f["fans"])
        how = say(f"term.gb.how.{info['how']}")
        console.print(say("term.gb.win", {"hand": info["hand"], "seat": w, "how": how, "line": f["hand"]}),
                      markup=False)
        console.print(f"  {names} = {f['total']}", markup=False)
    console.print(say("term.mj.payments", {"payments": str(info["payments"])}), markup=False)
