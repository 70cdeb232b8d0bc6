"""The 81 fans of Chinese Official Mahjong (rule file 4.2), plus PyMahjongGB's 明暗杠.

``FANS[n] = (Chinese name, English name, value)`` with ``n`` the standard number 1..81 (the
numbering of the rule file and of PMN records); ``MIXED_KONGS`` (82) is 明暗杠, one exposed and
one concealed kong, 5 fans, which the reference calculator scores and the 81-fan list does not.
"""

from __future__ import annotations

FANS: dict[int, tuple[str, str, int]] = {
    1: ("大四喜", "Big Four Winds", 88), 2: ("大三元", "Big Three Dragons", 88),
    3: ("绿一色", "All Green", 88), 4: ("九莲宝灯", "Nine Gates", 88), 5: ("四杠", "Four Kongs", 88),
    6: ("连七对", "Seven Shifted Pairs", 88), 7: ("十三幺", "Thirteen Orphans", 88),
    8: ("清幺九", "All Terminals", 64), 9: ("小四喜", "Little Four Winds", 64),
    10: ("小三元", "Little Three Dragons", 64), 11: ("字一色", "All Honors", 64),
    12: ("四暗刻", "Four Concealed Pungs", 64), 13: ("一色双龙会", "Pure Terminal Chows", 64),
    14: ("一色四同顺", "Quadruple Chow", 48), 15: ("一色四节高", "Four Pure Shifted Pungs", 48),
    16: ("一色四步高", "Four Pure Shifted Chows", 32), 17: ("三杠", "Three Kongs", 32),
    18: ("混幺九", "All Terminals and Honors", 32), 19: ("七对", "Seven Pairs", 24),
    20: ("七星不靠", "Greater Honors and Knitted Tiles", 24), 21: ("全双刻", "All Even Pungs", 24),
    22: ("清一色", "Full Flush", 24), 23: ("一色三同顺", "Pure Triple Chow", 24),
    24: ("一色三节高", "Pure Shifted Pungs", 24), 25: ("全大", "Upper Tiles", 24),
    26: ("全中", "Middle Tiles", 24), 27: ("全小", "Lower Tiles", 24), 28: ("清龙", "Pure Straight", 16),
    29: ("三色双龙会", "Three-Suited Terminal Chows", 16), 30: ("一色三步高", "Pure Shifted Chows", 16),
    31: ("全带五", "All Five", 16), 32: ("三同刻", "Triple Pung", 16),
    33: ("三暗刻", "Three Concealed Pungs", 16), 34: ("全不靠", "Lesser Honors and Knitted Tiles", 12),
    35: ("组合龙", "Knitted Straight", 12), 36: ("大于五", "Upper Four", 12),
    37: ("小于五", "Lower Four", 12), 38: ("三风刻", "Big Three Winds", 12),
    39: ("花龙", "Mixed Straight", 8), 40: ("推不倒", "Reversible Tiles", 8),
    41: ("三色三同顺", "Mixed Triple Chow", 8), 42: ("三色三节高", "Mixed Shifted Pungs", 8),
    43: ("无番和", "Chicken Hand", 8), 44: ("妙手回春", "Last Tile Draw", 8),
    45: ("海底捞月", "Last Tile Claim", 8), 46: ("杠上开花", "Out with Replacement Tile", 8),
    47: ("抢杠和", "Robbing the Kong", 8), 48: ("碰碰和", "All Pungs", 6), 49: ("混一色", "Half Flush", 6),
    50: ("三色三步高", "Mixed Shifted Chows", 6), 51: ("五门齐", "All Types", 6),
    52: ("全求人", "Melded Hand", 6), 53: ("双暗杠", "Two Concealed Kongs", 6),
    54: ("双箭刻", "Two Dragon Pungs", 6), 55: ("全带幺", "Outside Hand", 4),
    56: ("不求人", "Fully Concealed Hand", 4), 57: ("双明杠", "Two Melded Kongs", 4),
    58: ("和绝张", "Last Tile", 4), 59: ("箭刻", "Dragon Pung", 2), 60: ("圈风刻", "Prevalent Wind", 2),
    61: ("门风刻", "Seat Wind", 2), 62: ("门前清", "Concealed Hand", 2), 63: ("平和", "All Chows", 2),
    64: ("四归一", "Tile Hog", 2), 65: ("双同刻", "Double Pung", 2), 66: ("双暗刻", "Two Concealed Pungs", 2),
    67: ("暗杠", "Concealed Kong", 2), 68: ("断幺", "All Simples", 2), 69: ("一般高", "Pure Double Chow", 1),
    70: ("喜相逢", "Mixed Double Chow", 1), 71: ("连六", "Short Straight", 1),
    72: ("老少副", "Two Terminal Chows", 1), 73: ("幺九刻", "Pung of Terminals or Honors", 1),
    74: ("明杠", "Melded Kong", 1), 75: ("缺一门", "One Voided Suit", 1), 76: ("无字", "No Honors", 1),
    77: ("边张", "Edge Wait", 1), 78: ("嵌张", "Closed Wait", 1), 79: ("单钓将", "Single Wait", 1),
    80: ("自摸", "Self-Drawn", 1), 81: ("花牌", "Flower Tiles", 1),
    82: ("明暗杠", "Concealed Kong and Melded Kong", 5),
}

(BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES, FOUR_KONGS, SEVEN_SHIFTED_PAIRS,
 THIRTEEN_ORPHANS, ALL_TERMINALS, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, ALL_HONORS,
 FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS, QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS,
 FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS, SEVEN_PAIRS,
 GREATER_HONORS_AND_KNITTED, ALL_EVEN_PUNGS, FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS,
 UPPER_TILES, MIDDLE_TILES, LOWER_TILES, PURE_STRAIGHT, THREE_SUITED_TERMINAL_CHOWS,
 PURE_SHIFTED_CHOWS, ALL_FIVE, TRIPLE_PUNG, THREE_CONCEALED_PUNGS, LESSER_HONORS_AND_KNITTED,
 KNITTED_STRAIGHT, UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS, MIXED_STRAIGHT, REVERSIBLE_TILES,
 MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS, CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM,
 OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG, ALL_PUNGS, HALF_FLUSH, MIXED_SHIFTED_CHOWS, ALL_TYPES,
 MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGON_PUNGS, OUTSIDE_HAND, FULLY_CONCEALED_HAND,
 TWO_MELDED_KONGS, LAST_TILE, DRAGON_PUNG, PREVALENT_WIND, SEAT_WIND, CONCEALED_HAND, ALL_CHOWS,
 TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS, CONCEALED_KONG, ALL_SIMPLES, PURE_DOUBLE_CHOW,
 MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS, PUNG_OF_TERMINALS_OR_HONORS, MELDED_KONG,
 ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, SELF_DRAWN, FLOWER_TILES,
 MIXED_KONGS) = range(1, 83)

TABLE_SIZE = 83
VALUES: tuple[int, ...] = tuple([0] + [FANS[i][2] for i in range(1, TABLE_SIZE)])
BY_NAME: dict[str, int] = {v[0]: k for k, v in FANS.items()}
BY_NAME.update({v[1].lower(): k for k, v in FANS.items()})
# names the reference library prints for the three wait fans
BY_NAME.update({"独听・边张": EDGE_WAIT, "独听・嵌张": CLOSED_WAIT, "独听・单钓": SINGLE_WAIT})
