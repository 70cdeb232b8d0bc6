"""The fan calculator of Chinese Official Mahjong (rule file sections 3 and 4).

:func:`calculate` takes a :class:`qipai.tiles.Hand` (concealed tiles, melds, winning tile and
the win flags) and returns a :class:`FanResult`: the fans with their values and counts, and the
totals with and without flowers. It scores every interpretation of the hand — each split into
sets and a pair, seven pairs, thirteen orphans, honors and knitted tiles, knitted straight with
a set and a pair — applies the exclusion principles (non-repeat through the "not counted"
table, non-separation by scoring one split at a time, non-identical and account-once through
the set-combination rules of 4.3) and keeps the highest total, the first one found in a fixed
order on ties. Exclusions follow PyMahjongGB 1.4.0 by default; ``exclusions="strict1998"`` and
``mixed_kongs="separate"`` give the variants of rule file 4.6.

A split is scored by whole groups of packs: the hand's splits come from tables by suit pattern
(:mod:`.splits`), the fans of its chows, of its pungs and of its kong counts from tables by
group (:mod:`.combos`), the fans of its tiles from a table by kind mask (:mod:`.tilefans`),
and the exclusions from a plan per set of fans present (:mod:`.exclusions`).

Errors: :class:`NotWinning` (a :class:`~qipai.core.errors.QipaiError`) when the tiles form no
winning hand; :class:`~qipai.core.errors.NotationError` for a malformed hand line or a kind held
more than four times.
"""

from __future__ import annotations

from typing import Final, NamedTuple, cast

from qipai.core.errors import NotationError, QipaiError
from qipai.tiles.meld import CHOW as M_CHOW
from qipai.tiles.meld import PUNG as M_PUNG
from qipai.tiles.notation import Hand, check_counts, parse_hand
from qipai.tiles.shapes import CHOW, KONG, PUNG
from qipai.tiles.tile import format_tiles

from .combos import (
    CHOW_KEY,
    CHOWS_BY_KEY,
    KONG_FANS,
    PUNG_KEY,
    PUNG_TRAIT,
    PUNGS_BY_KEY,
    chow_entry_by_key,
    kong_index,
    pung_entry_by_key,
    terminal_chows,
)
from .exclusions import exclude, wind_fans
from .fantable import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CONCEALED_HAND,
    FANS,
    FLOWER_TILES,
    FOUR_KONGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    MELDED_HAND,
    MIXED_KONGS,
    NINE_GATES,
    OUTSIDE_HAND,
    PURE_TRIPLE_CHOW,
    SEVEN_PAIRS,
    TABLE_SIZE,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_DRAGON_PUNGS,
    VALUES,
)
from .special import knitted_straight, special
from .splits import EVEN, OVER, SINGLES, Split, read
from .tilefans import BIT, DRAGON, HONOR_MASK, KNITTED_MASKS, TERM_HONOR_MASK, WIND, sparse, tile_fans
from .winning import WinContext, wait_fan, win_flag_fans


class NotWinning(QipaiError):
    """The tiles do not form a winning hand (no standard or special shape)."""


class FanResult(NamedTuple):
    """The scored hand: ``fans`` is a list of ``(fan number, count)`` in standard order
    (numbers of rule file 4.2; 82 = 明暗杠), ``total`` includes the flowers, ``base_total``
    does not (the 8-fan minimum is checked on it)."""

    fans: tuple[tuple[int, int], ...]
    total: int
    base_total: int

    def items(self) -> list[tuple[str, int, int]]:
        """``(Chinese name, value, count)`` for each fan."""
        return [(FANS[n][0], FANS[n][2], c) for n, c in self.fans]

    def describe(self, english: bool = False) -> str:
        parts = []
        for n, c in self.fans:
            name = FANS[n][1] if english else FANS[n][0]
            parts.append(f"{name} {FANS[n][2]}" + (f" ×{c}" if c > 1 else ""))
        return ", ".join(parts) + f" — total {self.total}"

    def to_json(self) -> dict:
        return {"fans": [{"no": n, "name": FANS[n][0], "en": FANS[n][1], "value": FANS[n][2], "count": c}
                         for n, c in self.fans],
                "total": self.total, "base_total": self.base_total}




# ----- one split -------------------------------------------------------------------------------
# What every split of one hand shares: the win context, the fans of its tiles and win flags
# (``base``, ``base_bits``), and its declared sets: their chow middles, the keys of their chows
# and of their pungs and kongs in the group tables, how many pungs and kongs, and the place of
# their kongs in the kong table (:func:`.combos.kong_index`); last, the kong table of its
# variant. A plain tuple of fixed length, which compiled code passes as a C struct.
_Hand = tuple[WinContext, dict[int, int], int, tuple[int, ...], int, int, int, int,
              tuple[tuple[dict[int, int], int], ...]]


