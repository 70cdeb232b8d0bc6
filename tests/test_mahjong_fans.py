"""The fan calculator: every example of rules/mahjong-gb.md section 8, error cases, and a seeded
differential sample against PyMahjongGB (the 100,000-hand run is benchmarks/mahjong_fan_diff.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qipai.core.errors import NotationError
from qipai.games.mahjong_gb.fans import NotWinning, calculate
from qipai.games.mahjong_gb.fantable import BY_NAME, FANS

RULES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "mahjong-gb.md"

# (hand line, fans "name value [×n]", total) copied from rule file section 8
EXAMPLES = [
    ("45s 789s CC [234m] [678p] + 3s | seat=S round=E", "无番和 8", 8),
    ("234m 567m 345p 678s 9s + 9s | seat=S round=E", "门前清 2, 平和 2, 连六 1", 5),
    ("111m 2345678m 999m + 5m | seat=E round=E", "九莲宝灯 88, 双暗刻 2, 幺九刻 1", 91),
    ("1m 9m 1p 9p 1s 9s ESWNCFP + 9p | seat=W round=S", "十三幺 88", 88),
    ("CCC FFF PP 234m 55p + P | seat=S round=E", "大三元 88, 门前清 2, 双暗刻 2, 缺一门 1", 93),
    ("EEE SSS WWW NN 11m + N | tsumo seat=E round=E", "大四喜 88, 四暗刻 64, 混幺九 32, 混一色 6, 自摸 1", 191),  # noqa: E501
    ("223344s 666s 88s FF + F | seat=N round=S", "绿一色 88, 箭刻 2, 门前清 2, 一般高 1", 93),
    ("223344556677p 8p + 8p | tsumo seat=S round=S", "连七对 88, 断幺 2, 自摸 1", 91),
    ("1m [2222p] [SSSS] (7777s) [9999m] + 1m | seat=W round=E", "四杠 88, 幺九刻 1 ×2", 90),
    ("EEE SSS NNN W 567m + W | seat=N round=E",
     "小四喜 64, 三暗刻 16, 混一色 6, 圈风刻 2, 门风刻 2, 门前清 2, 单钓将 1", 93),
    ("CCC FFF PP 567s 22m + 2m | seat=E round=E", "小三元 64, 门前清 2, 双暗刻 2, 缺一门 1", 69),
    ("EEE NNN CCC PP FF + F | tsumo seat=S round=W", "小三元 64, 字一色 64, 四暗刻 64, 自摸 1", 193),
    ("222m 444p 666s 88s 99m + 8s | tsumo seat=E round=E", "四暗刻 64, 无字 1, 自摸 1", 66),
    ("234s 234s 234s 234s 9p + 9p | seat=E round=S", "一色四同顺 48, 门前清 2, 平和 2, 缺一门 1, 单钓将 1", 54),  # noqa: E501
    ("[333m] [444m] 555m 666m 8p + 8p | seat=E round=E", "一色四节高 48, 双暗刻 2, 断幺 2, 缺一门 1, 单钓将 1", 54),  # noqa: E501
    ("123p 345p 567p 789p S + S | seat=E round=E", "一色四步高 32, 混一色 6, 门前清 2, 单钓将 1", 41),
    ("[3333s] (CCCC) [WWWW] 567p 8m + 8m | seat=S round=N", "三杠 32, 五门齐 6, 箭刻 2, 幺九刻 1, 单钓将 1", 42),  # noqa: E501
    ("111m 999m 111p 9s [999p] + 9s | seat=S round=E", "清幺九 64, 三暗刻 16, 单钓将 1", 81),
    ("123456789s 11s 55s + 5s | seat=E round=E", "清一色 24, 清龙 16, 门前清 2, 四归一 2", 44),
    ("123456789s 11s 55s + 5s | tsumo seat=E round=E", "清一色 24, 清龙 16, 不求人 4, 四归一 2", 46),
    ("789m 789p 789s 999m 7s + 7s | seat=W round=W", "全大 24, 三色三同顺 8, 门前清 2, 四归一 2, 幺九刻 1, 边张 1", 38),  # noqa: E501
    ("123m 789m 123s 789s 5p + 5p | seat=S round=S", "三色双龙会 16, 门前清 2, 单钓将 1", 19),
    ("345m 456p 555s 5m [567s] + 5m | seat=S round=S", "全带五 16, 三色三步高 6, 四归一 2", 24),
    ("444m 444p 444s 12m 99s + 3m | seat=S round=S", "三同刻 16, 三暗刻 16, 门前清 2, 无字 1, 边张 1", 36),
    ("123m 456p 789s 1p [CCC] + 1p | tsumo seat=E round=E", "花龙 8, 箭刻 2, 单钓将 1, 自摸 1", 12),
    ("111p 555p [WWW] 7p [FFF] + 7p | seat=W round=S", "碰碰和 6, 混一色 6, 箭刻 2, 门风刻 2, 双暗刻 2, 幺九刻 1", 19),  # noqa: E501
    ("6s [123m] [456p] [789m] [NNN] + 6s | seat=N round=N", "全求人 6, 圈风刻 2, 门风刻 2, 老少副 1", 11),
    ("(5555m) (8888p) 234s 33s 66s + 6s | tsumo seat=E round=E", "三暗刻 16, 双暗杠 6, 不求人 4, 断幺 2", 28),
    ("234m 678m 345p 55s 77s + 5s | tsumo last seat=W round=N", "妙手回春 8, 不求人 4, 断幺 2", 14),
    ("[6666s] 234m 456p 78p 88m + 9p | tsumo kong seat=E round=S", "杠上开花 8, 连六 1, 明杠 1, 无字 1", 11),
]


def _expected(text: str) -> dict[int, int]:
    out = {}
    for part in text.split(", "):
        m = re.fullmatch(r"(\S+) (\d+)(?: ×(\d+))?", part)
        no = BY_NAME[m.group(1)]
        assert FANS[no][2] == int(m.group(2))
        out[no] = int(m.group(3) or 1)
    return out


@pytest.mark.parametrize("line, fans, total", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_rule_file_examples(line, fans, total):
    r = calculate(line)
    assert dict(r.fans) == _expected(fans)
    assert r.total == total


def test_examples_are_the_rule_files():
    """The table above is the rule file's section 8, line for line (when the file is present)."""
    if not RULES.exists():
        pytest.skip("rules not present")
    text = RULES.read_text(encoding="utf-8")
    found = re.findall(r"`([^`]*\+[^`]*\|[^`]*)`\s*\n\s*→ (.*?) — \*\*total (\d+)\*\*", text)
    assert [(a, b, int(c)) for a, b, c in found] == EXAMPLES


