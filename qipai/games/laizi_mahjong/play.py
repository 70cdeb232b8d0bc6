"""``qipai play laizi-mahjong``: the human at one seat, bots at the other three, in the terminal.

Each time the human may act, the table is printed (the indicator and the laizi, own hand,
every seat's discards, sets, peel and laizi kongs) with the legal actions; type one (``discard
5p``, ``win``, ``peel 4p``, ``laizi 5p``, ``pung``, ``chow 345p``, ``pass`` ...) or its number.
Commands: ``help``, ``quit``. The loop is :func:`qipai.games.tile_terminal.play_match`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from qipai import i18n
from qipai.games.tile_terminal import play_match, seat_lines, tiles_text, who
from qipai.i18n import say
from qipai.i18n.results import mahjong_payments_line, mahjong_seat_word


def table_text(view: dict) -> str:
    """A plain-text table of ``state.view(seat)``, in the language of :func:`qipai.i18n.use`."""
    lines = [say("term.lz.header", {"hand": view["hand"], "total": view["hands_per_match"],
                                    "dealer": who(view["dealer"], view), "ind": tiles_text(view["indicator"]),
                                    "laizi": tiles_text(view["laizi"]), "wall": view["wall"]})]
    lines += seat_lines(view, lambda s: say("term.lz.kongs", {"peel": s["peel_kongs"],
                                                              "laizi": s["laizi_kongs"]}))
    if "claim" in view:
        c = view["claim"]
        key = "term.lz.discarded" if c["kind"] == "discard" else "term.lz.playsLaizi"
        lines.append(say(key, {"who": who(c["from"], view), "tile": tiles_text(c["tile"])}))
    return "\n".join(lines)


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one match (``hands_per_match`` hands) with the human at ``seat``."""
    play_match(game, bot=bot, seat=seat, seed=seed, console=console, read_line=read_line,
               table_text=table_text, report=lambda info, out: report(info, out, seat),
               help_text=say("term.lz.help"))


def report(info: dict, console: Console, seat: int | None = None) -> None:
    """A finished hand: the winner, the hand line, the pattern, each doubling, the points and
    the payments (or a drawn hand), seats named as the board names them to the reader at
    ``seat`` (你, 下家 …)."""
    lang = i18n.current()
    if not info["winners"]:
        console.print(say("term.mj.drawn", {"hand": info["hand"]}), markup=False)
        return
    sc = info["score"]
    pattern = say(f"lz.pattern.{sc['colour'] or 'none'}.{sc['shape'] or 'none'}", default=sc["pattern"])
    doublings = " ".join(f"{say('lz.dbl.' + d['key'], default=d['name'])}×{d['factor']}"
                         for d in sc["doublings"]) or "-"
    who = mahjong_seat_word(info["winners"][0], seat=seat, lang=lang)
    console.print(say("term.lz.win", {"hand": info["hand"], "who": who,
                                      "how": say(f"term.lz.how.{info['how']}"),
                                      "line": info["hand_text"]}), markup=False)
    kind = say("lz.hard" if sc["hard"] else "lz.soft")
    console.print(say("term.lz.points", {"pattern": pattern, "kind": kind, "base": sc["base"],
                                         "doublings": doublings, "points": sc["points"]}), markup=False)
    console.print("  " + mahjong_payments_line(info["payments"], seat=seat, lang=lang), markup=False)
