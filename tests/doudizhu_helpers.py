"""Helpers for the doudizhu tests: deals from rank strings, scripted play."""

from __future__ import annotations

import json
import re

import qipai
from qipai.cards import make_deck
from qipai.games.doudizhu.combos import ORDER, table


def reading(text: str, **rules):
    """The single reading of a rank string under the default rules (or ``None``)."""
    from qipai.games.doudizhu.combos import KickerRules

    found = table(KickerRules(**rules)).readings(ORDER.parse_counts(text))
    assert len(found) <= 1, found
    return found[0] if found else None


def make_deal(hands: list[str], kitty: str, first_bidder: int = 0, face_up: str | None = None) -> dict:
    """A deal object whose hands and kitty have the given ranks (the rest of the pack is dealt
    to the seats given as ``"*"`` to fill them to 17 cards)."""
    pool = list(make_deck(1))
    taken: dict[int, list] = {}

    def take(ranks: str) -> list:
        out = []
        for r in ranks:
            card = next(c for c in pool if c.rank == r)
            pool.remove(card)
            out.append(card)
        return out

    for s, h in enumerate(hands):
        if h != "*":
            taken[s] = take(h.replace(" ", ""))
    kit = take(kitty)
    for s, h in enumerate(hands):
        if h == "*":
            taken[s] = []
    for s in range(3):
        while len(taken[s]) < 17:
            taken[s].append(pool.pop(0))
    assert not pool, "hands and kitty must use the whole pack"
    deal = {"hands": [[c.id for c in taken[s]] for s in range(3)], "kitty": [c.id for c in kit],
            "first_bidder": first_bidder}
    if face_up is not None:
        card = next(c for c in taken[first_bidder] if c.rank == face_up)
        deal["face_up"] = card.id
    return deal


def play_out(state, actions: list[str]) -> None:
    for text in actions:
        state.apply(text)


def new(deal: dict, **options):
    return qipai.load("doudizhu", **options).new_state(deal=deal)


#: a card id as views write it (rank, suit, deck index; jokers LJ/BJ)
CARD = re.compile(r"\b(?:[3-9TJQKA2][SHCD]|[LB]J)\d\b")


def public_cards(record) -> list[set[str]]:
    """The card ids anyone may be shown after each number of ``record``'s actions (index k: after
    k actions): those the engine's spectator view shows then — the plays as the table's labels of
    their ranks (``qipai.cards.table_ids``), the kitty once turned, every hand left once the deal
    is over. A message to a seat may show these and its own cards, nothing else."""
    from qipai.core import load

    st = load(record.game, **record.options).new_state(seed=record.seed, deal=record.deal,
                                                      num_seats=record.num_seats)
    out: list[set[str]] = []
    for k in range(len(record.actions) + 1):
        out.append(set(CARD.findall(json.dumps(st.view(None)))))
        if k < len(record.actions):
            entry = record.actions[k]
            seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
            st.apply(text, seat=seat)
    return out
