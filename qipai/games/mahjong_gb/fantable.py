"""The 81 fans of Chinese Official Mahjong (rule file 4.2), plus PyMahjongGB's 明暗杠.

``FANS[n] = (Chinese name, English name, value)`` with ``n`` the standard number 1..81 (the
numbering of the rule file and of PMN records); ``MIXED_KONGS`` (82) is 明暗杠, one exposed and
one concealed kong, 5 fans, which the reference calculator scores and the 81-fan list does not.
"""

from __future__ import annotations

from typing import Final

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

# Final literal constants: the compiled build inlines them where the pure build reads a global
BIG_FOUR_WINDS: Final = 1
BIG_THREE_DRAGONS: Final = 2
ALL_GREEN: Final = 3
NINE_GATES: Final = 4
FOUR_KONGS: Final = 5
SEVEN_SHIFTED_PAIRS: Final = 6
THIRTEEN_ORPHANS: Final = 7
ALL_TERMINALS: Final = 8
LITTLE_FOUR_WINDS: Final = 9
LITTLE_THREE_DRAGONS: Final = 10
ALL_HONORS: Final = 11
FOUR_CONCEALED_PUNGS: Final = 12
PURE_TERMINAL_CHOWS: Final = 13
QUADRUPLE_CHOW: Final = 14
FOUR_PURE_SHIFTED_PUNGS: Final = 15
FOUR_PURE_SHIFTED_CHOWS: Final = 16
THREE_KONGS: Final = 17
ALL_TERMINALS_AND_HONORS: Final = 18
SEVEN_PAIRS: Final = 19
GREATER_HONORS_AND_KNITTED: Final = 20
ALL_EVEN_PUNGS: Final = 21
FULL_FLUSH: Final = 22
PURE_TRIPLE_CHOW: Final = 23
PURE_SHIFTED_PUNGS: Final = 24
UPPER_TILES: Final = 25
MIDDLE_TILES: Final = 26
LOWER_TILES: Final = 27
PURE_STRAIGHT: Final = 28
THREE_SUITED_TERMINAL_CHOWS: Final = 29
PURE_SHIFTED_CHOWS: Final = 30
ALL_FIVE: Final = 31
TRIPLE_PUNG: Final = 32
THREE_CONCEALED_PUNGS: Final = 33
LESSER_HONORS_AND_KNITTED: Final = 34
KNITTED_STRAIGHT: Final = 35
UPPER_FOUR: Final = 36
LOWER_FOUR: Final = 37
BIG_THREE_WINDS: Final = 38
MIXED_STRAIGHT: Final = 39
REVERSIBLE_TILES: Final = 40
MIXED_TRIPLE_CHOW: Final = 41
MIXED_SHIFTED_PUNGS: Final = 42
CHICKEN_HAND: Final = 43
LAST_TILE_DRAW: Final = 44
LAST_TILE_CLAIM: Final = 45
OUT_WITH_REPLACEMENT_TILE: Final = 46
ROBBING_THE_KONG: Final = 47
ALL_PUNGS: Final = 48
HALF_FLUSH: Final = 49
MIXED_SHIFTED_CHOWS: Final = 50
ALL_TYPES: Final = 51
MELDED_HAND: Final = 52
TWO_CONCEALED_KONGS: Final = 53
TWO_DRAGON_PUNGS: Final = 54
OUTSIDE_HAND: Final = 55
FULLY_CONCEALED_HAND: Final = 56
TWO_MELDED_KONGS: Final = 57
LAST_TILE: Final = 58
DRAGON_PUNG: Final = 59
PREVALENT_WIND: Final = 60
SEAT_WIND: Final = 61
CONCEALED_HAND: Final = 62
ALL_CHOWS: Final = 63
TILE_HOG: Final = 64
DOUBLE_PUNG: Final = 65
TWO_CONCEALED_PUNGS: Final = 66
CONCEALED_KONG: Final = 67
ALL_SIMPLES: Final = 68
PURE_DOUBLE_CHOW: Final = 69
MIXED_DOUBLE_CHOW: Final = 70
SHORT_STRAIGHT: Final = 71
TWO_TERMINAL_CHOWS: Final = 72
PUNG_OF_TERMINALS_OR_HONORS: Final = 73
MELDED_KONG: Final = 74
ONE_VOIDED_SUIT: Final = 75
NO_HONORS: Final = 76
EDGE_WAIT: Final = 77
CLOSED_WAIT: Final = 78
SINGLE_WAIT: Final = 79
SELF_DRAWN: Final = 80
FLOWER_TILES: Final = 81
MIXED_KONGS: Final = 82

TABLE_SIZE: Final = 83
VALUES: tuple[int, ...] = tuple([0] + [FANS[i][2] for i in range(1, TABLE_SIZE)])
BY_NAME: dict[str, int] = {v[0]: k for k, v in FANS.items()}
BY_NAME.update({v[1].lower(): k for k, v in FANS.items()})
# names the reference library prints for the three wait fans
BY_NAME.update({"独听・边张": EDGE_WAIT, "独听・嵌张": CLOSED_WAIT, "独听・单钓": SINGLE_WAIT})