_TRAIT_FAN: Final = {1: OUTSIDE_HAND, 2: ALL_FIVE, 4: ALL_EVEN_PUNGS}
# no wait fan is scored with these
_NO_WAIT: Final = (1 << MELDED_HAND) | (1 << FOUR_KONGS)
# the fans' values by number (a name of this module, which compiled code reads as a C static)
_VALUES: Final = VALUES


def _score(split: Split, h: _Hand) -> tuple[dict[int, int], int]:
    """The fans of one split after the exclusions, ``{fan number: count}`` (4.3 steps 3-6),
    and their total."""
    chows_c, pungs_c, pair, chows_key, pungs_key = split
    ctx, base, base_bits, fixed_chows, fixed_chows_key, fixed_pungs_key, fixed_pungs, kongs_at, \
        kong_table = h
    win = ctx.win
    # a pung completed by a discard counts as melded, unless a concealed chow takes the tile
    concealed_pungs = len(pungs_c)
    if concealed_pungs and not ctx.self_drawn and win in pungs_c and not any(
            t - 1 <= win <= t + 1 for t in chows_c):
        concealed_pungs -= 1
    kong_counts, kong_bits = kong_table[kongs_at + 5 * concealed_pungs + len(pungs_c) + fixed_pungs]
    chows_key += fixed_chows_key
    pungs_key += fixed_pungs_key
    chow_pairs, chow_bits, chow_trait, terminal = (CHOWS_BY_KEY.get(chows_key)
                                                   or chow_entry_by_key(chows_key))
    pung_pairs, pung_bits, pung_trait, winds, pair_fan = (PUNGS_BY_KEY.get(pungs_key)
                                                          or pung_entry_by_key(pungs_key))
    counts = base.copy()
    if pung_pairs:
        counts.update(pung_pairs)
    if kong_counts:
        counts.update(kong_counts)
    bits = base_bits | kong_bits | pung_bits
    fan = terminal_chows(chows_c + fixed_chows, pair) if terminal else 0
    if fan:
        counts[fan] = 1
        bits |= 1 << fan
    elif chow_bits:
        counts.update(chow_pairs)
        bits |= chow_bits
    # the fans the pair decides
    if len(chows_c) + len(fixed_chows) == 4:
        if pair < 27:
            counts[ALL_CHOWS] = 1
            bits |= 1 << ALL_CHOWS
    elif pair_fan == 1:
        if DRAGON[pair]:
            del counts[TWO_DRAGON_PUNGS]
            counts[LITTLE_THREE_DRAGONS] = 1
            bits ^= (1 << TWO_DRAGON_PUNGS) | (1 << LITTLE_THREE_DRAGONS)
    elif pair_fan == 2:
        if WIND[pair]:
            del counts[BIG_THREE_WINDS]
            counts[LITTLE_FOUR_WINDS] = 1
            bits ^= (1 << BIG_THREE_WINDS) | (1 << LITTLE_FOUR_WINDS)
    trait = chow_trait & pung_trait & PUNG_TRAIT[pair]
    if trait:
        fan = _TRAIT_FAN[trait]
        counts[fan] = 1
        bits |= 1 << fan
    if not bits & _NO_WAIT:
        fan = wait_fan(chows_c, pair, win)
        if fan and ctx.single_wait():
            counts[fan] = 1
            bits |= 1 << fan
    exclude(counts, bits, ctx.strict)
    if winds and BIG_FOUR_WINDS not in counts:
        for t in winds:
            wind_fans(counts, t, ctx.prevalent, ctx.seat)
    if not counts:
        counts[CHICKEN_HAND] = 1
    return counts, _total(counts)


def _nine_gates(c: bytes) -> bool:
    for s in (0, 9, 18):
        if c[s] == 3 and c[s + 8] == 3 and all(c[s + i] == 1 for i in range(1, 8)):
            return True
    return False


def _total(counts: dict[int, int]) -> int:
    """The fans' total: each fan's value times its count."""
    total = 0
    for fan, n in counts.items():
        total += _VALUES[fan] * n
    return total


# the fans of the win flags and concealment, by (fourth, last, kong, self-drawn, claimed sets)
_FLAG_FANS: Final[dict[tuple[bool, bool, bool, bool, int], tuple[dict[int, int], int]]] = {}


