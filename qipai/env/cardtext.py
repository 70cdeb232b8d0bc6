"""Reading cards and card-game actions into count vectors (for observations and candidates).

Ranks are counted over the 15 slots :data:`RANKS` (``3 .. A 2`` then the small and big joker,
``L``/``B``), whatever the game's own rank order is; faces (rank and suit) over the 54 slots
:data:`FACES` (``2D 2C 2H 2S 3D ... AS LJ BJ``). A card id (``5H0``, ``BJ2``) or face code
(``5H``) names a face; a rank string (``KKKAAA+8B``, ``3333LB``) names ranks only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np

from .base import ListActions

RANKS = "3456789TJQKA2LB"
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
SUITS = "DCHS"
FACES = [r + s for r in "23456789TJQKA" for s in SUITS] + ["LJ", "BJ"]
FACE_INDEX = {f: i for i, f in enumerate(FACES)}
NUMBER_KINDS = frozenset({"bid"})       # actions whose argument is a number, not ranks
_CARD = re.compile(r"^(?:[2-9TJQKA][DCHS]|[LB]J)\d?$")


def rank_of(card: str) -> int:
    """The :data:`RANKS` slot of a card id or face code (``LJ``/``BJ`` are ``L``/``B``)."""
    return RANK_INDEX[card[0]]


def face_of(card: str) -> int:
    """The :data:`FACES` slot of a card id or face code."""
    return FACE_INDEX[card[:2]]


def rank_counts(cards, out: np.ndarray | None = None) -> np.ndarray:
    """Add the ranks of ``cards`` (card ids / face codes) to ``out`` (15 counts)."""
    out = np.zeros(15, np.float32) if out is None else out
    for c in cards:
        out[RANK_INDEX[c[0]]] += 1
    return out


def face_counts(cards, out: np.ndarray | None = None) -> np.ndarray:
    """Add the faces of ``cards`` to ``out`` (54 counts)."""
    out = np.zeros(54, np.float32) if out is None else out
    if len(cards) > 8:                  # many cards: counted in one numpy call
        out += np.bincount([FACE_INDEX[c[:2]] for c in cards], minlength=54)
        return out
    for c in cards:
        out[FACE_INDEX[c[:2]]] += 1
    return out


@lru_cache(maxsize=65536)
def rank_string_vector(ranks: str) -> np.ndarray:
    """15 rank counts of a rank string (``33446779TJQKAA22LB``), as a read-only array."""
    counts = [0] * 15
    for ch in ranks:
        counts[RANK_INDEX[ch]] += 1
    v = np.array(counts, np.float32)
    v.flags.writeable = False
    return v


def rank_vector(cards) -> np.ndarray:
    """15 rank counts of card ids / face codes, as a read-only array (cached)."""
    return rank_string_vector("".join(sorted(c[0] for c in cards)))


def _split_kind(text: str) -> tuple[str, list[str]]:
    words = text.split()
    if words and words[0].isalpha() and words[0].islower():
        return words[0], words[1:]
    return "play", words


@lru_cache(maxsize=65536)
def action_ranks(text: str) -> tuple[str, tuple[int, ...], float]:
    """``(kind, 15 rank counts, number)`` of an action's canonical text.

    ``kind`` is the leading word (``pass``, ``bid``, ``cha``, ``declare``, ...) or ``play`` for
    a bare play; the counts come from card ids or rank strings after it; ``number`` is a bare
    number argument of a bid (``bid 2`` -> 2), else 0; digits elsewhere (``888``, ``cha 88``)
    are ranks."""
    kind, words = _split_kind(text)
    counts = [0] * 15
    number = 0.0
    for w in words:
        if w.isdigit() and kind in NUMBER_KINDS:      # bid 2; a play 888 or cha 88 is ranks
            number = float(w)
            continue
        for ch in ([w[0]] if _CARD.match(w) else w.split(":")[-1]):
            if ch in RANK_INDEX:
                counts[RANK_INDEX[ch]] += 1
    return kind, tuple(counts), number


@lru_cache(maxsize=65536)
def action_faces(text: str) -> tuple[str, tuple[int, ...], float]:
    """``(kind, 54 face counts, number)`` of an action's text made of face codes (``AS JS``,
    ``bury 6D 7H``, ``bid 60``, ``trump C``); a lone suit letter counts nothing."""
    kind, words = _split_kind(text)
    counts = [0] * 54
    number = sum(float(w) for w in words if w.isdigit())
    for w in words:
        i = FACE_INDEX.get(w[:2])          # a face code, or a card id (face + one digit)
        if i is not None and (len(w) == 2 or (len(w) == 3 and _CARD.match(w))):
            counts[i] += 1
    return kind, tuple(counts), number


def list_actions(size: int, kinds: tuple[str, ...], parse, scale: float, number_scale: float, what: str):
    """A :class:`~qipai.env.base.ListActions` of ``size`` candidates a page whose features are
    the kind one-hot over ``kinds`` and ``other``, the counts ``parse(text)`` gives divided by
    ``scale`` (at most 1), and the numeric argument divided by ``number_scale`` (cached by
    action text); ``what`` names the counts in the documentation."""
    features = CardFeatures(kinds, parse, scale, number_scale)
    width = features.width
    doc = (f"index into the legal-action list ({size} a page, longer lists in pages); candidate "
           f"features ({width}): kind one-hot ({', '.join(kinds)}, other), {what} / {scale:g}, "
           f"numeric argument / {number_scale:g}")
    return ListActions(size, width, features.featurize, doc, features.many)


class CardFeatures:
    """An action's feature vector (see :func:`list_actions`), cached by action text. ``parse``
    is a module function, so that an env pickles; a pickle leaves the cache behind (it is
    filled again), a deep copy shares it (the vectors depend on the text alone)."""

    def __init__(self, kinds: tuple[str, ...], parse, scale: float, number_scale: float) -> None:
        self.kinds, self.parse, self.scale, self.number_scale = kinds, parse, scale, number_scale
        self.width = len(kinds) + 1 + len(parse("pass")[1]) + 1
        self.slots = (*kinds, "other")
        self.cache: dict[str, np.ndarray] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "cache": {}}

    def __deepcopy__(self, memo: dict) -> CardFeatures:
        return self

    def featurize(self, action) -> np.ndarray:
        text = str(action)
        cache = self.cache
        v = cache.get(text)
        if v is None:
            kinds, slots = self.kinds, self.slots
            kind, counts, number = self.parse(text)
            v = np.zeros(self.width, np.float32)
            v[slots.index(kind if kind in kinds else "other")] = 1
            v[len(slots):-1] = np.minimum(np.asarray(counts, np.float32) / self.scale, 1)
            v[-1] = min(number / self.number_scale, 1.0)
            if len(cache) < 100_000:
                cache[text] = v
        return v

    def many(self, actions, out: np.ndarray) -> None:
        """``out[j] = self.featurize(actions[j])`` for every ``j`` (``out`` zeroed), the actions met for
        the first time featurized together (a few numpy calls for all of them)."""
        cache, parse = self.cache, self.parse
        rows: list[Any] = []
        new: list[tuple[int, str, tuple]] = []
        for j, action in enumerate(actions):
            text = str(action)
            v = cache.get(text)
            if v is None:
                new.append((j, text, parse(text)))
            rows.append(v)
        if new:
            kinds, slots, scale, number_scale = self.kinds, self.slots, self.scale, self.number_scale
            block = np.zeros((len(new), self.width), np.float32)
            block[:, len(slots):-1] = [counts for _, _, (_, counts, _) in new]
            np.minimum(block[:, len(slots):-1] / scale, 1, out=block[:, len(slots):-1])
            block[:, -1] = [min(number / number_scale, 1.0) for _, _, (_, _, number) in new]
            block[range(len(new)), [slots.index(kind if kind in kinds else "other")
                                    for _, _, (kind, _, _) in new]] = 1
            for k, (j, text, _) in enumerate(new):
                rows[j] = v = block[k]
                if len(cache) < 100_000:
                    cache[text] = v
        if rows:
            out[:len(rows)] = rows
