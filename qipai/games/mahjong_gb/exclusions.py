"""The exclusion principles of rule file 4.2 ("not counted"), in the reference order.

:func:`exclude` removes from a split's fans the ones its counted fans imply, and
:func:`wind_fans` then adds 圈风刻 / 门风刻 for a wind pung. Fans are a sparse table: a dict
``{fan number: count}`` of nonzero counts and the int ``bits`` of the fans in it.

What the rules do depends only on which of the rules' own fans are present (a rule applies
while its fan is counted; only those fans decide it), so it is worked out once per set of them
and remembered as a *plan*: the fans to drop, the fans to set, and the change to 幺九刻.
"""

from __future__ import annotations

from typing import Final

from .fantable import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_GREEN,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED,
    HALF_FLUSH,
    LAST_TILE,
    LAST_TILE_DRAW,
    LESSER_HONORS_AND_KNITTED,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MELDED_KONG,
    MIDDLE_TILES,
    MIXED_DOUBLE_CHOW,
    NINE_GATES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SEAT_WIND,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_CONCEALED_KONGS,
    TWO_DRAGON_PUNGS,
    TWO_MELDED_KONGS,
    TWO_TERMINAL_CHOWS,
    UPPER_FOUR,
    UPPER_TILES,
)

# Each rule: (fan, fans it removes, fans it also removes under strict1998), checked in this
# order, a rule applying only while its fan is still counted (the reference's order).
_EXCLUDES: Final[tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]] = (
    (BIG_FOUR_WINDS, (BIG_THREE_WINDS, ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS), ()),
    (BIG_THREE_DRAGONS, (TWO_DRAGON_PUNGS, DRAGON_PUNG), (ONE_VOIDED_SUIT,)),
    (ALL_GREEN, (HALF_FLUSH, ONE_VOIDED_SUIT), ()),
    # also one 幺九刻 less, and 不求人 becomes 自摸 (below)
    (NINE_GATES, (FULL_FLUSH, CONCEALED_HAND, ONE_VOIDED_SUIT, NO_HONORS), ()),
    (FOUR_KONGS, (SINGLE_WAIT,), ()),
    (SEVEN_SHIFTED_PAIRS, (SEVEN_PAIRS, FULL_FLUSH, CONCEALED_HAND, ONE_VOIDED_SUIT, NO_HONORS), ()),
    (THIRTEEN_ORPHANS, (ALL_TYPES, CONCEALED_HAND, SINGLE_WAIT), ()),
    (ALL_TERMINALS, (ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS,
                     NO_HONORS, DOUBLE_PUNG), (TRIPLE_PUNG,)),
    (LITTLE_FOUR_WINDS, (BIG_THREE_WINDS, PUNG_OF_TERMINALS_OR_HONORS), ()),
    (LITTLE_THREE_DRAGONS, (TWO_DRAGON_PUNGS, DRAGON_PUNG), (ONE_VOIDED_SUIT,)),
    (ALL_HONORS, (ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS,
                  ONE_VOIDED_SUIT), ()),
    # also 不求人 becomes 自摸 (below)
    (FOUR_CONCEALED_PUNGS, (ALL_PUNGS, CONCEALED_HAND), ()),
    (PURE_TERMINAL_CHOWS, (SEVEN_PAIRS, FULL_FLUSH, ALL_CHOWS, PURE_DOUBLE_CHOW, TWO_TERMINAL_CHOWS,
                           ONE_VOIDED_SUIT, NO_HONORS), ()),
    (QUADRUPLE_CHOW, (PURE_SHIFTED_PUNGS, TILE_HOG, PURE_DOUBLE_CHOW), (ONE_VOIDED_SUIT,)),
    (FOUR_PURE_SHIFTED_PUNGS, (PURE_TRIPLE_CHOW, ALL_PUNGS), (ONE_VOIDED_SUIT,)),
    (FOUR_PURE_SHIFTED_CHOWS, (PURE_SHIFTED_CHOWS, TWO_TERMINAL_CHOWS, SHORT_STRAIGHT), (ONE_VOIDED_SUIT,)),
    (ALL_TERMINALS_AND_HONORS, (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS), ()),
    (SEVEN_PAIRS, (CONCEALED_HAND, SINGLE_WAIT), ()),
    (GREATER_HONORS_AND_KNITTED, (ALL_TYPES, CONCEALED_HAND), ()),
    (ALL_EVEN_PUNGS, (ALL_PUNGS, ALL_SIMPLES, NO_HONORS), ()),
    (FULL_FLUSH, (ONE_VOIDED_SUIT, NO_HONORS), ()),
    (PURE_TRIPLE_CHOW, (PURE_SHIFTED_PUNGS, PURE_DOUBLE_CHOW), ()),
    (PURE_SHIFTED_PUNGS, (PURE_TRIPLE_CHOW,), ()),
    (UPPER_TILES, (UPPER_FOUR, NO_HONORS), ()),
    (MIDDLE_TILES, (ALL_SIMPLES, NO_HONORS), ()),
    (LOWER_TILES, (LOWER_FOUR, NO_HONORS), ()),
    (THREE_SUITED_TERMINAL_CHOWS, (ALL_CHOWS, NO_HONORS, MIXED_DOUBLE_CHOW, TWO_TERMINAL_CHOWS), ()),
    (ALL_FIVE, (ALL_SIMPLES, NO_HONORS), ()),
    (LESSER_HONORS_AND_KNITTED, (ALL_TYPES, CONCEALED_HAND), ()),
    (UPPER_FOUR, (NO_HONORS,), ()),
    (LOWER_FOUR, (NO_HONORS,), ()),
    # also three 幺九刻 less unless 字一色 or 混幺九 already removed them (below)
    (BIG_THREE_WINDS, (), (ONE_VOIDED_SUIT,)),
    (REVERSIBLE_TILES, (ONE_VOIDED_SUIT,), ()),
    (LAST_TILE_DRAW, (SELF_DRAWN,), ()),
    (OUT_WITH_REPLACEMENT_TILE, (SELF_DRAWN,), ()),
    (ROBBING_THE_KONG, (LAST_TILE,), ()),
    (TWO_CONCEALED_KONGS, (CONCEALED_KONG,), ()),
    (HALF_FLUSH, (ONE_VOIDED_SUIT,), ()),
    (MELDED_HAND, (SINGLE_WAIT,), ()),
    (TWO_DRAGON_PUNGS, (DRAGON_PUNG,), ()),
    (FULLY_CONCEALED_HAND, (SELF_DRAWN,), ()),
    (TWO_MELDED_KONGS, (MELDED_KONG,), ()),
    (ALL_CHOWS, (NO_HONORS,), ()),
    (ALL_SIMPLES, (NO_HONORS,), ()),
)
# the rule fans, as bits
_HEADS: Final = sum(1 << fan for fan in {fan for fan, _z, _s in _EXCLUDES})

