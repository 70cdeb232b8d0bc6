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
#: the :data:`FACES` slot of each face code and card id (a face and one digit)
_FACE_WORD = {w: i for f, i in FACE_INDEX.items() for w in (f, *(f + d for d in "0123456789"))}


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


def face_slots(text: str) -> tuple[str, tuple[int, ...], float]:
    """``(kind, face slots, number)`` of an action's text made of face codes: as
    :func:`action_faces`, the faces as their :data:`FACES` slots (one per card, in text order)
    instead of 54 counts."""
    kind, words = _split_kind(text)
    try:                                   # face codes and card ids only (most texts)
        return kind, tuple(map(_FACE_WORD.__getitem__, words)), 0.0
    except KeyError:
        pass
    number = 0.0
    slots = []
    for w in words:
        i = FACE_INDEX.get(w[:2])          # a face code, or a card id (face + one digit)
        if i is not None:
            if len(w) == 2 or (len(w) == 3 and _CARD.match(w)):
                slots.append(i)
        elif w.isdigit():                  # (a face code or card id is never digits)
            number += float(w)
    return kind, tuple(slots), number


@lru_cache(maxsize=65536)
def action_faces(text: str) -> tuple[str, tuple[int, ...], float]:
    """``(kind, 54 face counts, number)`` of an action's text made of face codes (``AS JS``,
    ``bury 6D 7H``, ``bid 60``, ``trump C``); a lone suit letter counts nothing."""
    kind, slots, number = face_slots(text)
    counts = [0] * 54
    for i in slots:
        counts[i] += 1
    return kind, tuple(counts), number


def list_actions(size: int, kinds: tuple[str, ...], parse, scale: float, number_scale: float, what: str,
                 read=None):
    """A :class:`~qipai.env.base.ListActions` of ``size`` candidates a page whose features are
    the kind one-hot over ``kinds`` and ``other``, the counts ``parse(text)`` gives divided by
    ``scale`` (at most 1), and the numeric argument divided by ``number_scale`` (cached by
    action text); ``what`` names the counts in the documentation. ``read`` (optional, a
    module function) reads a list of actions as ``parse`` reads their texts: their kinds, the
    number of counted items of each, every counted item's slot (as :func:`face_slots` reads
    the text of :func:`action_faces`) and their numbers (``None``: all zero), as
    :func:`read_each` gives them; faster for new texts."""
    features = CardFeatures(kinds, parse, scale, number_scale, read)
    width = features.width
    doc = (f"index into the legal-action list ({size} a page, longer lists in pages); candidate "
           f"features ({width}): kind one-hot ({', '.join(kinds)}, other), {what} / {scale:g}, "
           f"numeric argument / {number_scale:g}")
    return ListActions(size, width, features.featurize, doc, features.many)


def read_each(actions, read) -> tuple[list[str], list[int], list[int], list[float]]:
    """The form a :func:`list_actions` ``read`` gives of ``actions`` (kinds, the number of
    counted items of each, every counted item's slot in a row, numbers), from ``read(action)``
    of each: ``(kind, the slot of each counted item, number)``."""
    reads = list(map(read, actions))
    return ([kind for kind, _, _ in reads], [len(c) for _, c, _ in reads],
            [i for _, c, _ in reads for i in c], [number for _, _, number in reads])


#: texts whose features a :class:`CardFeatures` keeps (then it starts again)
FEATURES_KEPT = 100_000
#: at most this many new texts of a page are featurized item by item (more: by numpy, in batch)
FEW_NEW = 8


