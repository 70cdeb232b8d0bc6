"""The one-line hand notation of the mahjong rule files.

``CONCEALED MELDS + WIN | FLAGS``, for example ``123m 456p 789s 1p [CCC] + 1p | tsumo seat=E``.

* ``CONCEALED``: the concealed tiles before the winning tile (13 − 3 × melds of them);
* ``MELDS``: ``[234m]`` chow, ``[555p]`` pung, ``[5555p]`` exposed kong, ``(5555p)`` concealed kong;
* ``WIN``: the winning tile;
* ``FLAGS``: ``tsumo`` (self-drawn), ``kong`` (replacement after a kong with ``tsumo``, robbing a
  kong without), ``last`` (last tile of the wall), ``4th`` (the fourth copy: 和绝张),
  ``seat=E|S|W|N``, ``round=E|S|W|N`` (prevalent wind), ``flowers=N``.
  Defaults: won on a discard, seat East, round East, no flowers.

:func:`parse_hand` reads a line, :meth:`Hand.__str__` writes it back in canonical form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from qipai.core.errors import NotationError

from .meld import Meld, parse_meld
from .tile import NUM_KINDS, WIND_LETTERS, format_tiles, parse_tiles


@dataclass(frozen=True)
class Hand:
    """A winning (or candidate) hand with its win context.

    ``concealed``: tile kinds held concealed before the win (sorted); ``melds``: declared sets;
    ``win``: the winning tile (``None`` for a hand that is not a win claim); winds are 0..3
    for East, South, West, North.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win: int | None = None
    self_drawn: bool = False
    kong: bool = False
    last: bool = False
    fourth: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    flowers: int = 0
    extra: dict = field(default_factory=dict, compare=False)

    def body(self) -> str:
        """The tiles part of the line (before ``|``): ``CONCEALED MELDS + WIN``."""
        parts = []
        if self.concealed:
            parts.append(format_tiles(self.concealed))
        parts.extend(str(m) for m in self.melds)
        text = " ".join(parts)
        if self.win is not None:
            text += f" + {format_tiles([self.win])}"
        return text

    def __str__(self) -> str:
        text = self.body()
        flags = []
        if self.self_drawn:
            flags.append("tsumo")
        if self.kong:
            flags.append("kong")
        if self.last:
            flags.append("last")
        if self.fourth:
            flags.append("4th")
        flags.append(f"seat={WIND_LETTERS[self.seat_wind]}")
        flags.append(f"round={WIND_LETTERS[self.round_wind]}")
        if self.flowers:
            flags.append(f"flowers={self.flowers}")
        return text + " | " + " ".join(flags)

    def all_tiles(self) -> list[int]:
        """Every playing tile of the hand: concealed, the winning tile and the melds' tiles."""
        out = list(self.concealed)
        if self.win is not None:
            out.append(self.win)
        for m in self.melds:
            out.extend(m.tiles)
        return out


_MELD = re.compile(r"\[[^\]]*\]|\([^)]*\)")


def parse_hand(text: str, flags: Callable[[str, int], dict] | None = None) -> Hand:
    """Read a hand line. Raises :class:`NotationError` naming the position (1-based) of the fault.

    Checks the counts too: concealed tiles = 13 − 3 × melds, no kind more than four times,
    flowers only as ``flowers=N``. ``flags(text, offset)`` reads the flags after ``|`` into
    keyword arguments of :class:`Hand` (default :func:`parse_flags`, the Guobiao flags; a game
    with flags of its own puts them in ``extra``).
    """
    body, bar, flag_text = text.partition("|")
    flag_offset = len(body) + 1
    tiles_part, plus, win_part = body.partition("+")
    if not plus:
        raise NotationError("missing '+ WIN' (the winning tile)", "hand",
                            code="notation.no_winning_tile")
    concealed: list[int] = []
    melds: list[Meld] = []
    pos = 0
    for m in _MELD.finditer(tiles_part):
        concealed.extend(parse_tiles(tiles_part[pos:m.start()], pos))
        melds.append(parse_meld(m.group(0), m.start()))
        pos = m.end()
    rest = tiles_part[pos:]
    if "[" in rest or "(" in rest or "]" in rest or ")" in rest:
        where = pos + min(i for i in (rest.find(c) for c in "[(])") if i >= 0) + 1
        raise NotationError(f"unclosed meld bracket at position {where}", "hand",
                            code="notation.bad_meld")
    concealed.extend(parse_tiles(rest, pos))
    if any(t >= NUM_KINDS for t in concealed):
        raise NotationError("flowers are written as the flag flowers=N, not among the tiles", "hand",
                            code="notation.hand_syntax")
    win_offset = len(tiles_part) + 1
    win_tiles = parse_tiles(win_part, win_offset)
    if len(win_tiles) != 1 or win_tiles[0] >= NUM_KINDS:
        raise NotationError(f"exactly one winning tile must follow '+' (position {win_offset})", "hand",
                            code="notation.hand_syntax")
    want = 13 - 3 * len(melds)
    if len(concealed) != want:
        raise NotationError(f"{len(melds)} melds need {want} concealed tiles before the winning tile, "
                            f"got {len(concealed)}", "hand",
                            code="notation.hand_size",
                            params={"melds": len(melds), "want": want, "got": len(concealed)})
    kwargs: dict = {}
    if bar:
        kwargs = (flags or parse_flags)(flag_text, flag_offset)
    hand = Hand(tuple(sorted(concealed)), tuple(melds), win_tiles[0], **kwargs)
    check_counts(hand)
    return hand


def parse_flags(text: str, offset: int = 0) -> dict:
    """The flags after ``|`` as keyword arguments of :class:`Hand`."""
    out: dict = {}
    pos = 0
    for word in text.split():
        at = text.index(word, pos)
        pos = at + len(word)
        where = f"at position {offset + at + 1}"
        key, eq, value = word.partition("=")
        if not eq:
            flag = {"tsumo": "self_drawn", "kong": "kong", "last": "last", "4th": "fourth"}.get(word)
            if flag is None:
                raise NotationError(f"unknown flag {word!r} {where} (tsumo, kong, last, 4th, "
                                    "seat=, round=, flowers=)", "flags",
                                    code="notation.unknown_flag", params={"flag": word})
            out[flag] = True
        elif key in ("seat", "round"):
            if value not in WIND_LETTERS or len(value) != 1:
                raise NotationError(f"{key} must be E, S, W or N, got {value!r} {where}", "flags",
                                    code="notation.flag_value", params={"flag": key})
            out["seat_wind" if key == "seat" else "round_wind"] = WIND_LETTERS.index(value)
        elif key == "flowers":
            if not (value.isascii() and value.isdecimal()) or int(value) > 8:
                raise NotationError(f"flowers must be 0..8, got {value!r} {where}", "flags",
                                    code="notation.flag_value", params={"flag": "flowers"})
            out["flowers"] = int(value)
        else:
            raise NotationError(f"unknown flag {word!r} {where}", "flags",
                                code="notation.unknown_flag", params={"flag": word})
    return out


def check_counts(hand: Hand) -> None:
    """Raise :class:`NotationError` if a kind appears more than four times in the hand."""
    c = [0] * NUM_KINDS
    for t in hand.all_tiles():
        c[t] += 1
    for t, n in enumerate(c):
        if n > 4:
            raise NotationError(f"{format_tiles([t])} appears {n} times (at most 4)", "hand",
                                code="notation.too_many_tiles",
                                params={"tile": format_tiles([t]), "most": 4})
