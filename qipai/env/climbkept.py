"""The kept tensor of one seat of a climbing card game (doudizhu, wakeng, fouafour, baohuang):
the work of :class:`~qipai.env.climbing.ClimbingTensor` at every observation, written item by
item through a ``memoryview`` of the flat ``float32`` array (a third of numpy's cost for a
scalar write) and compiled with mypyc as the native group ``climbing`` (:mod:`qipai.native`;
pure Python when not built or stale, the same tensors).

:class:`ClimbKept` holds the array, the history rows of every ``plays`` entry, each seat's
last play with cards (the ``top`` block's counts) and the small blocks' keys as last read;
:meth:`ClimbKept.refresh` adds the appended entries and fills again the small blocks whose
keys differ, as :meth:`~qipai.env.climbing.ClimbingEncoder.fill` fills them."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from .cardtext import RANK_INDEX, action_ranks

HISTORY: Final = 12          # plays remembered in the history block
BID_HIGH: Final = 4.0        # upper bound of a bid value in the bids block
ROWS_KEPT: Final = 100_000   # history rows kept by (relative seat, play text)

# the small blocks, in the order of ClimbingEncoder._small_blocks
HAND: Final = 0
LEFT: Final = 1
TOP: Final = 2
PHASE: Final = 3
ROLES: Final = 4
BIDS: Final = 5
SCALARS: Final = 6
PUBLIC: Final = 7
FINISHED: Final = 8


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# compiled (qipai.native): a mypyc class with its attributes in C fields, copied and pickled
# through __reduce__ (its constructor's arguments, then what it has kept)
class ClimbKept:
    """One seat's kept tensor; ``offsets`` are the layout's block offsets, ``spec`` the game's
    entry of :data:`~qipai.env.climbing.GAMES`."""

    n: int
    seat: int
    buf: Any                       # the flat float32 array (np.ndarray)
    rows: Any                      # one history row per plays entry (np.ndarray, >= plays rows)
    plays: int                     # plays entries held in rows
    last: list[Any]                # per relative seat: its last play's (rank, count) pairs, or None
    seen: tuple[Any, ...] | None   # the small blocks' keys as last read (None: fill them all)
    keys: list[str]                # every small block's keys, in a row
    block_of: list[int]            # the block of each key
    at: list[int]                  # each block's (HAND..FINISHED) first item, -1 when absent
    size: list[int]                # each block's items
    played_at: int
    history_at: int
    width: int                     # a history row's items
    phases: list[Any]
    roles: list[str]
    scalars: list[str]
    scalar_high: float
    public: list[str]
    max_hand: float
    row_of: dict[Any, Any]         # (relative seat, text or None) -> (row, (rank, count) pairs)
    made: tuple[Any, ...]          # the constructor's arguments

    def __init__(self, n: int, seat: int, size: int, offsets: dict[str, tuple[int, int]],
                 spec: dict[str, Any], max_hand: float) -> None:
        self.made = (n, seat, size, offsets, spec, max_hand)
        self.n = n
        self.seat = seat
        self.buf = np.zeros(size, np.float32)
        self.width = n + 16
        self.rows = np.zeros((64, self.width), np.float32)
        self.plays = 0
        self.last = [None] * n
        self.seen = None
        self.played_at = offsets["played"][0]
        self.history_at = offsets["history"][0]
        self.phases = list(spec["phases"])
        self.roles = list(spec["roles"])
        self.scalars = [k for k, _ in spec["scalars"]]
        self.scalar_high = float(max([h for _, h in spec["scalars"]], default=0))
        self.public = list(spec["public"])
        self.max_hand = max_hand
        names = ["hand", "cards_left", "top", "phase", "roles", "bids", "scalars", "public", "finished"]
        block_keys: list[list[str]] = [["hand_ranks", "hand"], ["counts"], ["top"], ["phase"], self.roles,
                                       ["bids"], self.scalars, self.public, ["finished"]]
        self.at = [offsets[b][0] if b in offsets else -1 for b in names]
        self.size = [offsets[b][1] - offsets[b][0] if b in offsets else 0 for b in names]
        self.keys = []
        self.block_of = []
        for b in range(len(names)):
            if self.at[b] >= 0:
                for k in block_keys[b]:
                    self.keys.append(k)
                    self.block_of.append(b)
        self.row_of = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (ClimbKept, self.made, (self.buf, self.rows, self.plays, self.last, self.seen, self.row_of))

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.buf, self.rows, self.plays, self.last, self.seen, self.row_of = state

    def refresh(self, keys: dict[str, Any], appended: list[Any], whole: bool) -> Any:
        """The tensor (a new array) after ``appended`` plays entries (all of them when
        ``whole``), the small blocks read from ``keys`` (a view, or a seen form's keys)."""
        n = self.n
        if whole:
            self.buf.fill(0.0)
            self.seen = None
            self.rows = np.zeros((64, self.width), np.float32)
            self.last = [None] * n
            self.plays = 0
        flat: Any = memoryview(self.buf)
        grown = self.seen is None or len(appended) > 0
        if grown:
            self._add(appended, flat)
        seen = self.seen
        now = tuple([keys.get(k) for k in self.keys])
        changed = [False] * 9
        if seen is None:
            for b in self.block_of:
                changed[b] = True
        else:
            i = 0
            for v in now:
                if v != seen[i]:
                    changed[self.block_of[i]] = True
                i += 1
            if grown:
                changed[TOP] = True
        self.seen = now
        for b in range(9):
            if changed[b]:
                self._fill(b, keys, flat)
        return self.buf.copy()

    # ----- the plays ---------------------------------------------------------------------------
    def _add(self, entries: list[Any], flat: Any) -> None:
        """Add ``entries`` to the played counts, the history rows and each seat's last play,
        and write the history block (newest first)."""
        n, seat, width = self.n, self.seat, self.width
        m = self.plays
        end = m + len(entries)
        rows = self.rows
        if end > len(rows):
            rows = self.rows = np.concatenate([rows, np.zeros((end + len(rows), width), np.float32)])
        row_of = self.row_of
        for entry in entries:
            rel = (int(entry[0]) - seat) % n
            cards = len(entry) > 2 and bool(entry[2])
            key = (rel, entry[1] if cards else None)
            made = row_of.get(key)
            if made is None:
                made = _row(rel, n, str(entry[1]) if cards else None)
                if len(row_of) < ROWS_KEPT:
                    row_of[key] = made
            rows[m] = made[0]
            m += 1
            if cards:
                pairs: list[tuple[int, float]] = made[1]
                at = self.played_at + rel * 15
                for r, c in pairs:
                    flat[at + r] += c
                self.last[rel] = pairs
        self.plays = m
        h = min(m, HISTORY)
        if h:
            self.buf[self.history_at:self.history_at + h * width] = rows[m - h:m][::-1].reshape(-1)

    # ----- the small blocks --------------------------------------------------------------------
    def _fill(self, b: int, keys: dict[str, Any], flat: Any) -> None:
        """Block ``b`` zeroed and filled from ``keys`` (as ClimbingEncoder's fillers)."""
        at = self.at[b]
        for i in range(at, at + self.size[b]):
            flat[i] = 0.0
        n, seat = self.n, self.seat
        if b == HAND:
            ranks = keys.get("hand_ranks")
            if isinstance(ranks, str):
                for ch in ranks:
                    flat[at + RANK_INDEX[ch]] += 1.0
            else:
                _count_cards(flat, at, keys.get("hand") or ())
        elif b == LEFT:
            counts = keys.get("counts") or ()
            k = len(counts)
            for i in range(k):
                flat[at + (i - seat) % n] = min(float(counts[i]), self.max_hand)
        elif b == TOP:
            top = keys.get("top")
            if isinstance(top, dict) and top.get("seat") is not None:
                rel = (int(top["seat"]) - seat) % n
                flat[at + rel] = 1.0
                pairs = self.last[rel]
                if pairs is not None:
                    for r, c in pairs:
                        flat[at + n + r] = c
        elif b == PHASE:
            phase = keys.get("phase")
            if phase in self.phases:
                flat[at + self.phases.index(phase)] = 1.0
        elif b == ROLES:
            r = 0
            for key in self.roles:
                who: Any = keys.get(key)
                if _int(who):
                    flat[at + r * n + (int(who) - seat) % n] = 1.0
                r += 1
        elif b == BIDS:
            for entry in keys.get("bids") or ():
                number = action_ranks(str(entry[1]))[2]
                value = number or (1.0 if entry[1] == "call" else 0.0)
                j = at + (int(entry[0]) - seat) % n * 2
                flat[j] = min(value, BID_HIGH)
                flat[j + 1] = 1.0
        elif b == SCALARS:
            high = self.scalar_high
            i = 0
            for key in self.scalars:
                v: Any = keys.get(key)
                if _int(v) or isinstance(v, float):
                    flat[at + i] = min(max(float(v), 0.0), high)
                i += 1
        elif b == PUBLIC:
            i = 0
            for key in self.public:
                cards = keys.get(key) or ()
                _count_cards(flat, at + i * 15, [cards] if isinstance(cards, str) else cards)
                i += 1
        elif b == FINISHED:
            for s in keys.get("finished") or ():
                if isinstance(s, int):
                    flat[at + (int(s) - seat) % n] = 1.0


def _row(rel: int, n: int, text: str | None) -> tuple[Any, list[tuple[int, float]]]:
    """The history row of a plays entry of the seat ``rel`` places after the observer (seat
    one-hot, rank counts of ``text``, or the pass flag when ``text`` is None) and its nonzero
    rank counts as ``(rank, count)`` pairs."""
    row = np.zeros(n + 16, np.float32)
    row[rel] = 1.0
    pairs: list[tuple[int, float]] = []
    if text is None:
        row[n + 15] = 1.0
    else:
        counts = action_ranks(text)[1]
        for r in range(15):
            if counts[r]:
                pairs.append((r, float(counts[r])))
                row[n + r] = counts[r]
    row.flags.writeable = False
    return row, pairs


def _count_cards(flat: Any, at: int, cards: Any) -> None:
    """Add one to the rank of each card id or face code of ``cards`` in the 15 items at ``at``."""
    for c in cards:
        flat[at + RANK_INDEX[str(c)[0]]] += 1.0