def _base(ctx: WinContext, m: int, whole: bytes | bytearray, kongs: int) -> tuple[dict[int, int], int]:
    """The fans every split of the hand shares: win flags, concealment, 九莲宝灯, the tiles'
    fans and 四归一, as a sparse table."""
    key = (ctx.fourth, ctx.last, ctx.kong, ctx.self_drawn, ctx.melded)
    flags = _FLAG_FANS.get(key)
    if flags is None:
        f = [0] * TABLE_SIZE
        win_flag_fans(ctx, f)
        if ctx.melded == 0:
            f[FULLY_CONCEALED_HAND if ctx.self_drawn else CONCEALED_HAND] = 1
        elif ctx.melded == 4 and not ctx.self_drawn:
            f[MELDED_HAND] = 1
        flags = _FLAG_FANS[key] = sparse(f)
    counts, bits = tile_fans(m)
    counts.update(flags[0])
    bits |= flags[1]
    # 九莲宝灯 is one suit, concealed: only then is 清一色 with no meld worth the look
    if ctx.melded == 0 and FULL_FLUSH in counts and _nine_gates(ctx.standing_counts):
        counts[NINE_GATES] = 1
        bits |= 1 << NINE_GATES
    hog = whole.count(4) - kongs
    if hog:
        counts[TILE_HOG] = hog
        bits |= 1 << TILE_HOG
    return counts, bits


# ----- entry points ----------------------------------------------------------------------------
def fan_table(hand: Hand, *, exclusions: str = "pymahjonggb",
              mixed_kongs: str = "combined") -> list[int] | None:
    """The fan counts (index = fan number) of the best interpretation, flowers not included;
    ``None`` when the hand is not a winning shape. ``hand.win`` must be set."""
    counts = _best(hand, exclusions, mixed_kongs)[0]
    if counts is None:
        return None
    f = [0] * TABLE_SIZE
    for i, n in counts.items():
        f[i] = n
    return f


def winning_shape(c14: bytes, sets: int) -> bool:
    """Whether the 34 counts ``c14`` (the concealed tiles with the winning tile) of a hand
    with ``sets`` declared sets may be a winning shape: ``False`` only when :func:`fan_table`
    gives ``None`` for every such hand (no standard split, and the gates of :func:`_best` to
    knitted straight and the special shapes closed). A referee checks it before building the
    :class:`Hand` it would score: most tiles win nothing."""
    found, m14, shape = read(c14)
    if found:
        return True
    if sets > 1:
        return False
    if (m14 & ~HONOR_MASK).bit_count() >= 9 and any(m14 & k == k for k in KNITTED_MASKS):
        return True
    return not sets and bool(shape & (SINGLES | EVEN) or not m14 & ~TERM_HONOR_MASK)


