"""Mahjong tiles as small integers, and their text codes.

A tile *kind* is an int:

* ``0..8``   characters (万) ``1m``..``9m``
* ``9..17``  dots (筒/饼) ``1p``..``9p``
* ``18..26`` bamboo (条/索) ``1s``..``9s``
* ``27..30`` winds ``E S W N``; ``31..33`` dragons ``C`` (red 中), ``F`` (green 发), ``P`` (white 白)
* ``34..41`` flowers ``f1``..``f8`` (seasons f1-f4, plants f5-f8); a flower is one unique tile

This is also the canonical order of the rule files (1m..9m 1p..9p 1s..9s E S W N C F P).
Ints keep hand arithmetic fast: a hand is often a 34-long count list indexed by kind.
"""

from __future__ import annotations

from collections.abc import Iterable

from qipai.core.errors import Message, NotationError

NUM_KINDS = 34          # playing kinds (no flowers)
FLOWER_BASE = 34
NUM_FLOWERS = 8
SUIT_LETTERS = "mps"
HONOR_LETTERS = "ESWNCFP"
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WIND_LETTERS = "ESWN"

NAMES: tuple[str, ...] = tuple(
    [f"{r}{s}" for s in SUIT_LETTERS for r in range(1, 10)]
    + list(HONOR_LETTERS)
    + [f"f{i}" for i in range(1, NUM_FLOWERS + 1)]
)
INDEX: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
CHINESE: tuple[str, ...] = tuple(
    [f"{'一二三四五六七八九'[r]}{s}" for s in "万筒条" for r in range(9)]
    + list("东南西北中发白") + list("春夏秋冬梅兰竹菊")
)

TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def is_suited(t: int) -> bool:
    """Number tile (characters, dots or bamboo)."""
    return t < 27


def is_honor(t: int) -> bool:
    return 27 <= t < 34


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    return 31 <= t <= 33


def is_flower(t: int) -> bool:
    return t >= FLOWER_BASE


def is_terminal(t: int) -> bool:
    """Rank 1 or 9 of a suit."""
    return t < 27 and t % 9 in (0, 8)


def suit(t: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honors, 4 flowers."""
    return t // 9 if t < 27 else (3 if t < 34 else 4)


def rank(t: int) -> int:
    """Rank 1..9 of a number tile (0 for honors and flowers)."""
    return t % 9 + 1 if t < 27 else 0


def name(t: int) -> str:
    """The text code of a tile: ``5p``, ``E``, ``f3``."""
    return NAMES[t]


def parse_tile(text: str) -> int:
    """One tile code (``5p``, ``E``, ``f3``). Raises :class:`NotationError`."""
    t = INDEX.get(text.strip())
    if t is None:
        raise NotationError(Message(f"unknown tile {text!r}", code="tile.unknown", params={"tile": text}),
                            "tile")
    return t


def _no_suit(at: int) -> Message:
    return Message(f"digits without a suit letter at position {at}", code="tile.digits_alone",
                   params={"at": at})


def parse_tiles(text: str, offset: int = 0) -> list[int]:
    """A run of tile codes: ``123m 55p ESW f1f2`` (suit letter after its digits, honors one
    letter each, spaces optional). Returns kinds in the written order.

    Raises :class:`NotationError` naming the character position (``offset`` is added, so a
    caller parsing a longer line can report positions in that line).
    """
    out: list[int] = []
    digits: list[tuple[int, int]] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            if digits:
                raise NotationError(_no_suit(digits[0][1] + offset + 1), "tiles")
            i += 1
            continue
        if c.isdecimal():
            if c == "0":
                raise NotationError(Message(f"rank 0 at position {i + offset + 1}", code="tile.rank_zero",
                                            params={"at": i + offset + 1}), "tiles")
            digits.append((int(c), i))
            i += 1
            continue
        if c in SUIT_LETTERS:
            if not digits:
                raise NotationError(Message(f"suit letter {c!r} without ranks at position {i + offset + 1}",
                                            code="tile.suit_alone",
                                            params={"letter": c, "at": i + offset + 1}),
                                    "tiles")
            base = SUIT_LETTERS.index(c) * 9
            out.extend(base + r - 1 for r, _ in digits)
            digits = []
            i += 1
            continue
        if digits:
            honors = " ".join(HONOR_LETTERS)
            raise NotationError(Message(f"{c!r} at position {i + offset + 1} is not a suit letter: ranks "
                                        f"take m, p or s (123m); honors are single letters {honors}",
                                        code="tile.not_suit", params={"letter": c, "at": i + offset + 1,
                                                                      "honors": honors}),
                                "tiles")
        if c in HONOR_LETTERS:
            out.append(INDEX[c])
            i += 1
            continue
        if c == "f" and i + 1 < n and text[i + 1] in "12345678":
            out.append(FLOWER_BASE + int(text[i + 1]) - 1)
            i += 2
            continue
        raise NotationError(Message(f"unexpected character {c!r} at position {i + offset + 1}",
                                    code="tile.unexpected", params={"letter": c, "at": i + offset + 1}),
                            "tiles")
    if digits:
        raise NotationError(_no_suit(digits[0][1] + offset + 1), "tiles")
    return out


def format_tiles(tiles: Iterable[int], sort: bool = True) -> str:
    """Compact text of tiles, runs of one suit sharing the letter: ``123m55pEESf1``."""
    if tiles == []:                       # most seats' flowers: at once
        return ""
    ts = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit = None
    for t in ts:
        if t < 27:
            s = SUIT_LETTERS[t // 9]
            if run_suit is not None and run_suit != s:
                out.append(run_suit)
            out.append(str(t % 9 + 1))
            run_suit = s
        else:
            if run_suit is not None:
                out.append(run_suit)
                run_suit = None
            out.append(NAMES[t])
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def counts(tiles: Iterable[int]) -> list[int]:
    """34-long count list of the playing tiles (flowers ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            c[t] += 1
    return c
