"""Deals for laizi mahjong tests: hands by seat, the indicator, the head draws and the
replacement draws named, the rest of the wall filled with the unused tiles."""

from __future__ import annotations

import qipai
from qipai.tiles import format_tiles, parse_tiles


def laizi_deal(hands: list[str], ind: str, head: str = "", tail: str = "") -> dict:
    """One hand's deal: ``hands`` (13 tiles by seat), the indicator ``ind``, then the normal
    draws ``head`` in order; ``tail`` are the replacement draws in the order they are drawn."""
    used = [t for h in hands for t in parse_tiles(h)]
    used += parse_tiles(ind) + parse_tiles(head) + parse_tiles(tail)
    rest = list(range(34)) * 4
    for t in used:
        rest.remove(t)
    rest.sort()
    wall = parse_tiles(ind) + parse_tiles(head) + rest + parse_tiles(tail)[::-1]
    return {"hands": hands, "wall": format_tiles(wall, sort=False)}


def laizi_game(**options):
    return qipai.load("laizi-mahjong", **{"hands_per_match": 1, **options})


def answer_all(state, answers: dict[int, str] | None = None) -> None:
    """Answer an open claim window: the seats named in ``answers`` as given, the others pass."""
    answers = answers or {}
    for s in list(state.to_act):
        state.apply(answers.get(s, "pass"), seat=s)
