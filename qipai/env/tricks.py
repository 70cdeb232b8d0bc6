"""Encoding of the trick-taking card games: shengji (升级/拖拉机) and sandayi (三打一).

Suits matter here, so cards are counted by face (54 slots, :data:`~qipai.env.cardtext.FACES`);
seats are relative (0 = the observing seat). Plays are combinatorial (a shengji lead may be
any set of cards of one suit, a kitty burial any 8 of 33 cards: millions of choices), so
actions are an index into the legal list (:class:`~qipai.env.base.ListActions`, 64 candidates
a page; a longer list is chosen page by page) with per-candidate features: kind one-hot, face
counts, numeric argument.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np

from qipai.games.shengji.actions import Action as ShengjiAction

from .base import Block, FlatEncoder, ItemWrites, TensorFollower, one_hot, relative, seat_roles, unless_absent
from .cardtext import FACE_INDEX, action_faces, face_counts, face_slots, list_actions, read_each

TRUMPS = ("D", "C", "H", "S", "NT")
GAMES: dict[str, dict[str, Any]] = {
    "shengji": {"phases": ("deal", "window", "bao", "fan", "bury", "play"),
                "roles": ("dealer", "deal_start", "winning"),
                "scalars": (("level", 14), ("tricks_played", 30), ("attacker_points", 400)),
                "public": ("kitty_shown", "buried", "captured", "played"),
                "public_doc": "kitty_shown (a kitty turned up), buried (the dealer's own burial, to the "
                              "dealer only), captured (point cards the attackers took), played (the "
                              "seat's own played cards)",
                "kinds": ("play", "pass", "declare", "bury"), "absent": ("bids",)},
    "sandayi": {"phases": ("bid", "bury", "trump", "play"),
                "roles": ("dealer", "first_bidder"),
                "scalars": (("contract", 100), ("tricks_played", 20), ("defender_points", 100)),
                "public": ("kitty", "buried"),
                "public_doc": "kitty (when exposed), buried (to the dealer only)",
                "kinds": ("play", "pass", "bid", "bury", "trump"), "absent": ()},
}


def read_actions(actions: list) -> tuple[list[str], list[int], list[int], list[float] | None]:
    """The candidates' kinds and faces (:func:`~qipai.env.cardtext.read_each` of
    :func:`~qipai.env.cardtext.face_slots` of their texts): shengji's actions read from their
    kind and faces (a text is the kind, but for a play, and the face codes; no number)."""
    if all(type(a) is ShengjiAction for a in actions):
        return ([a.kind for a in actions], [len(a.faces) for a in actions],
                list(map(FACE_INDEX.__getitem__, chain.from_iterable([a.faces for a in actions]))), None)
    return read_each(actions, _face_slots_of)


def _face_slots_of(action: Any) -> tuple[str, tuple[int, ...], float]:
    return face_slots(str(action))


def _cards(value: Any) -> list[str]:
    """Card faces of a view entry: a list of card texts, one card text, or nothing."""
    if not value:
        return []
    return [value] if isinstance(value, str) else [c for c in value if isinstance(c, str)]


class TrickEncoder(FlatEncoder):
    list_size = 64

    def __init__(self, game: Any, num_seats: int) -> None:
        self.spec = GAMES[game.id]
        self.n = num_seats
        self.decks = float(game.options.get("decks", 1))
        super().__init__(game, num_seats)
        self.actions = self._actions()

    def blocks(self) -> list[Block]:
        n, sp, d = self.n, self.spec, self.decks
        return [Block("hand", (54,), d, "the seat's cards by face (2D 2C 2H 2S 3D .. AS LJ BJ)"),
                Block("trick", (n, 54), d, "cards each seat (relative) has played to the current trick"),
                Block("last_trick", (n, 54), d, "the previous trick, by seat (relative)"),
                Block("public", (len(sp["public"]), 54), 4 * d,
                      "card sets of the view: " + sp["public_doc"]),
                Block("cards_left", (n,), 40, "cards in each seat's hand (relative)"),
                Block("trump", (len(TRUMPS),), 1, "trump suit one-hot: D C H S NT"),
                Block("phase", (len(sp["phases"]),), 1, "phase one-hot: " + ", ".join(sp["phases"])),
                Block("roles", (len(sp["roles"]), n), 1,
                      "seat (relative) holding each role: " + ", ".join(sp["roles"])),
                Block("bids", (n, 2), 1,
                      unless_absent("each seat's (relative) last bid / 100 and whether it has bid",
                                    "bids", sp["absent"], "the game has no bidding")),
                Block("scalars", (len(sp["scalars"]),), 400,
                      "numbers from the view: " + ", ".join(k for k, _ in sp["scalars"]))]

    def _actions(self):
        return list_actions(self.list_size, self.spec["kinds"], action_faces, self.decks, 100.0,
                            "face counts", read_actions)

    def follower(self, seat: int) -> TrickTensor:
        return TrickTensor(self, seat)

    def fill(self, view: dict[str, Any], seat: int, parts: dict[str, np.ndarray]) -> None:
        n, sp = self.n, self.spec
        # the parts are zeroed: each card adds one to its face (a few cards, no list of 54)
        face_counts(_cards(view.get("hand")), parts["hand"])
        trick = parts["trick"]
        for entry in view.get("trick") or ():
            face_counts(_cards(entry[1]), trick[(entry[0] - seat) % n])
        last = view.get("last_trick") or {}
        prev = parts["last_trick"]
        for entry in last.get("plays") or last.get("cards") or ():
            face_counts(_cards(entry[1]), prev[(entry[0] - seat) % n])
        for i, key in enumerate(sp["public"]):
            face_counts(_cards(view.get(key)), parts["public"][i])
        for i, c in enumerate(view.get("counts") or ()):
            parts["cards_left"][relative(seat, i, n)] = c
        one_hot(parts["trump"], view.get("trump"), TRUMPS)
        one_hot(parts["phase"], view.get("phase"), sp["phases"])
        seat_roles(parts["roles"], view, sp["roles"], seat)
        for entry in view.get("bids") or ():
            _, _, number = action_faces(str(entry[1]))
            parts["bids"][relative(seat, entry[0], n)] = (number / 100.0, 1.0)
        for i, (key, _) in enumerate(sp["scalars"]):
            v = view.get(key)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                parts["scalars"][i] = max(float(v), 0.0)


class TrickTensor(ItemWrites, TensorFollower):
    """One seat's tensor kept from what its view shows (``state.seen_tricks``:
    :class:`~qipai.cards.trickseen.TrickSeen`), without building the view: the hand written
    again when the state gives it (else less the seat's own cards played since), the current
    trick when it differs from the last call's (extended while it only grows), the last trick
    when it changed, the public card lists by their faces appended, the counts and numbers at
    every call, the one-hot blocks (trump, phase, roles) when one of their keys differs. A
    state without a seen form is encoded from the followed view. The same tensor
    as :meth:`TrickEncoder.encode` of ``view(seat)`` (the env tests check it). Sandayi's seen
    form also gives the bids (the ``bids`` block, written when they change) and the seat's
    own cards played (``played``: shengji's are its last public list)."""

    _array = "_buf"

    def __init__(self, encoder: TrickEncoder, seat: int) -> None:
        super().__init__(encoder, seat)
        self._buf, self._parts = encoder.layout.new()
        self._flat = memoryview(self._buf)
        self._views()
        self._state: Any = None
        self._mark: Any = None
        sp = encoder.spec
        self._scalars = [key for key, _ in sp["scalars"]]
        self._marks = ("trump", "phase", *sp["roles"])      # the keys of the one-hot blocks
        self._high = [float(h) for h in encoder.layout.high]
        self._forget()

    def _forget(self) -> None:
        """What the blocks written only when their keys change were written from: nothing."""
        self._keys: tuple | None = None
        self._trick: tuple = ()
        self._written = [-1] * len(self._marks)    # the item each one-hot key set, or -1
        self._counts: list | None = None
        self._numbers: tuple | None = None
        self._bids: list | None = None

    def _views(self) -> None:
        self._parts = self.encoder.layout.parts(self._buf)

    def follow(self, state: Any, views: Any) -> np.ndarray:
        seen = self.seen(state, "seen_tricks")
        if seen is None:                        # a game whose state gives no seen form
            return super().follow(state, views)
        enc, seat, parts, flat = self.encoder, self.seat, self._parts, self._flat
        if seen.whole:
            self._buf.fill(0.0)
            self._forget()
        offsets, n = enc.layout.offsets, enc.n
        hand, at = seen.hand, offsets["hand"][0]
        if hand is not None:
            parts["hand"].fill(0.0)
            for f, c in hand.items():
                flat[at + FACE_INDEX[f]] = c
        else:                                      # changed by the seat's own plays only
            for f in seen.public[-1] if seen.played is None else seen.played:
                flat[at + FACE_INDEX[f]] -= 1
        trick, kept = seen.trick, self._trick
        if trick != kept:
            at = offsets["trick"][0]
            k = len(kept)
            if len(trick) < k or trick[:k] != kept:
                parts["trick"].fill(0.0)
                k = 0
            _add_plays(flat, at, trick[k:], seat, n)
            self._trick = trick
        if seen.last_trick is not None:
            parts["last_trick"].fill(0.0)
            _add_plays(flat, offsets["last_trick"][0], seen.last_trick, seat, n)
        at = offsets["public"][0]
        for faces in seen.public:
            for f in faces:
                flat[at + FACE_INDEX[f]] += 1
            at += 54
        keys, high = seen.keys, self._high
        counts = keys["counts"]
        if counts != self._counts:               # every seat's count: all the block's items
            at = offsets["cards_left"][0]
            for i, c in enumerate(counts):
                j = at + (i - seat) % n
                flat[j] = min(c, high[j])
            self._counts = counts
        numbers = tuple(map(keys.get, self._scalars))
        if numbers != self._numbers:             # the numbers: all the block's items
            at = offsets["scalars"][0]
            for j, v in enumerate(numbers, at):
                number = isinstance(v, (int, float)) and not isinstance(v, bool)
                flat[j] = min(max(float(v), 0.0), high[j]) if number else 0.0
            self._numbers = numbers
        bids = keys.get("bids")                  # sandayi's; shengji has none
        if bids != self._bids:
            self._write_bids(bids or (), seat)
            self._bids = bids
        now = tuple(map(keys.get, self._marks))
        if now != self._keys:
            self._one_hots(now, seat)
            self._keys = now
        # the counts and numbers are written within ``high``; the other blocks count cards,
        # each at most as many as the block's high (the decks, or 4 decks' worth)
        return self._buf.copy()

    def _write_bids(self, bids: Any, seat: int) -> None:
        """The ``bids`` block of the view's bids (each seat's last bid / 100 and a flag), as
        :meth:`TrickEncoder.fill` writes it, within the block's high."""
        enc, flat = self.encoder, self._flat
        n, at = enc.n, enc.layout.offsets["bids"][0]
        self._parts["bids"].fill(0.0)
        high = self._high[at]
        for entry in bids:
            _, _, number = action_faces(str(entry[1]))
            j = at + (entry[0] - seat) % n * 2
            flat[j] = min(number / 100.0, high)
            flat[j + 1] = min(1.0, high)

    def _one_hots(self, values: tuple, seat: int) -> None:
        """The one-hot blocks (``trump``, ``phase``, ``roles``) of ``values`` (the keys of
        ``_marks``): for each key that changed, the item it set cleared and its new item set
        (as :meth:`TrickEncoder.fill` writes them)."""
        enc, flat, written, kept = self.encoder, self._flat, self._written, self._keys
        n, offsets = enc.n, enc.layout.offsets
        for m, value in enumerate(values):
            if kept is not None and value == kept[m]:
                continue
            if m == 0:
                i = offsets["trump"][0] + TRUMPS.index(value) if value in TRUMPS else -1
            elif m == 1:
                phases = enc.spec["phases"]
                i = offsets["phase"][0] + phases.index(value) if value in phases else -1
            elif isinstance(value, int) and not isinstance(value, bool):
                i = offsets["roles"][0] + (m - 2) * n + (value - seat) % n
            else:
                i = -1
            if i != written[m]:
                if written[m] >= 0:
                    flat[written[m]] = 0.0
                if i >= 0:
                    flat[i] = 1.0
                written[m] = i


def _add_plays(flat: memoryview, at: int, plays: tuple, seat: int, n: int) -> None:
    """Add each play ``(seat, faces)`` of ``plays`` to the ``n × 54`` block at ``at`` of
    ``flat``, in the row of its seat relative to ``seat``."""
    for who, faces in plays:
        row = at + (who - seat) % n * 54
        for f in faces:
            flat[row + FACE_INDEX[f]] += 1