def test_flowers_are_added_after_the_minimum():
    r = calculate("45s 789s CC [234m] [678p] + 3s | seat=S round=E flowers=3")
    assert r.base_total == 8 and r.total == 11 and (81, 3) in r.fans


def test_variants():
    line = "(5555m) [8888p] 234s 33s 66s + 6s | seat=E round=E"
    assert (82, 1) in calculate(line).fans
    sep = calculate(line, mixed_kongs="separate").fans
    assert (67, 1) in sep and (74, 1) in sep and (82, 1) not in dict(sep)
    dragons = "CCC FFF PP 234m 55p + P | seat=S round=E"
    assert (75, 1) in calculate(dragons).fans
    assert 75 not in dict(calculate(dragons, exclusions="strict1998").fans)
    pairs = "1199m 1199p 1199s E + E | seat=E round=E"
    assert 18 in dict(calculate(pairs).fans)                       # 混幺九 with seven pairs
    assert 18 not in dict(calculate(pairs, exclusions="strict1998").fans)


def test_not_winning_and_malformed():
    with pytest.raises(NotWinning):
        calculate("123m 456p 789s 1p 2p 5s 7s + 9s | seat=E")
    with pytest.raises(NotationError, match="position"):
        calculate("123m 456p 78x9s 1p + 1p")


def test_differential_sample_against_pymahjonggb():
    """5,000 seeded random winning hands: the same fans and total as PyMahjongGB."""
    pytest.importorskip("MahjongGB")
    from tests.mahjong_gen import winning_hands
    from tests.mahjong_peer import ours, peer_fans

    covered: set[int] = set()
    for hand in winning_hands(2024, 5000):
        mine = ours(hand)
        assert mine == peer_fans(hand), str(hand)
        covered.update(mine[0])
    assert covered == set(FANS), sorted(set(FANS) - covered)