Plan = tuple[tuple[tuple[int, int], ...], bool, int]
_PLANS: Final[tuple[dict[int, Plan], dict[int, Plan]]] = ({}, {})


def _plan(heads: int, strict: bool) -> Plan:
    """What the rules do when the rule fans of ``heads`` are counted: ``(fan, count)`` for
    each fan they set (count 0: drop it), then whether 幺九刻 is dropped and what is added to
    it after that."""
    counted = {fan for fan, _z, _s in _EXCLUDES if heads >> fan & 1}
    final: dict[int, int] = {}
    reset = False
    delta = 0
    for fan, zeroed, strict_zeroed in _EXCLUDES:
        if fan not in counted:
            continue
        for z in zeroed + strict_zeroed if strict else zeroed:
            final[z] = 0
            counted.discard(z)
            if z == PUNG_OF_TERMINALS_OR_HONORS:
                reset, delta = True, 0
        if fan == NINE_GATES or fan == FOUR_CONCEALED_PUNGS:
            if fan == NINE_GATES:
                delta -= 1
            if FULLY_CONCEALED_HAND in counted:     # 不求人 becomes 自摸
                counted.discard(FULLY_CONCEALED_HAND)
                final[FULLY_CONCEALED_HAND] = 0
                final[SELF_DRAWN] = 1
        elif fan == BIG_THREE_WINDS and ALL_HONORS not in counted and ALL_TERMINALS_AND_HONORS not in counted:
            delta -= 3              # its three 幺九刻
    final.pop(PUNG_OF_TERMINALS_OR_HONORS, None)
    return tuple(final.items()), reset, delta


def exclude(counts: dict[int, int], bits: int, strict: bool) -> None:
    """Apply the rules to the sparse table ``counts`` whose fans are ``bits`` (in place; a
    count that reaches zero leaves the dict). The plan is worked out once per set of rule fans
    present (a few hundred sets occur)."""
    heads = bits & _HEADS
    plan = _PLANS[strict].get(heads)
    if plan is None:
        plan = _PLANS[strict][heads] = _plan(heads, strict)
    ops, reset, delta = plan
    for fan, n in ops:
        if n:
            counts[fan] = n
        else:
            counts.pop(fan, None)
    if reset:
        counts.pop(PUNG_OF_TERMINALS_OR_HONORS, None)
    if delta:
        _add_pung_of_terminals(counts, delta)


def _add_pung_of_terminals(counts: dict[int, int], delta: int) -> None:
    n = counts.get(PUNG_OF_TERMINALS_OR_HONORS, 0) + delta
    if n:
        counts[PUNG_OF_TERMINALS_OR_HONORS] = n
    else:
        counts.pop(PUNG_OF_TERMINALS_OR_HONORS, None)


def wind_fans(counts: dict[int, int], t: int, prevalent: int, seat: int) -> None:
    """圈风刻 / 门风刻 for a pung or kong of the wind ``t`` (after the exclusions), each taking
    back the 幺九刻 of that pung unless a wind or honor fan already did."""
    deducted = (counts.get(BIG_THREE_WINDS) or counts.get(ALL_TERMINALS_AND_HONORS)
                or counts.get(ALL_HONORS) or counts.get(LITTLE_FOUR_WINDS))
    d = t - 27
    if d == prevalent:
        counts[PREVALENT_WIND] = 1
        if not deducted:
            _add_pung_of_terminals(counts, -1)
    if d == seat:
        counts[SEAT_WIND] = 1
        if seat != prevalent and not deducted:
            _add_pung_of_terminals(counts, -1)
