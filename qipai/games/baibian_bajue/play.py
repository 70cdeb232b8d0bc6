"""``qipai play baibian-bajue``: a match of the proposal 百变八雀 in the terminal, you at one seat,
bots at the others. Each time you may act, the table is printed (own hand, every seat's
discards, bombs and sets, the bombs of the hand) with the legal actions; type one
(``discard 5p``, ``win``, ``bomb 5p``, ``pass``, ``pung``, ``bomb``, ``chow 345p``) or its number.
The loop is :func:`qipai.games.tile_terminal.play_match`."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from qipai import i18n
from qipai.games.tile_terminal import play_match, seat_lines, tiles_text, who
from qipai.i18n import say
from qipai.i18n.results import mahjong_payments_line, mahjong_seat_word


def table_text(view: dict) -> str:
    """A plain-text table of ``state.view(seat)``."""
    lines = [say("term.bb.header", {"hand": view["hand"], "total": view["hands_per_match"],
                                    "dealer": who(view["dealer"], view), "wall": view["wall"]})]
    lines += seat_lines(view)
    if view["bombs"]:
        lines.append(say("term.bb.bombsHand", {"bombs": _bombs(view["bombs"], view["you"])}))
    if "claim" in view:
        c = view["claim"]
        lines.append(say("term.gb.discarded", {"who": who(c["from"], view), "tile": tiles_text(c["tile"])}))
    return "\n".join(lines)


def _bombs(bombs: list, seat: int | None) -> str:
    """Each bomb by whose it is (你, 下家 …) and its tiles."""
    lang = i18n.current()
    return ", ".join(say("term.bb.bomb", {"who": mahjong_seat_word(s, seat=seat, lang=lang),
                                          "tiles": tiles_text(t)})
                     for s, t in bombs)


def run(game, *, bot: str, seat: int, seed: int | None, console: Console,
        read_line: Callable[[str], str]) -> None:
    """Play one match (``hands_per_match`` hands) with the human at ``seat``."""
    console.print(say("term.help.baibian-bajue"), markup=False)
    play_match(game, bot=bot, seat=seat, seed=seed, console=console, read_line=read_line,
               table_text=table_text, report=lambda info, out: report(info, out, seat),
               help_text=say("term.help.baibian-bajue"))


def report(info: dict, console: Console, seat: int | None = None) -> None:
    """A finished hand: the winner, the hand, its value, the bombs and the payments, seats named
    as the board names them to the reader at ``seat`` (你, 下家 …)."""
    lang = i18n.current()
    if info["winners"]:
        w = info["winners"][0]
        hand = info["fans"][str(w)]["hand"]
        how = say(f"term.gb.how.{info['how']}", default=info["how"])
        who = mahjong_seat_word(w, seat=seat, lang=lang)
        console.print(say("term.bb.win", {"hand": info["hand"], "who": who, "how": how, "tiles": hand,
                                          "value": info["value"]}), markup=False)
    else:
        console.print(say("term.mj.drawn", {"hand": info["hand"]}), markup=False)
    if info["bombs"]:
        console.print(say("term.bb.bombs", {"bombs": _bombs(info["bombs"], seat)}), markup=False)
    console.print("  " + mahjong_payments_line(info["payments"], seat=seat, lang=lang), markup=False)