def _best(hand: Hand, exclusions: str, mixed_kongs: str) -> tuple[dict[int, int] | None, int]:
    """(fan counts ``{fan number: count}``, their total without flowers) of the best
    interpretation; ``(None, 0)`` when the hand is not a winning shape."""
    win = hand.win
    if win is None:
        raise NotationError("the hand has no winning tile", "hand",
                            code="notation.no_winning_tile")
    counts = bytearray(34)
    for t in hand.concealed:
        counts[t] += 1
    standing_counts = bytes(counts)
    counts[win] += 1
    c14 = bytes(counts)
    found, m14, shape = read(c14)   # the splits, the kinds held (as a mask) and the shape flags
    m = m14                          # with the declared sets' kinds
    kongs = melded = melded_kongs = 0
    fixed: list[tuple[int, int, bool]] = []
    fixed_chows: list[int] = []
    fixed_pungs = fixed_chows_key = fixed_pungs_key = 0   # declared pungs and kongs; group keys
    melds = hand.melds
    if melds:
        whole: bytes | bytearray = counts   # the counts with the declared sets' tiles, added below
        for mld in melds:
            kind, t = mld.kind, mld.tile
            if kind == M_CHOW:
                fixed.append((CHOW, t + 1, True))
                fixed_chows.append(t + 1)
                fixed_chows_key += CHOW_KEY[t + 1]
                counts[t] += 1
                counts[t + 1] += 1
                counts[t + 2] += 1
                m |= BIT[t] | BIT[t + 1] | BIT[t + 2]
                melded += 1
            else:
                fixed_pungs += 1
                fixed_pungs_key += PUNG_KEY[t]
                m |= BIT[t]
                if kind == M_PUNG:
                    fixed.append((PUNG, t, True))
                    counts[t] += 3
                    melded += 1
                else:
                    fixed.append((KONG, t, not mld.concealed))
                    counts[t] += 4
                    kongs += 1
                    if not mld.concealed:
                        melded += 1
                        melded_kongs += 1
        over: int = len(whole.translate(None, _UP_TO_FOUR))   # a count above four
    else:
        whole = c14
        over = shape & OVER
    if over:
        check_counts(hand)   # raises NotationError naming a kind held more than four times
    # win-flag corrections, as the reference does
    fourth = hand.fourth
    in_standing = standing_counts[win] > 0
    in_fixed = whole[win] - c14[win]
    if in_standing:
        fourth = False
    if in_fixed == 3:
        fourth = True
    self_drawn = hand.self_drawn
    kong = hand.kong
    if kong:
        if self_drawn:
            if not kongs:
                kong = False
        elif in_fixed or in_standing:
            kong = False
    ctx = WinContext()
    ctx.standing_counts = standing_counts
    ctx.win = win
    ctx.self_drawn = self_drawn
    ctx.fourth = fourth
    ctx.kong = kong
    ctx.last = hand.last
    ctx.seat = hand.seat_wind
    ctx.prevalent = hand.round_wind
    ctx.fixed = fixed
    ctx.melded = melded
    ctx.strict = exclusions == "strict1998"
    ctx.separate = mixed_kongs == "separate"
    ctx._single = None

    best: dict[int, int] | None = None
    best_total = 0
    if len(fixed) <= 1:
        if (m14 & ~HONOR_MASK).bit_count() >= 9 and any(m14 & k == k for k in KNITTED_MASKS):
            best = knitted_straight(c14, ctx, m14)
        if best is None and not fixed and (shape & (SINGLES | EVEN) or not m & ~TERM_HONOR_MASK):
            best = special(c14, ctx, m14)
        if best is not None:
            best_total = _total(best)
    seven_pairs = best is not None and SEVEN_PAIRS in best
    if found and (best is None or seven_pairs):
        base, base_bits = _base(ctx, m, whole, kongs)
        h: _Hand = (ctx, base, base_bits, tuple(fixed_chows), fixed_chows_key, fixed_pungs_key,
                     fixed_pungs,
                     kong_index(melded_kongs, kongs - melded_kongs, 0, 0), KONG_FANS[ctx.separate])
        for sp in found:
            f, total = _score(sp, h)
            if total > best_total:
                best, best_total = f, total
            elif total == best_total and (PURE_TRIPLE_CHOW in f or TRIPLE_PUNG in f or seven_pairs):
                best = f   # the reference prefers these readings on a tie
    return best, best_total


def calculate(hand: Hand | str, *, exclusions: str = "pymahjonggb",
              mixed_kongs: str = "combined") -> FanResult:
    """Score a winning hand (a :class:`Hand` or its one-line text).

    Returns the best interpretation's fans (rule file 4.2-4.3) with ``花牌`` added for the
    flowers. Raises :class:`NotWinning` when the tiles are not a winning shape and
    :class:`NotationError` for malformed text or impossible counts.
    """
    if isinstance(hand, str):
        hand = parse_hand(hand)
    else:
        if len(hand.concealed) != 13 - 3 * len(hand.melds):
            raise NotationError(f"{len(hand.melds)} melds need {13 - 3 * len(hand.melds)} concealed tiles, "
                                f"got {len(hand.concealed)}", "hand",
                                code="notation.hand_size",
                                params={"melds": len(hand.melds), "want": 13 - 3 * len(hand.melds),
                                        "got": len(hand.concealed)})
    f, base_total = _best(hand, exclusions, mixed_kongs)
    if f is None:
        shown = " ".join([format_tiles(hand.concealed)] + [str(m) for m in hand.melds])
        raise NotWinning(f"not a winning hand: {shown} + {format_tiles([cast(int, hand.win)])}")
    fans = sorted(f.items())
    flowers = hand.flowers
    if flowers:
        fans.append((FLOWER_TILES, flowers))
    if MIXED_KONGS in f:
        fans.sort(key=lambda x: _DISPLAY_ORDER[x[0]])
    return _new(FanResult, (tuple(fans), base_total + flowers, base_total))


# the counts 0..4, which bytes.translate deletes to leave the counts above four
_UP_TO_FOUR: Final = bytes(range(5))

# a FanResult from the tuple of its fields (twice as fast as its constructor's argument handling)
_new: Final = tuple.__new__


# 明暗杠 (82) is listed after 双暗杠 (53), where its value places it
_DISPLAY_ORDER: Final = {i: (53.5 if i == MIXED_KONGS else i) for i in range(TABLE_SIZE)}
