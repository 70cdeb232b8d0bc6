"""Encoding of the climbing card games (plays must beat the play on the table): doudizhu,
wakeng, fouafour (4A4) and baohuang. Suits never decide these plays, so cards are counted by
rank (15 slots, :data:`~qipai.env.cardtext.RANKS`); seats are relative (0 = the observing
seat, 1 = the next seat in turn, ...).

Wakeng, fouafour and baohuang number their actions as an index into the legal list
(:class:`~qipai.env.base.ListActions`, 64 candidates a page) with per-candidate features:
kind one-hot, rank counts, numeric argument. Doudizhu has a fixed numbering
(:mod:`qipai.env.doudizhu`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .base import Block, FlatEncoder, TensorFollower, one_hot, relative, seat_roles, unless_absent
from .cardtext import action_ranks, list_actions, rank_string_vector, rank_vector
from .climbkept import ClimbKept

HISTORY = 12          # plays remembered in the history block
BID_HIGH = 4          # upper bound of a bid value in the bids block

# per game: phases, seats holding roles, scalars (view key, upper bound), public card keys,
# action kinds (for candidate features), the blocks the view never fills (the game has no
# bidding; the first seat out ends the hand)
GAMES: dict[str, dict[str, Any]] = {
    "doudizhu": {"phases": ("bidding", "play"), "roles": ("landlord", "first_bidder"),
                 "scalars": (("base", 4), ("bombs", 8), ("redeals", 3)), "public": ("kitty",),
                 "kinds": ("play", "pass", "bid", "call"), "absent": ("finished",)},
    "wakeng": {"phases": ("bidding", "play"), "roles": ("digger", "first_bidder", "first_leader"),
               "scalars": (("bid", 3),), "public": (), "kinds": ("play", "pass", "bid"),
               "absent": ("finished",)},
    "fouafour": {"phases": ("play", "cha", "gou"), "roles": ("dealer", "first_leader"),
                 "scalars": (), "public": ("shown",), "kinds": ("play", "pass", "cha", "gou"),
                 "absent": ("bids",)},
    "baohuang": {"phases": ("select", "declare", "play"), "roles": ("emperor", "guard"),
                 "scalars": (("voids", 4),), "public": ("revealed",),
                 "kinds": ("play", "pass", "accept", "decline", "declare"), "absent": ("bids",)},
}


def play_ranks(entry: list) -> tuple[int, ...]:
    """15 rank counts of a ``plays`` entry ``[seat, text, card ids]``, read from its text (a
    rank string: the same multiset as the cards, cached by text)."""
    return action_ranks(entry[1])[1]


def _decks(game: Any, num_seats: int) -> int:
    """Packs in play: the most copies of one face in the hands of a fresh deal (a view labels
    the copies of each face 0, 1, … within a hand, so a label is no pack index)."""
    state = game.new_state(seed=0, num_seats=num_seats)
    seen: Counter[str] = Counter()
    for s in range(num_seats):
        seen.update(c[:2] for c in state.view(s).get("hand") or ())
    return max(seen.values(), default=1)


class ClimbingEncoder(FlatEncoder):
    """Flat vector for a climbing card game; see the module docstring and ``docs/research.md``."""

    list_size = 64

    def __init__(self, game: Any, num_seats: int) -> None:
        self.spec = GAMES[game.id]
        self.n = num_seats
        self.decks = _decks(game, num_seats)
        self.max_rank = 4.0 * self.decks
        self.max_hand = float(max(20, 54 * self.decks // num_seats + 8))
        super().__init__(game, num_seats)
        self.actions = self.make_actions()
        self._small = self._small_blocks()
        self._memo: dict[int, tuple[list, np.ndarray, np.ndarray]] = {}
        self._row_of: dict[tuple[int, str | None], np.ndarray] = {}   # history row of (seat, play)

    # ----- layout ------------------------------------------------------------------------------
    def blocks(self) -> list[Block]:
        n, sp, mr = self.n, self.spec, self.max_rank
        out = [Block("hand", (15,), mr, "the seat's cards by rank (3..A 2 small-joker big-joker)"),
               Block("played", (n, 15), mr, "cards each seat (relative) has played, by rank"),
               Block("cards_left", (n,), self.max_hand, "cards in each seat's hand (relative)"),
               Block("history", (HISTORY, n + 16), mr,
                     f"the last {HISTORY} plays, newest first: seat one-hot (relative), rank counts, "
                     "pass flag"),
               Block("top", (n + 15,), mr, "the play to beat: its seat one-hot (relative) and rank counts"),
               Block("phase", (len(sp["phases"]),), 1, "phase one-hot: " + ", ".join(sp["phases"])),
               Block("roles", (len(sp["roles"]), n), 1,
                     "seat (relative) holding each role: " + ", ".join(sp["roles"])),
               Block("bids", (n, 2), BID_HIGH,
                     unless_absent("each seat's (relative) last bid value and whether it has bid or passed",
                                   "bids", sp["absent"], "the game has no bidding"))]
        if sp["scalars"]:
            out.append(Block("scalars", (len(sp["scalars"]),), max(h for _, h in sp["scalars"]),
                             "numbers from the view: " + ", ".join(k for k, _ in sp["scalars"])))
        if sp["public"]:
            out.append(Block("public", (len(sp["public"]), 15), mr,
                             "public cards by rank: " + ", ".join(sp["public"])))
        out.append(Block("finished", (n,), 1,
                         unless_absent("seats (relative) that have gone out", "finished", sp["absent"],
                                       "the first seat out ends the hand")))
        return out

    def make_actions(self):
        return list_actions(self.list_size, self.spec["kinds"], action_ranks, self.max_rank, 4.0,
                            "rank counts")

    # ----- filling -----------------------------------------------------------------------------
    def _kept(self, plays: list, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """Per observing seat, kept while the view's play list only grows (checked on the whole
        list; a list from another game starts again): the cards each seat (relative) has played
        by rank (``n × 15``), and one history row per play list entry (seat one-hot, rank
        counts, pass flag; ``len(plays)`` rows are filled)."""
        n = self.n
        seen, played, rows = self._memo.get(seat, ((), None, None))
        k = len(seen)
        if played is None or len(plays) < k or plays[:k] != seen:
            k, played, rows = 0, np.zeros((n, 15), np.float32), np.zeros((64, n + 16), np.float32)
        rows = self.add_plays(plays[k:], k, seat, played, rows)
        self._memo[seat] = (list(plays), played, rows)
        return played, rows

    def add_plays(self, entries: list, at: int, seat: int, played: np.ndarray, rows: np.ndarray,
                  last: list | None = None) -> np.ndarray:
        """Add the ``plays`` entries ``entries`` (the list's entries from index ``at`` on), seen
        from ``seat``, to ``played`` (``n × 15``, in place) and their history rows to ``rows``
        from row ``at`` on; ``last`` (optional, one per relative seat) gets the rank counts of
        each seat's last play with cards. Returns ``rows`` (a larger array when it was full)."""
        n, row_of = self.n, self._row_of
        end = at + len(entries)
        if end > len(rows):
            rows = np.concatenate([rows, np.zeros((end + len(rows), n + 16), np.float32)])
        for i, entry in enumerate(entries, at):
            rel = (entry[0] - seat) % n
            played_cards = len(entry) > 2 and bool(entry[2])
            key = (rel, entry[1] if played_cards else None)
            row = row_of.get(key)
            if row is None:
                row = np.zeros(n + 16, np.float32)
                row[rel] = 1
                if played_cards:
                    row[n:n + 15] = play_ranks(entry)
                else:
                    row[n + 15] = 1
                if len(row_of) < 100_000:
                    row_of[key] = row
            rows[i] = row
            if played_cards:
                ranks = row[n:n + 15]
                played[rel] += ranks
                if last is not None:
                    last[rel] = ranks
        return rows

    def fill(self, view: dict[str, Any], seat: int, parts: dict[str, np.ndarray]) -> None:
        plays = view.get("plays") or []
        played, rows = self._kept(plays, seat)
        self._fill_plays(len(plays), played, rows, parts)
        for name, _keys, fill in self._small:
            fill(view, seat, parts[name])

    def follower(self, seat: int) -> ClimbingTensor:
        return ClimbingTensor(self, seat)

    # ----- the blocks ---------------------------------------------------------------------------
    def _small_blocks(self) -> list[tuple[str, tuple[str, ...], Any]]:
        """The blocks other than ``played`` and ``history``: ``(block, the view keys it is
        read from, filler(view, seat, zeroed block))``; ``top`` also reads ``plays``."""
        sp = self.spec
        out = [("hand", ("hand_ranks", "hand"), self._hand), ("cards_left", ("counts",), self._left),
               ("top", ("top",), self._top), ("phase", ("phase",), self._phase),
               ("roles", tuple(sp["roles"]), self._roles), ("bids", ("bids",), self._bids)]
        if sp["scalars"]:
            out.append(("scalars", tuple(k for k, _ in sp["scalars"]), self._scalars))
        if sp["public"]:
            out.append(("public", tuple(sp["public"]), self._public))
        out.append(("finished", ("finished",), self._finished))
        return out

    @staticmethod
    def _fill_plays(m: int, played: np.ndarray, rows: np.ndarray, parts: dict[str, np.ndarray]) -> None:
        """The ``played`` and ``history`` blocks from the kept counts and the rows of the
        ``m`` plays entries."""
        parts["played"][:] = played
        h = min(m, HISTORY)
        if h:
            parts["history"][:h] = rows[m - h:m][::-1]           # newest first

    @staticmethod
    def _hand(view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        ranks = view.get("hand_ranks")
        out[:] = rank_string_vector(ranks) if isinstance(ranks, str) else rank_vector(view.get("hand") or ())

    def _left(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        counts = view.get("counts") or ()
        high = self.max_hand
        out[:len(counts)] = [min(c, high) for c in counts[seat:] + counts[:seat]]

    def _top(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        top, n = view.get("top"), self.n
        if isinstance(top, dict) and top.get("seat") is not None:
            out[relative(seat, top["seat"], n)] = 1
            for entry in reversed(view.get("plays") or ()):
                if entry[0] == top["seat"] and len(entry) > 2 and entry[2]:
                    out[n:] = play_ranks(entry)
                    break

    def _phase(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        one_hot(out, view.get("phase"), self.spec["phases"])

    def _roles(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        seat_roles(out, view, self.spec["roles"], seat)

    def _bids(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        for entry in view.get("bids") or ():
            _, _, number = action_ranks(str(entry[1]))
            value = number or (1.0 if entry[1] == "call" else 0.0)
            out[(entry[0] - seat) % self.n] = (min(value, BID_HIGH), 1.0)

    def _scalars(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        high = max(h for _, h in self.spec["scalars"])
        for i, (key, _) in enumerate(self.spec["scalars"]):
            v = view.get(key)
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            out[i] = min(max(float(v), 0.0), high) if number else 0.0

    def _public(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        for i, key in enumerate(self.spec["public"]):
            cards = view.get(key) or ()
            out[i] = rank_vector([cards] if isinstance(cards, str) else cards)

    def _finished(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        for s in view.get("finished") or ():
            if isinstance(s, int):
                out[relative(seat, s, self.n)] = 1


class ClimbingTensor(TensorFollower):
    """A climbing game's tensor of one seat, kept between the seat's observations
    (:class:`~qipai.env.climbkept.ClimbKept`, compiled as the native group ``climbing``): the
    ``played`` counts and the history rows grow from the ``plays`` entries appended since the
    last observation; every other block is filled again only when a view key it is read from
    differs from the value it was last filled from (compared by value); ``top`` also when plays
    were appended, its rank counts being those of the top seat's last play with cards (kept
    per seat). A whole change (a new game, a redeal) fills everything again.

    ``follow`` reads what the seat's view shows from the state (``state.seen_climb``:
    :class:`~qipai.cards.playtext.ClimbSeen`), without building the view; ``update`` reads a
    followed view and its change (the same tensor)."""

    def __init__(self, encoder: ClimbingEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        layout = encoder.layout
        self._kept = ClimbKept(encoder.n, seat, layout.size, layout.offsets, encoder.spec, encoder.max_hand)
        self._state: Any = None
        self._mark: Any = None

    def follow(self, state: Any, views: Any) -> np.ndarray:
        seen = self.seen(state, "seen_climb")
        if seen is None:                       # a variant whose state gives no seen form
            return super().follow(state, views)
        kept = self._kept
        return kept.refresh(seen.keys, seen.plays, seen.whole or kept.seen is None)

    def update(self, view: dict[str, Any], delta: Any) -> np.ndarray:
        plays = view.get("plays") or []
        kept = self._kept
        whole = delta is None or delta.whole or kept.seen is None or len(plays) < kept.plays
        self._state = None
        return kept.refresh(view, plays if whole else plays[kept.plays:], whole)