def test_pung_groups_join_their_number_and_honor_parts():
    """The fans of pungs mixing number tiles and honors, read as the two parts joined (幺九刻
    added up), equal the group scored whole: every such group of up to three pungs and a seeded
    sample of four."""
    import random
    from itertools import combinations

    from qipai.games.mahjong_gb import combos
    from qipai.games.mahjong_gb.fantable import BIG_THREE_WINDS, TABLE_SIZE, TWO_DRAGON_PUNGS
    from qipai.games.mahjong_gb.tilefans import ORDER, WIND, sparse

    def whole(pungs):
        f = [0] * TABLE_SIZE
        combos._pungs(sorted(pungs, key=ORDER.__getitem__), f)
        combos._pung_tiles(pungs, f)
        trait = 7
        for t in pungs:
            trait &= combos.PUNG_TRAIT[t]
        pair_fan = 1 if f[TWO_DRAGON_PUNGS] else (2 if f[BIG_THREE_WINDS] else 0)
        counts, bits = sparse(f)
        return (tuple(counts.items()), bits, trait, tuple(t for t in pungs if WIND[t]), pair_fan)

    groups = [p for k in (2, 3) for p in combinations(range(34), k) if p[0] < 27 <= p[-1]]
    rng = random.Random(4)
    groups += [tuple(sorted(rng.sample(range(27), n) + rng.sample(range(27, 34), 4 - n)))
               for n in (1, 2, 3) for _ in range(1500)]
    for pungs in groups:
        assert tuple(combos.pung_entry(pungs)) == whole(pungs), pungs


