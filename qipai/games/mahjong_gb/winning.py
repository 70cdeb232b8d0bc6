"""The win context of a scored hand: its win flags, the fans they give, and the wait fans.

:class:`WinContext` holds the facts every interpretation of one hand shares (the winning tile,
the flags after the reference calculator's corrections, the declared melds, the variants).
:func:`wait_fan` reads 边张 / 嵌张 / 单钓将 from where the winning tile sits in a split; they
count only when the concealed tiles wait on that one kind (:meth:`WinContext.single_wait`).
"""

from __future__ import annotations

from qipai.tiles.shapes import only_wait

from .fantable import (
    CLOSED_WAIT,
    EDGE_WAIT,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    OUT_WITH_REPLACEMENT_TILE,
    ROBBING_THE_KONG,
    SELF_DRAWN,
    SINGLE_WAIT,
)


class WinContext:
    """``standing_counts``: the 34 counts of the concealed tiles before the win; ``win``: the
    winning kind; ``self_drawn``, ``fourth``, ``kong``, ``last``: the corrected win flags;
    ``seat``, ``prevalent``: winds 0..3; ``fixed``: the declared melds as ``(CHOW/PUNG/KONG,
    tile, melded)`` (chows by middle tile); ``melded``: how many of them were claimed;
    ``strict``, ``separate``: the exclusion and 明暗杠 variants."""

    __slots__ = ("standing_counts", "win", "self_drawn", "fourth", "kong", "last", "seat",
                 "prevalent", "fixed", "melded", "strict", "separate", "_single")

    standing_counts: bytes
    win: int
    self_drawn: bool
    fourth: bool
    kong: bool
    last: bool
    seat: int
    prevalent: int
    fixed: list[tuple[int, int, bool]]
    melded: int
    strict: bool
    separate: bool
    _single: bool | None

    def single_wait(self) -> bool:
        """Whether the concealed tiles wait on the winning kind alone (seven pairs counted
        when no meld is declared); worked out once per hand."""
        if self._single is None:
            self._single = only_wait(self.standing_counts, self.win, seven_pairs=not self.fixed)
        return self._single


def win_flag_fans(ctx: WinContext, f: list[int]) -> None:
    """和绝张, 妙手回春 / 海底捞月, 杠上开花 / 抢杠和 and 自摸 into the full table ``f``."""
    if ctx.fourth:
        f[LAST_TILE] = 1
    if ctx.last:
        f[LAST_TILE_DRAW if ctx.self_drawn else LAST_TILE_CLAIM] = 1
    if ctx.kong:
        f[OUT_WITH_REPLACEMENT_TILE if ctx.self_drawn else ROBBING_THE_KONG] = 1
    if ctx.self_drawn:
        f[SELF_DRAWN] = 1


def wait_fan(chows, pair: int, win: int) -> int:
    """边张 if the winning tile ends one of the concealed ``chows`` (middle tiles), else 嵌张 if
    it is the middle of one, else 单钓将 if it is the ``pair``; 0 when none (the caller checks
    that the wait is single)."""
    pos = 0
    for t in chows:
        if t == win:
            pos |= 2
        elif t + 1 == win or t - 1 == win:
            pos |= 1
    if pos & 1:
        return EDGE_WAIT
    if pos & 2:
        return CLOSED_WAIT
    return SINGLE_WAIT if pair == win else 0
