"""Sampling the tiles a seat cannot see, for information-set search (determinization) in the
mahjong games built on :class:`~qipai.tiles.match.TileMatch`.

A seat sees its own concealed tiles, every discard, every exposed set, every flower and the
number of tiles left in the wall and in each hand. The rest — the other seats' concealed tiles,
the tiles of their concealed kongs and the wall — are the *unseen* tiles: :func:`table_sample`
deals them at random (:func:`qipai.cards.sample.deal_unseen`, shared with the card games) into
those places by their counts. :func:`set_turn` then writes one such sample into a state of the
game: the seat to act on its own turn, everything it saw as it saw it. Only the view goes in:
two true deals that look the same to the seat give the same samples.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from qipai.cards.sample import deal_unseen

from .meld import KONG, Meld
from .passes import keep_limits, pass_limits
from .tile import NUM_KINDS, WIND_LETTERS, parse_tile, parse_tiles
from .wall import Wall

#: the place of the wall in a sample
WALL = "wall"


def meld_from_json(data: dict[str, Any]) -> Meld:
    """A :class:`Meld` from its view form (``{"kind", "tiles", "concealed", "claimed"?,
    "source"?, "added"?}``; the tiles of another seat's concealed kong are not in it)."""
    tiles = parse_tiles(data["tiles"])
    claimed = data.get("claimed")
    return Meld(data["kind"], min(tiles), concealed=data.get("concealed", False),
                claimed=parse_tile(claimed) if claimed is not None else None,
                source=data.get("source"), added=data.get("added", False))


def table_sample(view: dict[str, Any], tiles: list[int], rng: random.Random,
                 shown: list[int] = ()) -> dict[str, Any]:
    """One sample of what ``view``'s seat (``view["you"]``) cannot see, from the game's whole
    ``tiles`` (:func:`~qipai.tiles.wall.tile_set`); ``shown``: tiles out of play that the
    table shows besides discards, sets and flowers (laizi mahjong's indicator, peel and laizi
    kongs). Returns ``{"hands": [4 count lists],
    "melds": [4 lists of Meld], "wall": [tiles in draw order]}``: the seat's own hand and
    melds as in the view, another seat's concealed kong as a kind of which four tiles are
    unseen. Raises ``ValueError`` when the counts of the view and the tiles disagree."""
    me = view["you"]
    seats = view["seats"]
    gone: list[int] = list(shown)
    melds: list[list[Meld]] = []
    hidden_kongs: dict[int, int] = {}
    for s, info in enumerate(seats):
        ms = []
        for m in info["melds"]:
            if "tiles" in m:
                meld = meld_from_json(m)
                ms.append(meld)
                gone += meld.tiles
            else:
                hidden_kongs[s] = hidden_kongs.get(s, 0) + 1
        melds.append(ms)
        gone += [parse_tile(d["tile"]) for d in info["discards"] if not d["claimed"]]
        gone += parse_tiles(info.get("flowers") or "")
    own = parse_tiles(seats[me]["hand"])
    left = Counter(tiles)
    left.subtract(gone + own)
    for s, n in hidden_kongs.items():              # a concealed kong: four unseen tiles of a kind
        for _ in range(n):
            kinds = [k for k in range(NUM_KINDS) if left[k] >= 4]
            if not kinds:
                raise ValueError("no kind left for a concealed kong")
            k = rng.choice(kinds)
            left[k] -= 4
            gone += [k] * 4
            melds[s].append(Meld(KONG, k, concealed=True))
    counts: dict[Any, int] = {s: seats[s]["concealed_count"] for s in range(len(seats)) if s != me}
    counts[WALL] = view["wall"]
    # a flower is never held: an unseen one is still in the wall
    dealt = deal_unseen(tiles, counts, {}, gone + own, rng, lambda p, t: p == WALL or t < NUM_KINDS)
    keep_limits(dealt, pass_limits(view), WALL, rng)     # what the seats' passes tell
    hands = []
    for s in range(len(seats)):
        c = [0] * NUM_KINDS
        for t in (own if s == me else dealt[s]):
            c[t] += 1
        hands.append(c)
    return {"hands": hands, "melds": melds, "wall": dealt[WALL]}


def set_turn(state: Any, view: dict[str, Any], sample: dict[str, Any]) -> Any:
    """Write ``sample`` (:func:`table_sample`) and the public table of ``view`` into ``state``
    (a fresh one-hand state of the game, changed in place and returned): hands, sets, ponds,
    the wall, the scores at zero (a playout's scores are what the hand pays), and the seat of
    the view on its own turn (having drawn ``view``'s drawn tile, or after a claim when it has
    none). Winds, the prevalent wind and flowers are set when the view has them."""
    me = view["you"]
    seats = view["seats"]
    state.hands = sample["hands"]
    state.melds = sample["melds"]
    state.ponds = [[[parse_tile(d["tile"]), d["claimed"]] for d in info["discards"]] for info in seats]
    state.wall = Wall(sample["wall"])
    state.scores = [0] * len(seats)
    if "wind" in seats[0]:
        state.order = sorted(range(len(seats)), key=lambda s: WIND_LETTERS.index(seats[s]["wind"]))
        state.dealer_pos = 0
    if "prevalent" in view:
        state.prevalent = WIND_LETTERS.index(view["prevalent"])
    if "flowers" in seats[0]:
        state.flowers = [parse_tiles(info["flowers"] or "") for info in seats]
        state._held_flowers = [[] for _ in seats]
    drawn = seats[me].get("drawn")
    state.drawn = parse_tile(drawn) if drawn else None
    state.after_claim = state.drawn is None
    state.draw_kind = "wall"
    state.last_drawn = state.wall.remaining() == 0
    state.current = me
    state.phase = "turn"
    state.waiting = (me,)
    state.pending = None
    state.answers = {}
    if hasattr(state, "_legal_memo"):
        state._legal_memo = None
    return state


def set_window(state: Any, view: dict[str, Any], sample: dict[str, Any]) -> Any:
    """Like :func:`set_turn`, but for a view in a claim window (``view["claim"]`` with its
    tile shown): the discard (or the robbed kong, laizi mahjong's laizi kong) of
    ``claim["from"]`` waits for the answers of the other seats, the view's seat answering
    first and nobody having answered yet (the others' answers are not in a view). The
    discard's ``last`` mark (no claim on the wall's last tile) is read from the empty wall."""
    set_turn(state, view, sample)
    claim = view["claim"]
    frm = claim["from"]
    me = view["you"]
    state.current = frm
    state.phase = view["phase"]
    state.drawn = None
    state.pending = {"kind": claim["kind"], "tile": parse_tile(claim["tile"]), "from": frm,
                     "last": claim["kind"] == "discard" and view["wall"] == 0}
    others = [s for s in state._others(frm) if s != me]
    state.waiting = (me, *others)
    state.answers = {}
    return state


def set_table(state: Any, view: dict[str, Any], sample: dict[str, Any]) -> Any:
    """:func:`set_window` when ``view`` is in a claim window, else :func:`set_turn`. The hand's
    story (:mod:`.handlog`) is the view's own, as the seat read it, so the sample shows the seat
    the view it was drawn from."""
    out = set_window(state, view, sample) if view["phase"] != "turn" and view.get("claim") \
        else set_turn(state, view, sample)
    if "log" in view and hasattr(out, "hand_log"):
        out.hand_log.entries = [dict(e) for e in view["log"]]
    return out