def test_suit_patterns_are_worked_out_once_for_the_three_suits():
    """A one-suit pattern's splits are worked out once (at ranks 0..8) and moved to each suit
    it is met in: the entry in every suit is the pattern's own splits placed at that suit."""
    import random

    from qipai.games.mahjong_gb import combos, splits
    from qipai.tiles.shapes import CHOW, PAIR, PUNG, _pattern_table, suit_splits

    rng = random.Random(8)
    for key in rng.sample(sorted(_pattern_table()), 400):
        b = bytes(key)
        made = len(splits._RANKS)
        for base in (18, 0, 9):
            got = splits._SUITS[base // 9].get(b) or splits._suit_entry(b, base)
            want = []
            for sp in suit_splits(key):
                want.append((tuple(base + r for ty, r in sp if ty == CHOW),
                             tuple(base + r for ty, r in sp if ty == PUNG),
                             tuple(base + r for ty, r in sp if ty == PAIR)))
            assert tuple(part[:3] for part in got[0]) == tuple(want), (key, base)
            # each part's keys in the group tables are those of its chows and of its pungs
            assert all(part[3] == combos.chow_key(part[0]) and part[4] == combos.pung_key(part[1])
                       for part in got[0]), (key, base)
            assert got[1] == sum(1 << (base + r) for r in range(9) if key[r]), (key, base)
        assert len(splits._RANKS) <= made + 1, key


def test_group_tables_shared_across_suits_give_each_groups_own_fans():
    """The chow and pung tables keep one entry per class of groups that differ only by their
    suits: every group of number pungs and of chows gets the entry worked out for it alone."""
    from itertools import combinations, combinations_with_replacement

    from qipai.games.mahjong_gb import combos
    from qipai.games.mahjong_gb.fantable import TABLE_SIZE
    from qipai.games.mahjong_gb.tilefans import ORDER, RANK, sparse

    for n in range(5):
        for g in combinations(range(27), n):
            f = [0] * TABLE_SIZE
            combos._pungs(sorted(g, key=ORDER.__getitem__), f)
            combos._pung_tiles(g, f)
            trait = 7
            for t in g:
                trait &= combos.PUNG_TRAIT[t]
            counts, bits = sparse(f)
            assert combos.pung_entry(g) == (tuple(counts.items()), bits, trait, (), 0), g
        mids = [9 * s + r for s in range(3) for r in range(1, 8)]
        for g in combinations_with_replacement(mids, n):
            f = [0] * TABLE_SIZE
            combos._chows(sorted(g, key=ORDER.__getitem__), f)
            trait = 7
            for t in g:
                trait &= combos.CHOW_TRAIT[t]
            terminal = n == 4 and all(RANK[t] in (2, 8) for t in g)
            counts, bits = sparse(f)
            assert combos.chow_entry(g) == (tuple(counts.items()), bits, trait, terminal), g


def test_group_tables_are_whole_before_the_first_hand():
    """Every chow group, every group of number pungs and every group of honor pungs has its
    entry once the module is loaded (a hand never met before finds its groups made), and the
    entries are those :func:`chow_entry` / :func:`pung_entry` work out."""
    from itertools import combinations, combinations_with_replacement
    from math import comb

    from qipai.games.mahjong_gb import combos

    mids = [9 * s + r for s in range(3) for r in range(1, 8)]
    chows = [g for n in range(5) for g in combinations_with_replacement(mids, n)]
    numbers = [g for n in range(5) for g in combinations(range(27), n)]
    honors = [g for n in range(5) for g in combinations(range(27, 34), n)]
    assert len(chows) == 12650
    assert len(numbers) == sum(comb(27, n) for n in range(5))
    for g in chows:
        assert g in combos.CHOW_ENTRIES, g
    for g in numbers + honors:
        assert g in combos.PUNG_ENTRIES, g
    from qipai.games.mahjong_gb.fantable import PUNG_OF_TERMINALS_OR_HONORS, TRIPLE_PUNG
    assert dict(combos.PUNG_ENTRIES[(0, 9, 18)][0]) == {TRIPLE_PUNG: 1, PUNG_OF_TERMINALS_OR_HONORS: 3}



def test_group_tables_by_key_hold_each_groups_entry():
    """The scorer reads the group tables by an int key summed from the tiles: every chow group
    and every group of pungs (number, honor or both) has its own key (no two groups share one)
    and finds there, made at import, the entry of its tiles."""
    from itertools import combinations, combinations_with_replacement

    from qipai.games.mahjong_gb import combos

    mids = [9 * s + r for s in range(3) for r in range(1, 8)]
    chows = [g for n in range(5) for g in combinations_with_replacement(mids, n)]
    pungs = [g for n in range(5) for g in combinations(range(27), n)]
    pungs += [g for n in range(1, 5) for g in combinations(range(27, 34), n)]
    mixed = [g + h for n in range(1, 4) for g in combinations(range(27), n)
             for k in range(1, 5 - n) for h in combinations(range(27, 34), k)]
    assert len(mixed) == 32004
    assert len(combos.PUNGS_BY_KEY) == len(pungs) + len(mixed) == 52956
    for g in mixed:
        assert combos.PUNGS_BY_KEY[combos.pung_key(g)] == combos.pung_entry(g), g
    assert len({combos.chow_key(g) for g in chows}) == len(chows)
    assert len({combos.pung_key(g) for g in pungs}) == len(pungs)
    for g in chows:
        assert combos.CHOWS_BY_KEY[combos.chow_key(g)] == combos.CHOW_ENTRIES[g], g
        assert combos.chow_entry_by_key(combos.chow_key(g)) == combos.CHOW_ENTRIES[g], g
    for g in pungs:
        assert combos.PUNGS_BY_KEY[combos.pung_key(g)] == combos.PUNG_ENTRIES[g], g
    # a key the tables lack (none a hand reaches) is made from the tiles it names
    g = (4, 13, 27, 31)
    assert combos.pung_entry_by_key(combos.pung_key(g)) == combos.pung_entry(g)


def _c14(hand) -> bytes:
    c = bytearray(34)
    for t in (*hand.concealed, hand.win):
        c[t] += 1
    return bytes(c)


def test_winning_shape_is_open_for_every_winning_hand():
    """The referee's pre-check (``winning_shape``) never shuts out a winning hand: every
    generated winning hand (standard, seven pairs, orphans, knitted, with and without sets)
    passes it."""
    import sys

    from qipai.games.mahjong_gb.fans import fan_table, winning_shape

    sys.path.insert(0, str(Path(__file__).parent))
    from mahjong_gen import winning_hands

    def scored(hand):
        if fan_table(hand) is None:
            raise ValueError("not a win")

    hands = winning_hands(161, 3000, accept=scored)
    assert {len(h.melds) for h in hands} >= {0, 1, 2, 3}
    for hand in hands:
        assert winning_shape(_c14(hand), len(hand.melds)), hand


def test_winning_shape_shut_only_where_fan_table_finds_nothing():
    """Every winning tile of a random hand (13 − 3k concealed tiles beside k pungs) that the
    pre-check shuts out is one ``fan_table`` finds no winning hand for; and it shuts most out."""
    import random

    from qipai.games.mahjong_gb.fans import fan_table, winning_shape
    from qipai.tiles.meld import PUNG, Meld
    from qipai.tiles.notation import Hand

    rng = random.Random(7)
    shut = opened = 0
    for _ in range(400):
        k = rng.choice((0, 0, 1, 2))
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        pungs = []
        for t in wall:
            if len(pungs) == k:
                break
            if t not in pungs:
                pungs.append(t)
        rest = [t for t in wall if t not in pungs]
        concealed = tuple(sorted(rest[:13 - 3 * k]))
        melds = tuple(Meld(PUNG, t) for t in pungs)
        for win in range(34):
            if concealed.count(win) == 4:
                continue
            hand = Hand(concealed, melds, win)
            ok = winning_shape(_c14(hand), k)
            if not ok:
                shut += 1
                assert fan_table(hand) is None, hand
            else:
                opened += 1
    assert shut > 10 * opened
