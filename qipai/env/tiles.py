"""Encoding of the mahjong games: mahjong-gb (国标麻将), laizi-mahjong (赖子麻将) and
baibian-bajue (百变八雀).

Tiles are counted over 34 kinds (``1m..9m 1p..9p 1s..9s E S W N C F P``) and 8 flowers;
seats are relative (0 = the observing seat). Actions are an index into the legal list
(:class:`~qipai.env.base.ListActions`, 64 a page; the lists are short) with per-candidate
features: kind one-hot and the tiles the action names.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from qipai.tiles.tile import FLOWER_BASE, NAMES

from .base import (
    Block,
    FlatEncoder,
    ItemWrites,
    ListActions,
    TensorFollower,
    one_hot,
    relative,
    unless_absent,
)

TILES = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + list("ESWNCFP")
TILE_INDEX = {t: i for i, t in enumerate(TILES)}
WINDS = "ESWN"
PHASES = ("turn", "claim", "rob")
#: each game's phase in the ``phase`` block: laizi-mahjong's laizi-kong window (only a win
#: may answer it, as a robbed kong) takes the slot of mahjong-gb's ``rob``
PHASE_SLOTS = {"turn": 0, "claim": 1, "rob": 2, "laizi": 2}
#: the ``phase`` block's third slot, per game (``phase``'s documentation)
THIRD_PHASE = {"mahjong-gb": "rob (a kong's window)", "laizi-mahjong": "laizi (a laizi kong's window)",
               "baibian-bajue": "unused (the game has no third phase)"}
#: the blocks a game's view never fills (documented as always zero)
ABSENT = {"mahjong-gb": ("special",), "laizi-mahjong": ("flowers", "winds"),
          "baibian-bajue": ("flowers", "winds", "special")}
#: what else than a discard opens a claim window, per game (``last_discard``'s documentation)
CLAIMED = {
    "mahjong-gb": "; a kong's added tile, which may be robbed; a concealed kong's, shown to its "
                  "owner only, under rob_concealed_kong_for_13_orphans",
    "laizi-mahjong": "; a laizi kong's laizi, which may be won on",
    "baibian-bajue": "",
}
GAME_KINDS = {
    "mahjong-gb": ("discard", "win", "kong", "add", "pass", "pung", "chow", "penalty"),
    "laizi-mahjong": ("discard", "win", "kong", "add", "peel", "laizi", "pass", "pung", "chow"),
    "baibian-bajue": ("discard", "win", "bomb", "pass", "pung", "chow"),
}


@lru_cache(maxsize=8192)
def tile_counts(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(34 tile counts, 8 flower counts)`` of a tile string (``4m389p119sSWNP``, ``f5f1``)."""
    tiles, flowers = [0] * 34, [0] * 8
    digits = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "f" and i + 1 < len(text) and text[i + 1].isdigit():
            flowers[int(text[i + 1]) - 1] += 1
            i += 2
            continue
        if ch.isdigit():
            digits += ch
        elif ch in "mps":
            for d in digits:
                tiles[TILE_INDEX[d + ch]] += 1
            digits = ""
        elif ch in "ESWNCFP":
            tiles[TILE_INDEX[ch]] += 1
        i += 1
    return tuple(tiles), tuple(flowers)


