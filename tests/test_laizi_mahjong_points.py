"""Point counting of laizi mahjong: every edge case of rules/laizi-mahjong.md section 8, the
seed's worked examples and correction lines (section 4.6), every option that changes points,
and the wildcard search checked against trying every reading of the wildcards."""

from __future__ import annotations

import itertools
import random

import pytest

from qipai.core.errors import NotationError
from qipai.games.laizi_mahjong.points import (
    best_base,
    hand_text,
    money,
    parse_laizi_hand,
    payments,
    score,
    successor,
)
from qipai.tiles.meld import CHOW
from qipai.tiles.tile import NUM_KINDS, parse_tile

# (case, hand line, pattern, hard, doublings in the rule file's order, P, payments as
#  [winner, discarder or None, other]) -- rules/laizi-mahjong.md section 8
CASES = [
    (2, "234m 567p 789s 11s EE + E | ind=3p pihu", "屁胡", True, ["硬糊", "门前清"], 4, (5, 5)),
    (3, "234m 567m 99m EE [789m] + E | ind=5p", "奏一色", True, ["硬糊"], 2, (5, 5)),
    (4, "234m 567m 9m 6p EE [789m] + E | ind=5p", "奏一色", False, [], 1, (5, 5)),
    (5, "123m 456m 789m 22m 33m + 3m | ind=9p tsumo", "清一色", True, ["硬糊", "自摸", "门前清"], 16, (10,)),
    (6, "123m 456m 789m 22m 3m 9p + 3m | ind=8p tsumo", "清一色", False, ["自摸", "门前清"], 8, (5,)),
    (7, "EEESWNCFPSWNC + F | ind=9m", "风一色", True, ["硬糊", "门前清"], 8, (10, 5)),
    (8, "258m 258p 2s 5s 8s 2m [888p] + 5p | ind=E", "将一色", True, ["硬糊"], 4, (5, 5)),
    (9, "111m 99p 55s [222s] [EEE] + 9p | ind=7m", "碰碰糊", True, ["硬糊"], 4, (5, 5)),
    (10, "11m 33p 55s 77m 99p EE 4s + 2m | ind=3s", "七对", False, ["门前清"], 4, (5, 5)),
    (11, "111m 333m 99m EE [777m] + E | ind=5p", "奏碰碰", True, ["硬糊"], 8, (10, 5)),
    (12, "11m 33m 55m 77m 99m EE 6s + 3m | ind=5s", "奏七对", False, ["门前清"], 8, (10, 5)),
    (13, "111m 333m 555m 77m 99m + 9m | ind=4p", "清碰", True, ["硬糊", "门前清"], 32, (20, 15)),
    (14, "222m 555p 88s 2s 7p [888m] + 2s | ind=6p", "将碰", False, [], 8, (10, 5)),
    (15, "EEE SS CC [PPP] [NNN] + S | ind=9m tsumo", "风碰", True, ["硬糊", "自摸"], 32, (15,)),
    (16, "5p [123m] [456m] [789m] [EEEE] + 9m | ind=4p", "奏一色", False, ["全求人", "明杠"], 4, (5, 5)),
    (17, "(5555s) 123s 678s 789s 9s + 9s | ind=1m", "清一色", True, ["硬糊", "门前清", "暗杠"], 32, (20, 15)),
    (18, "123m 456m 789m 11m EE + E | ind=3p last", "奏一色", True, ["硬糊", "自摸", "海捞", "门前清"], 16,
     (10,)),
    (19, "123p 456p 78p 99p [EEEE] + 9p | ind=2s bloom", "奏一色", True, ["硬糊", "自摸", "杠开", "明杠"], 16,
     (10,)),
    (20, "123m 4m 5p EE [7777m] [9999m] + 6m | ind=4p peel=3 lzk=2 bloom", "奏一色", False,
     ["自摸", "杠开", "明杠", "明杠", "皮子杠", "皮子杠", "皮子杠", "赖子杠", "赖子杠"], 512, (35,)),
    (21, "5p [1111m] [2222p] [3333s] [7777m] + 9m | ind=4p peel=2 tsumo", "碰碰糊", False,
     ["自摸", "明杠", "明杠", "明杠", "明杠", "皮子杠", "皮子杠"], 256, (30,)),
    (22, "234m 678m 9m [1111m] [5555m] + 9m | ind=4p peel=2 bloom", "清一色", True,
     ["硬糊", "自摸", "杠开", "明杠", "明杠", "皮子杠", "皮子杠"], 256, (30,)),
    (23, "5p [1111m] [2222m] [3333m] [EEEE] + 9m | ind=4p peel=1", "奏碰碰", False,
     ["全求人", "明杠", "明杠", "明杠", "明杠", "皮子杠"], 256, (35, 30)),
    (24, "11m 33m 55m 77m 99m EE 6s + 3m | ind=5s peel=3 bloom", "奏七对", False,
     ["自摸", "杠开", "门前清", "皮子杠", "皮子杠", "皮子杠"], 256, (30,)),
    (25, "234m 567m 789m 55m 9m 1m + 5m | ind=9m tsumo", "清一色", False, ["自摸", "门前清"], 8, (5,)),
]


