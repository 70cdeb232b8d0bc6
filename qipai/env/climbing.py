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

from typing import Any

import numpy as np

from .base import Block, FlatEncoder, one_hot, relative, seat_roles
from .cardtext import action_ranks, list_actions, rank_string_vector, rank_vector

HISTORY = 12          # plays remembered in the history block

# per game: phases, seats holding roles, scalars (view key, upper bound), public card keys,
# action kinds (for candidate features)
GAMES: dict[str, dict[str, Any]] = {
    "doudizhu": {"phases": ("bidding", "play"), "roles": ("landlord", "first_bidder"),
                 "scalars": (("base", 4), ("bombs", 8), ("redeals", 3)), "public": ("kitty",),
                 "kinds": ("play", "pass", "bid", "call")},
    "wakeng": {"phases": ("bidding", "play"), "roles": ("digger", "first_bidder", "first_leader"),
               "scalars": (("bid", 3),), "public": (), "kinds": ("play", "pass", "bid")},
    "fouafour": {"phases": ("play", "cha", "gou"), "roles": ("dealer", "first_leader"),
                 "scalars": (), "public": ("shown",), "kinds": ("play", "pass", "cha", "gou")},
    "baohuang": {"phases": ("select", "declare", "play"), "roles": ("emperor", "guard"),
                 "scalars": (("voids", 4),), "public": ("revealed",),
                 "kinds": ("play", "pass", "accept", "decline", "declare")},
}


def play_ranks(entry: list) -> tuple[int, ...]:
    """15 rank counts of a ``plays`` entry ``[seat, text, card ids]``, read from its text (a
    rank string: the same multiset as the cards, cached by text)."""
    return action_ranks(entry[1])[1]


def _decks(game: Any, num_seats: int) -> int:
    """Packs in play: one more than the highest deck index on the cards of a fresh deal."""
    state = game.new_state(seed=0, num_seats=num_seats)
    top = 0
    for s in range(num_seats):
        for c in state.view(s).get("hand") or ():
            if len(c) > 2 and c[2:].isdigit():
                top = max(top, int(c[2:]))
    return top + 1


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
        self._memo: dict[int, tuple[list, np.ndarray, np.ndarray]] = {}

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
               Block("bids", (n, 2), 4,
                     "each seat's (relative) last bid value and whether it has bid or passed")]
        if sp["scalars"]:
            out.append(Block("scalars", (len(sp["scalars"]),), max(h for _, h in sp["scalars"]),
                             "numbers from the view: " + ", ".join(k for k, _ in sp["scalars"])))
        if sp["public"]:
            out.append(Block("public", (len(sp["public"]), 15), mr,
                             "public cards by rank: " + ", ".join(sp["public"])))
        out.append(Block("finished", (n,), 1, "seats (relative) that have gone out"))
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
        if len(plays) > len(rows):
            rows = np.concatenate([rows, np.zeros((len(plays) + len(rows), n + 16), np.float32)])
        for i in range(k, len(plays)):
            entry = plays[i]
            row = rows[i]
            rel = (entry[0] - seat) % n
            row[rel] = 1
            if len(entry) > 2 and entry[2]:
                row[n:n + 15] = play_ranks(entry)
                played[rel] += row[n:n + 15]
            else:
                row[n + 15] = 1
        self._memo[seat] = (list(plays), played, rows)
        return played, rows

    def fill(self, view: dict[str, Any], seat: int, parts: dict[str, np.ndarray]) -> None:
        n, sp = self.n, self.spec
        ranks = view.get("hand_ranks")
        parts["hand"][:] = (rank_string_vector(ranks) if isinstance(ranks, str)
                            else rank_vector(view.get("hand") or ()))
        counts = view.get("counts") or ()
        parts["cards_left"][:len(counts)] = counts[seat:] + counts[:seat]
        plays = view.get("plays") or []
        played, rows = self._kept(plays, seat)
        parts["played"][:] = played
        m = len(plays)
        h = min(m, HISTORY)
        if h:
            parts["history"][:h] = rows[m - h:m][::-1]           # newest first
        top = view.get("top")
        if isinstance(top, dict) and top.get("seat") is not None:
            parts["top"][relative(seat, top["seat"], n)] = 1
            for entry in reversed(plays):
                if entry[0] == top["seat"] and len(entry) > 2 and entry[2]:
                    parts["top"][n:] = play_ranks(entry)
                    break
        one_hot(parts["phase"], view.get("phase"), sp["phases"])
        seat_roles(parts["roles"], view, sp["roles"], seat)
        for entry in view.get("bids") or ():
            _, _, number = action_ranks(str(entry[1]))
            parts["bids"][(entry[0] - seat) % n] = (number or (1.0 if entry[1] == "call" else 0.0), 1.0)
        if sp["scalars"]:
            for i, (key, _) in enumerate(sp["scalars"]):
                v = view.get(key)
                number = isinstance(v, (int, float)) and not isinstance(v, bool)
                parts["scalars"][i] = max(float(v), 0.0) if number else 0.0
        if sp["public"]:
            for i, key in enumerate(sp["public"]):
                cards = view.get(key) or ()
                parts["public"][i] = rank_vector([cards] if isinstance(cards, str) else cards)
        for s in view.get("finished") or ():
            if isinstance(s, int):
                parts["finished"][relative(seat, s, n)] = 1