@lru_cache(maxsize=8192)
def count_arrays(text: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`tile_counts` as two read-only ``float32`` arrays (a block is written from an
    array several times faster than from a tuple)."""
    out = tuple(np.array(c, np.float32) for c in tile_counts(text))
    for a in out:
        a.flags.writeable = False
    return out


@lru_cache(maxsize=8192)
def tile_indices(text: str) -> tuple[int, ...]:
    """The tile kinds of a tile string, one entry per tile (``5555p`` -> 13, 13, 13, 13)."""
    return tuple(i for i, c in enumerate(tile_counts(text)[0]) for _ in range(c))


class TileEncoder(FlatEncoder):
    list_size = 64

    def __init__(self, game: Any, num_seats: int) -> None:
        self.n = num_seats
        self.kinds = GAME_KINDS[game.id]
        super().__init__(game, num_seats)
        self.actions = self._actions()
        self._views()
        self._parts_high = {b.name: np.float32(b.high) for b in self.layout.blocks}

    def _views(self) -> None:
        lo, _ = self.layout.offsets["discards"]
        self._shown = self._buf[lo:self.layout.offsets["melds"][1]]     # discards, then melds

    def blocks(self) -> list[Block]:
        n, game = self.n, self.game
        absent = ABSENT[game.id]
        return [Block("hand", (34,), 4, "the seat's concealed tiles (the drawn tile included)"),
                Block("drawn", (34,), 1, "the tile just drawn"),
                Block("discards", (n, 34), 4, "tiles each seat (relative) has discarded"),
                Block("melds", (n, 34), 4, "tiles in each seat's (relative) shown melds"),
                Block("flowers", (n, 8), 1,
                      unless_absent("flowers each seat (relative) has shown", "flowers", absent)),
                Block("last_discard", (34 + n,), 1,
                      f"the tile the open claim window is on (the discard{CLAIMED[game.id]}): "
                      "tile one-hot, when the seat's view shows it, and the seat it came from "
                      "(relative); zero during a turn"),
                Block("concealed_count", (n,), 14, "concealed tiles of each seat (relative)"),
                Block("winds", (2, 4), 1,
                      unless_absent("the seat's wind and the prevalent wind (E S W N)", "winds", absent)),
                Block("dealer", (n,), 1, "the dealer (relative)"),
                Block("special", (2, 34), 1,
                      unless_absent("the laizi (wild) tile and its indicator", "special", absent)),
                Block("phase", (len(PHASES),), 1, "phase one-hot: turn, claim, " + THIRD_PHASE[game.id]),
                Block("wall", (1,), 144, "tiles left in the wall")]

    def _actions(self) -> ListActions:
        feat = TileFeatures(tuple(self.kinds))
        doc = (f"index into the legal-action list ({self.list_size} a page); "
               f"candidate features ({feat.width}): kind one-hot ({', '.join(self.kinds)}, other), "
               "tile counts / 4")
        return ListActions(self.list_size, feat.width, feat.featurize, doc)

    def follower(self, seat: int) -> TensorFollower:
        return TileTensor(self, seat)

    def encode_seen(self, seen: tuple, seat: int) -> np.ndarray:
        """The tensor of ``state.seen_table(seat)``: the same as :meth:`encode` of
        ``view(seat)``, read from the state's codes instead of the view's texts."""
        buf = self._buf
        buf.fill(0.0)
        self.fill_seen(seen, seat, self._parts, self._shown)
        np.minimum(buf, self.high, out=buf)
        return buf.copy()

    def fill_seen(self, seen: tuple, seat: int, parts: dict[str, np.ndarray],
                  shown: np.ndarray) -> None:
        """Write ``seen`` into the zeroed blocks ``parts`` (``shown``: the discards and
        melds blocks, adjacent, as one flat view); not clipped to ``high``."""
        ponds, melds, concealed, hand, drawn, phase, wall, marks, claim = seen
        n = self.n
        counted: list[int] = []
        for s in range(n):
            base = ((s - seat) % n) * 34
            counted += [base + t for t, _ in ponds[s]]
            base += n * 34
            counted += [base + t for t in melds[s]]
        shown[:] = np.bincount(counted, minlength=2 * n * 34)
        parts["concealed_count"][:] = concealed[seat:] + concealed[:seat]
        parts["hand"][:] = hand
        if drawn is not None:
            parts["drawn"][drawn] = 1
        self.fill_marks(marks, seat, parts)
        if claim is not None:
            self._claim(parts["last_discard"], claim[0], claim[1], seat)
        if phase in PHASE_SLOTS:
            parts["phase"][PHASE_SLOTS[phase]] = 1
        parts["wall"][0] = wall or 0

    def fill_marks(self, marks: tuple, seat: int, parts: dict[str, np.ndarray]) -> None:
        """The winds, dealer, laizi and flowers blocks (zeroed) from ``seen_table``'s marks."""
        wind, prevalent, dealer, laizi, indicator, flowers = marks
        n = self.n
        if flowers:
            shown = parts["flowers"]
            for s in range(n):
                for f in flowers[s]:
                    shown[(s - seat) % n, f - FLOWER_BASE] += 1
        winds = parts["winds"]
        if wind is not None:
            winds[0, wind] = 1
        if prevalent is not None:
            winds[1, prevalent] = 1
        if isinstance(dealer, int):
            parts["dealer"][relative(seat, dealer, n)] = 1
        for i, t in enumerate((laizi, indicator)):
            if t is not None:
                parts["special"][i, t] = 1

    def _claim(self, out: np.ndarray, tile: int | None, frm: int, seat: int) -> None:
        """``last_discard``: the claim window's tile (``None``: hidden from ``seat``) and the
        seat it came from."""
        if tile is not None:
            out[tile] = 1
        out[34 + relative(seat, frm, self.n)] = 1

    def fill(self, view: dict[str, Any], seat: int, parts: dict[str, np.ndarray]) -> None:
        n = self.n
        # flat indices who * 34 + tile of the discards, then (past n * 34) of the meld tiles:
        # the two blocks are adjacent, counted by one bincount
        shown: list[int] = []
        melds: list[int] = []
        concealed = [0] * n
        flowers = parts["flowers"]
        for entry in view.get("seats") or ():
            who = (entry["seat"] - seat) % n
            base = who * 34
            shown += [base + TILE_INDEX[d["tile"]] for d in entry.get("discards") or ()]
            base += n * 34
            for m in entry.get("melds") or ():
                melds += [base + t for t in tile_indices(m.get("tiles") or "")]
            if entry.get("flowers"):
                flowers[who] = count_arrays(entry["flowers"])[1]
            concealed[who] = entry.get("concealed_count") or 0
            if entry["seat"] == seat:
                parts["hand"][:] = count_arrays(entry.get("hand") or "")[0]
                if entry.get("drawn"):
                    parts["drawn"][TILE_INDEX[entry["drawn"]]] = 1
                one_hot(parts["winds"][0], entry.get("wind"), WINDS)
        self._shown[:] = np.bincount(shown + melds, minlength=2 * n * 34)
        parts["concealed_count"][:] = concealed
        claim = view.get("claim")
        if claim is not None:
            self._claim(parts["last_discard"], TILE_INDEX.get(claim["tile"]), claim["from"], seat)
        one_hot(parts["winds"][1], view.get("prevalent"), WINDS)
        if isinstance(view.get("dealer"), int):
            parts["dealer"][relative(seat, view["dealer"], n)] = 1
        for i, key in enumerate(("laizi", "indicator")):
            if view.get(key) in TILE_INDEX:
                parts["special"][i, TILE_INDEX[view[key]]] = 1
        if view.get("phase") in PHASE_SLOTS:
            parts["phase"][PHASE_SLOTS[view["phase"]]] = 1
        parts["wall"][0] = view.get("wall") or 0


class TileFeatures:
    """A mahjong action's feature vector: the kind one-hot over ``kinds`` and ``other``, the
    tile counts / 4, cached by action text. A pickle leaves the cache behind (it is filled
    again), a deep copy shares it (the vectors depend on the text alone)."""

    def __init__(self, kinds: tuple[str, ...]) -> None:
        self.kinds = kinds
        self.width = len(kinds) + 1 + 34
        self.cache: dict[str, np.ndarray] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "cache": {}}

    def __deepcopy__(self, memo: dict) -> TileFeatures:
        return self

    def featurize(self, action: Any) -> np.ndarray:
        text = str(action)
        v = self.cache.get(text)
        if v is None:
            kinds = self.kinds
            words = text.split()
            v = np.zeros(self.width, np.float32)
            one_hot(v[:len(kinds) + 1], words[0] if words and words[0] in kinds else "other",
                    (*kinds, "other"))
            if len(words) > 1:
                v[len(kinds) + 1:] = np.minimum(np.asarray(tile_counts(words[1])[0], np.float32) / 4, 1)
            if len(self.cache) < 4096:
                self.cache[text] = v
        return v