@pytest.mark.parametrize("case", CASES, ids=[f"case{c[0]}" for c in CASES])
def test_section_8_edge_cases(case):
    _, line, pattern, hard, doublings, points, pays = case
    hand = parse_laizi_hand(line)
    s = score(hand)
    assert (s.pattern, s.hard, s.points) == (pattern, hard, points)
    assert sorted(d["name"] for d in s.to_json()["doublings"]) == sorted(doublings)
    if hand.self_drawn:
        assert payments(points, 0, None) == [3 * pays[0], -pays[0], -pays[0], -pays[0]]
    else:
        # the discarder pays money(2P), each other seat money(P)
        assert payments(points, 0, 1) == [pays[0] + 2 * pays[1], -pays[0], -pays[1], -pays[1]]


def test_case_1_a_plain_hand_is_not_a_win_without_pihu():
    assert score(parse_laizi_hand("234m 567p 789s 11s EE + E | ind=3p")) is None
    # the option allow_pihu makes the same hand a win (case 2)
    assert score(parse_laizi_hand("234m 567p 789s 11s EE + E | ind=3p"), allow_pihu=True).points == 4


def test_case_24_is_seed_example_5_and_case_12_its_laizi():
    # case 12 and 24 are the same hand: three peel kongs and 杠开 take 8 to 256
    assert score(parse_laizi_hand(CASES[10][1])).points * 32 == score(parse_laizi_hand(CASES[22][1])).points


# ----- the seed's worked examples (section 4.6) -------------------------------------------------
def test_seed_example_4_the_discarder_pays_double_points():
    # 奏碰碰 soft, 5 kongs, 全求人, on a discard: P = 256 -> 30; the discarder's 2P = 512 -> 35
    s = score(parse_laizi_hand("5p [1111m] [2222m] [3333m] [EEEE] + 9m | ind=4p peel=1"))
    assert s.points == 256 and money(256) == 30 and money(512) == 35
    assert payments(256, 2, 3) == [-30, -30, 95, -35]
    # read literally (点炮 ×2 inside P) the seed's 30 would be 35: the rule file's reading is kept
    assert money(2 * s.points) != 30


def test_seed_example_6_qing_peng_with_four_kongs_is_capped():
    # 清碰 soft, 4 kongs, 自摸, 杠开, 海底捞: 8 × 2⁴ × 2 × 2 × 2 = 1024 (open hand) -> 35 capped
    s = score(parse_laizi_hand("5p [2222m] [3333m] [5555m] [7777m] + 9m | ind=4p bloom last"))
    assert (s.pattern, s.hard, s.points) == ("清碰", False, 1024)
    assert money(s.points) == 35


# the seed's six "correct algorithm" lines a-f: one kong each, 杠上开花 (self-drawn)
LINES = [
    ("a", "123m 456m 7m 5p EE [CCCC] + 9m | ind=4p bloom", "奏一色", 8),
    ("b", "234m 567m 7m 5p 99m [1111m] + 9m | ind=4p bloom", "清一色", 16),
    ("c", "111m 222p 33s 5p 9s [EEEE] + 9s | ind=4p bloom", "碰碰糊", 16),
    ("d", "11m 33p 55s 77m 99p EE 4s + 2m | ind=3s peel=1 bloom", "七对", 32),
    ("e", "11m 33m 55m 77m 99m EE 6s + 3m | ind=5s peel=1 bloom", "奏七对", 64),
]


@pytest.mark.parametrize("line", LINES, ids=[x[0] for x in LINES])
def test_seed_correction_lines(line):
    _, text, pattern, points = line
    s = score(parse_laizi_hand(text))
    assert (s.pattern, s.points) == (pattern, points)