class CardFeatures:
    """An action's feature vector (see :func:`list_actions`), kept by action text: one row of
    ``table`` per text met (``cache``: text → row; when :data:`FEATURES_KEPT` are kept, it
    starts again). The texts met for the first time on a page are featurized together (a
    few numpy calls for all of them), and a page is copied out of the table in one. ``parse``
    and ``read`` are module functions, so that an env pickles; a pickle leaves the table
    behind (it is filled again), a deep copy shares it (the rows depend on the text alone)."""

    def __init__(self, kinds: tuple[str, ...], parse, scale: float, number_scale: float,
                 read=None) -> None:
        self.kinds, self.parse, self.scale, self.number_scale = kinds, parse, scale, number_scale
        self.read = read
        self.counted = len(parse("pass")[1])
        self.width = len(kinds) + 1 + self.counted + 1
        self.slots = (*kinds, "other")
        # per column, what the sums of a row are divided by: the counts by ``scale``
        self._div = np.ones(self.width)
        self._div[len(self.slots):-1] = scale
        #: the kind one-hot's column of a kind
        self._column = {k: i for i, k in enumerate(self.slots)}
        self._empty()

    def _empty(self) -> None:
        self.cache: dict[str, int] = {}
        self._table(np.zeros((256, self.width), np.float32))

    def _table(self, table: np.ndarray) -> None:
        self.table = table
        self._flat = memoryview(table.reshape(-1))     # item writes: cheaper than numpy's

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("cache", "table", "_flat")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._empty()

    def __deepcopy__(self, memo: dict) -> CardFeatures:
        return self

    def featurize(self, action) -> np.ndarray:
        out = np.zeros((1, self.width), np.float32)
        self.many((action,), out)
        return out[0]

    def _read(self, action) -> tuple[str, Any, float]:
        """``(kind, the slot of each counted item, number)`` of ``action``, from its text."""
        kind, counts, number = self.parse(str(action))
        return kind, [i for i, c in enumerate(counts) for _ in range(c)], number

    def _add(self, new: dict[str, Any]) -> None:
        """Rows for the actions of ``new`` (text → action; texts not kept), after the rows kept."""
        cache, width = self.cache, self.width
        texts = list(new)
        k = len(texts)
        base = len(cache)
        end = base + k
        if end > len(self.table):
            grown = np.zeros((max(end, 2 * len(self.table)), width), np.float32)
            grown[:base] = self.table[:base]
            self._table(grown)
        read = self.read
        kinds, lengths, counted, numbers = (read(list(new.values())) if read is not None
                                            else read_each(list(new.values()), self._read))
        column, other = self._column.get, len(self.kinds)
        if k <= FEW_NEW:
            self._add_items(base, kinds, lengths, counted, numbers)
            cache.update(zip(texts, range(base, end)))
            return
        # per row: its kind's column and a count for each counted item, summed by bincount
        starts = np.arange(0, k * width, width)
        flat = np.concatenate([starts + np.array([column(kind, other) for kind in kinds], np.intp),
                               np.repeat(starts + len(self.slots), lengths) + np.array(counted, np.intp)])
        rows = np.bincount(flat, minlength=k * width).reshape(k, width) / self._div
        if numbers is not None and any(numbers):
            rows[:, -1] = [number / self.number_scale for number in numbers]
        np.minimum(rows, 1.0, out=rows)
        cache.update(zip(texts, range(base, end)))
        self.table[base:end] = rows

    def _add_items(self, base: int, kinds: list[str], lengths: list[int], counted: list[int],
                   numbers: list[float] | None) -> None:
        """:meth:`_add`'s rows for a few new texts (the table's rows from ``base`` are zero),
        written item by item: for a handful of rows cheaper than the numpy calls of a batch
        (the same values: the kind's column 1, each count divided by ``scale``, the number by
        ``number_scale``, at most 1)."""
        width, first, scale = self.width, len(self.slots), self.scale
        column, other, flat = self._column.get, len(self.kinds), self._flat
        j = 0
        for r, (kind, n) in enumerate(zip(kinds, lengths), base):
            at = r * width
            flat[at + column(kind, other)] = 1.0
            at += first
            items = counted[j:j + n]
            j += n
            for i in items:                   # the counts, then each divided by the scale
                flat[at + i] += 1.0
            for i in set(items):
                flat[at + i] = min(flat[at + i] / scale, 1.0)
            if numbers is not None and numbers[r - base]:
                flat[at + self.counted] = min(numbers[r - base] / self.number_scale, 1.0)

    def many(self, actions, out: np.ndarray) -> None:
        """``out[j] = self.featurize(actions[j])`` for every ``j`` (``out`` at least
        ``len(actions)`` rows), the texts met for the first time featurized together."""
        texts = list(map(str, actions))
        if not texts:
            return
        get = self.cache.get
        rows = list(map(get, texts))
        if None in rows:
            new = {t: a for t, r, a in zip(texts, rows, actions) if r is None}
            if len(self.cache) + len(new) > FEATURES_KEPT:         # start again
                self._empty()
                new = dict(zip(texts, actions))
            self._add(new)
            rows = list(map(self.cache.get, texts))
        self.table.take(rows, 0, out[:len(rows)])     # (the method: np.take's wrapper costs more)