class TileTensor(ItemWrites, TensorFollower):
    """One seat's mahjong tensor, kept between its observations and read from what its view
    shows (``state.seen_table``: the discards, the sets it sees, the concealed counts, its
    own tiles, the phase, the wall, the winds, the dealer, the laizi), without building the
    view (whose legal-action texts, log and per-seat entries the tensor does not read).

    A discard stays in its pond for the rest of the hand, so only the discards since the
    seat's last observation are counted; a seat's sets, the seat's own tiles, the concealed
    counts, the drawn tile, the claim window, the phase, the wall and the marks (winds,
    dealer, laizi, flowers) are written again where they changed. A new state object or a
    new hand (the ponds made again) is encoded whole. ``update`` (from a followed view)
    encodes the view, as the default does."""

    _array = "_buf"

    def __init__(self, encoder: TileEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._buf: np.ndarray | None = None
        self._state: Any = None
        self._ponds: Any = None           # the ponds list object of the kept tensor
        lay = encoder.layout
        self._at = {name: lo for name, (lo, _) in lay.offsets.items()}
        self._high = [float(h) for h in lay.high]

    def follow(self, state: Any, views: Any) -> np.ndarray:
        seat, enc = self.seat, self.encoder
        seen = state.seen_table(seat)
        ponds, melds, concealed, hand, drawn, phase, wall, marks, claim = seen
        if state is not self._state or ponds is not self._ponds:
            self._restart(state, seen)
            return self._buf.copy()
        n, flat, at, high = enc.n, self._flat, self._at, self._high
        counted = self._counted
        for s in range(n):                 # the new discards, counted up to the block's high
            pond = ponds[s]
            if len(pond) < counted[s]:     # a pond shrank (a copied state's): all again
                self._restart(state, seen)
                return self._buf.copy()
            if len(pond) > counted[s]:
                base = at["discards"] + ((s - seat) % n) * 34
                for t, _ in pond[counted[s]:]:
                    if flat[base + t] < 4.0:
                        flat[base + t] += 1.0
                counted[s] = len(pond)
            if melds[s] != self._melds[s]:
                base = at["melds"] + ((s - seat) % n) * 34
                row = [0] * 34
                for t in melds[s]:
                    row[t] += 1
                for t in range(34):
                    flat[base + t] = float(min(row[t], 4))
                self._melds[s] = list(melds[s])
        if hand != self._hand:
            base = at["hand"]
            for t in [t for t, (now, was) in enumerate(zip(hand, self._hand)) if now != was]:
                flat[base + t] = float(min(hand[t], 4))
            self._hand = hand[:]
        if concealed != self._concealed:
            base = at["concealed_count"]
            for r in range(n):
                flat[base + r] = float(min(concealed[(seat + r) % n], 14))
            self._concealed = list(concealed)
        if drawn != self._drawn:
            if self._drawn is not None:
                flat[at["drawn"] + self._drawn] = 0.0
            if drawn is not None:
                flat[at["drawn"] + drawn] = 1.0
            self._drawn = drawn
        if phase != self._phase:
            for ph in (self._phase, phase):
                if ph in PHASE_SLOTS:
                    flat[at["phase"] + PHASE_SLOTS[ph]] = float(ph == phase)
            self._phase = phase
        if wall != self._wall:
            flat[at["wall"]] = float(min(wall or 0, high[at["wall"]]))
            self._wall = wall
        parts = self._parts
        if claim != self._claim:
            parts["last_discard"].fill(0.0)
            if claim is not None:
                enc._claim(parts["last_discard"], claim[0], claim[1], seat)
            self._claim = claim
        if marks != self._marks:
            for name in ("flowers", "winds", "dealer", "special"):
                parts[name].fill(0.0)
            enc.fill_marks(marks, seat, parts)
            for name in ("flowers", "winds", "dealer", "special"):
                np.minimum(parts[name], enc._parts_high[name], out=parts[name])
            self._marks = marks
        return self._buf.copy()

    def _views(self) -> None:
        self._parts = self.encoder.layout.parts(self._buf)

    def _restart(self, state: Any, seen: tuple) -> None:
        """The whole tensor of ``seen``, kept with what it was made of."""
        enc = self.encoder
        buf, parts = enc.layout.new()
        lo, _ = enc.layout.offsets["discards"]
        enc.fill_seen(seen, self.seat, parts, buf[lo:enc.layout.offsets["melds"][1]])
        np.minimum(buf, enc.high, out=buf)
        self._buf, self._parts = buf, parts
        self._flat = memoryview(buf)      # item writes: a third of numpy's scalar writes
        ponds, melds, concealed, hand, drawn, phase, wall, marks, claim = seen
        self._state, self._ponds = state, ponds
        self._counted = [len(p) for p in ponds]
        self._melds, self._hand, self._concealed = [list(m) for m in melds], hand[:], list(concealed)
        self._drawn, self._phase, self._wall, self._marks, self._claim = drawn, phase, wall, marks, claim


# the state's tile kinds 0..33 are the tensor's tile indices (the view names kind t NAMES[t])
assert all(TILE_INDEX[NAMES[t]] == t for t in range(34))