def test_seed_correction_line_f_uses_the_table_value_of_qing_peng():
    # line f says 清碰 杠上开花 = 64 with 清碰 = 4; the table (and the product rule) say 清碰 = 8,
    # so the same hand counts 128 here (rule file 4.6, item ii)
    s = score(parse_laizi_hand("111m 333m 555m 77m 99m + 9m | ind=5s peel=1 bloom"))
    assert (s.pattern, s.base, s.points) == ("清碰", 8, 8 * 16 * 2)
    s = score(parse_laizi_hand("111m 333m 55m 6s 77m 99m + 9m | ind=5s peel=1 bloom"))
    assert (s.pattern, s.hard, s.points) == ("清碰", False, 128)


# ----- options that change points ---------------------------------------------------------------
def test_option_concealed_bonus():
    hand = parse_laizi_hand("11m 33m 55m 77m 99m EE 6s + 3m | ind=5s")
    assert score(hand).points == 8
    assert score(hand, concealed_bonus=False).points == 4


def test_option_laizi_kong_factor():
    hand = parse_laizi_hand("123m 4m 5p EE [7777m] [9999m] + 6m | ind=4p peel=3 lzk=2 bloom")
    assert score(hand).points == 512
    assert score(hand, laizi_kong_factor=4).points == 2048


def test_option_extrapolated_pairs_combos():
    qing = parse_laizi_hand("11m 22m 33m 55m 66m 88m 9m + 9m | ind=E")
    jiang = parse_laizi_hand("22m 55m 88m 22p 55p 88s 2s + 2s | ind=E")
    feng = parse_laizi_hand("EE SS WW NN CC FF P + P | ind=9m")
    for hand, name in ((qing, "清七对"), (jiang, "将七对"), (feng, "风七对")):
        assert (score(hand).pattern, score(hand).base) == (name, 8)
        other = score(hand, extrapolated_pairs_combos=False)
        assert other.base == 2
    # 奏七对 is a seed row: unchanged
    hun = parse_laizi_hand("11m 33m 55m 77m 99m EE 3m + 3m | ind=5s")
    assert score(hun, extrapolated_pairs_combos=False).base == 4


def test_options_discard_payers_and_money_bands():
    assert payments(256, 2, 3, discard_payers="discarder") == [0, 0, 35, -35]
    assert payments(4, 0, 1) == [15, -5, -5, -5]
    assert payments(4, 0, 1, floor=0) == [5, -5, 0, 0]      # 2P = 8 -> 5, P = 4 -> 0
    assert payments(1024, 0, None, cap=40) == [120, -40, -40, -40]
    assert [money(2 ** k) for k in range(11)] == [5, 5, 5, 5, 10, 15, 20, 25, 30, 35, 35]


# ----- the wildcard and the indicator -----------------------------------------------------------
def test_successor_cycles():
    pairs = {"1m": "2m", "9m": "1m", "9p": "1p", "5s": "6s", "E": "S", "N": "E", "W": "N", "C": "F", "P": "C"}
    for ind, laizi in pairs.items():
        assert successor(parse_tile(ind)) == parse_tile(laizi)


def test_a_laizi_may_stand_for_a_fifth_copy():
    # four 1m held, the laizi (2m) makes a fifth: 11111m can only be 111m + 11m (pair) reading
    hand = parse_laizi_hand("1111m 345m 678m EE 2m + E | ind=1m")
    s = score(hand)
    assert s is not None and s.pattern == "奏一色" and not s.hard


def test_hard_when_the_identity_reading_is_at_least_half():
    # the laizi 3m stands for itself in 123m: hard 清一色 2 beats soft (nothing better than 2)
    s = score(parse_laizi_hand("123m 456m 789m 11m 99m + 9m | ind=2m"))
    assert s.hard and s.points == 2 * 2 * 2
    # the laizi 6p pairs with 9m for 奏碰碰 soft 4; as itself only 奏... nothing: soft
    s = score(parse_laizi_hand("111m 333m 9m 6p EE [777m] + E | ind=5p"))
    assert not s.hard and s.base == 4 and s.hard_base == 0


def test_a_tie_of_soft_and_twice_hard_is_hard():
    # the laizi 3p as themselves: 碰碰糊 2; as 777m: 奏碰碰 4 = 2 × 2, reported hard
    s = score(parse_laizi_hand("111m 555m 333p 99m EE + 9m | ind=2p"))
    assert (s.soft_base, s.hard_base, s.hard, s.pattern, s.points) == (4, 2, True, "碰碰糊", 2 * 2 * 2)
    # as 333m they make 清碰 8 > 2 × 2: soft
    s = score(parse_laizi_hand("111m 555m 333p 99m 77m + 7m | ind=2p"))
    assert (s.soft_base, s.hard_base, s.hard, s.pattern) == (8, 2, False, "清碰")


