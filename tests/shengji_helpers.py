"""Builders for shengji rule tests: play-phase positions and deals with chosen hands."""

from __future__ import annotations

import json

import qipai
from qipai.cards import make_deck


def position(hands: list[str], level: int, trump: str, dealer: int = 0, leader: int | None = None,
             buried: str = "", trick_points: int = 0, levels: list[int] | None = None, **options):
    """A play-phase state: ``hands`` are four space-separated face lists of equal size."""
    data = {"hands": [h.split() for h in hands], "level": level, "trump": trump, "dealer": dealer,
            "leader": dealer if leader is None else leader, "buried": buried.split(),
            "trick_points": trick_points}
    if levels is not None:
        data["levels"] = levels
    return qipai.load("shengji", **options).new_state(position=json.dumps(data))


def deal_with(hands: list[list[str]], kitty: list[str], p: int = 0, decks: int = 2,
              flip: list[int] | None = None) -> dict:
    """A deal object giving seat s the faces ``hands[s]`` in that order (dealt one at a time from
    seat ``p``) and the kitty ``kitty``; every other card of the pack fills the hands in pack order
    (faces already used are skipped; 2s and jokers come last, so a test that places all of them
    gets plain fillers)."""
    per = {1: 12, 2: 25, 3: 39}[decks]
    # level-2 cards and jokers last, so that fillers are plain cards when the test places them all
    pool = sorted((c.face for c in make_deck(decks)), key=lambda f: f[0] in "2LB")
    for f in [x for h in hands for x in h] + list(kitty):
        pool.remove(f)
    full = [list(h) for h in hands]
    for h in full:
        while len(h) < per:
            h.insert(0, pool.pop(0))
    kit = list(kitty)
    while len(kit) < (8 if decks == 2 else 6):
        kit.append(pool.pop(0))
    order = [full[(p + i) % 4][i // 4] for i in range(4 * per)] + kit
    seen: dict[str, int] = {}
    ids = []
    for f in order:
        ids.append(f"{f}{seen.get(f, 0)}")
        seen[f] = seen.get(f, 0) + 1
    return {"order": ids, "provisional_dealer": p, "kitty_flip": flip or list(range(len(kit)))}


def play_out(state, texts: list[str]) -> None:
    for t in texts:
        state.apply(t)