def test_notation_round_trips_and_faults():
    for case in CASES:
        hand = parse_laizi_hand(case[1])
        assert parse_laizi_hand(hand_text(hand)) == hand
        assert parse_laizi_hand(hand_text(hand)).extra == hand.extra
    for bad in ("123m + 1m", "234m 567m 99m EE [789m] + E", "234m 567m 99m EE [789m] + E | ind=5p peel=9",
                "234m 567m 99m EE [789m] + E | ind=XX", "234m 567m 99m EE [789m] + E | ind=5p flowers=1"):
        with pytest.raises(NotationError):
            parse_laizi_hand(bad)


# ----- the wildcard search against every reading ------------------------------------------------
def _splits(c, pair_left):
    """The ways the counts split into sets and one pair (any number of copies of a kind): a
    set of flags, True for a split with a chow."""
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return set() if pair_left else {False}
    out = set()
    for size, is_pair in ((3, False), (2, True)):
        if c[i] >= size and (pair_left or not is_pair):
            c[i] -= size
            out |= _splits(c, pair_left and not is_pair)
            c[i] += size
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        out |= {True for _ in _splits(c, pair_left)}
        for k in (i, i + 1, i + 2):
            c[k] += 1
    return out


def _concrete_base(counts, melds, pihu=False):
    """Base of a hand without wildcards, from the definitions of section 3 (no search)."""
    tiles = [t for t in range(NUM_KINDS) for _ in range(counts[t])] + [t for m in melds for t in m.tiles]
    suits = {t // 9 for t in tiles if t < 27}
    honors = any(t >= 27 for t in tiles)
    splits = _splits(list(counts), True)
    standard = bool(splits)
    pengpeng = False in splits and all(m.kind != CHOW for m in melds)
    qidui = not melds and all(n % 2 == 0 for n in counts)
    colours = []
    if len(suits) == 1 and honors and (standard or qidui):
        colours.append(1)
    if len(suits) == 1 and not honors and (standard or qidui):
        colours.append(2)
    if not suits:
        colours.append(2)
    if all(t < 27 and t % 9 in (1, 4, 7) for t in tiles):
        colours.append(2)
    shapes = [2] if pengpeng or qidui else []
    best = 1 if pihu and standard else 0
    for c in colours or [None]:
        for s in shapes or [None]:
            if c is None and s is None:
                continue
            best = max(best, c * s * 2 if c and s else (c or s))
    # a colour pattern that needs no shape may still pair with a shape it does not need
    return best


def _random_hand(rng, pool, jokers):
    counts = [0] * NUM_KINDS
    for t in rng.sample(pool, 14 - jokers):
        counts[t] += 1
    return counts


def _near_win(rng, jokers):
    """A complete hand of mostly one suit and honours, ``jokers`` of its tiles taken out (the
    wildcards stand there), sometimes one more tile changed so that it may no longer win."""
    suit = rng.randrange(3)
    kinds = [suit * 9 + r for r in range(9)] + list(range(27, 34))
    if rng.random() < 0.3:
        kinds += [((suit + 1) % 3) * 9 + r for r in range(9)]
    tiles = []
    pairs = rng.random() < 0.3
    for _ in range(7 if pairs else 4):
        t = rng.choice(kinds)
        if pairs:
            tiles += [t, t]
        elif t < 27 and t % 9 < 7 and rng.random() < 0.5:
            tiles += [t, t + 1, t + 2]
        else:
            tiles += [t, t, t]
    if not pairs:
        t = rng.choice(kinds)
        tiles += [t, t]
    rng.shuffle(tiles)
    tiles = tiles[jokers:]
    if rng.random() < 0.3:
        tiles[0] = rng.choice(kinds)
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def test_the_wildcard_search_equals_trying_every_reading():
    rng = random.Random(15)
    checked = 0
    pool = [t for t in range(NUM_KINDS) for _ in range(4)]
    for _ in range(250):
        jokers = rng.choice((1, 1, 2))
        counts = _near_win(rng, jokers) if rng.random() < 0.8 else _random_hand(rng, pool, jokers)
        got = best_base(counts, jokers, ())[0]
        want = 0
        for kinds in itertools.combinations_with_replacement(range(NUM_KINDS), jokers):
            c = list(counts)
            for k in kinds:
                c[k] += 1
            want = max(want, _concrete_base(c, ()))
        assert got == want, (counts, jokers)
        checked += got > 0
    assert checked > 10        # the sample holds wins, not only refusals

