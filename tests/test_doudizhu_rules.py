"""Doudizhu combinations and comparisons (rules/doudizhu.md §3, §8 edge cases 1-17)."""

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.doudizhu.combos import ORDER, PACKER, KickerRules, table
from tests.doudizhu_helpers import reading


def test_action_space_counts_27471_plus_pass():
    t = table()
    assert t.count_by_type() == {
        "single": 15, "pair": 13, "trio": 13, "trio_single": 182, "trio_pair": 156, "straight": 36,
        "pair_chain": 52, "plane": 45, "plane_solo": 21822, "plane_pair": 2939, "four_two_solo": 1326,
        "four_two_pair": 858, "bomb": 13, "rocket": 1}
    assert len(t.plays) == 27471
    codes = [p.code for p in t.plays]
    assert len(set(codes)) == 27471                        # one reading per card set (§3.4)
    for p in t.plays:                                      # the stored reading is the one found again
        assert t.readings(list(p.counts)) == [p]


@pytest.mark.parametrize("text,type_,length,key", [
    ("L", "single", 1, "L"), ("2", "single", 1, "2"), ("77", "pair", 1, "7"), ("QQQ", "trio", 1, "Q"),
    ("5555", "bomb", 1, "5"), ("LB", "rocket", 1, "B"), ("333L", "trio_single", 1, "3"),
    ("3332", "trio_single", 1, "3"), ("99955", "trio_pair", 1, "9"), ("34567", "straight", 5, "7"),
    ("3456789TJQKA", "straight", 12, "A"), ("334455", "pair_chain", 3, "5"),
    ("33445566778899TTJJQQ", "pair_chain", 10, "Q"), ("333444", "plane", 2, "4"),
    ("333444555666777888", "plane", 6, "8"), ("33344456", "plane_solo", 2, "4"),
    ("3334442L", "plane_solo", 2, "4"), ("33344455", "plane_solo", 2, "4"),
    ("333444555777", "plane_solo", 3, "5"), ("3334445566", "plane_pair", 2, "4"),
    ("333444555666777+89TJQ", "plane_solo", 5, "7"), ("333444555666+778899TT", "plane_pair", 4, "6"),
    ("444455", "four_two_solo", 1, "4"), ("4444+5L", "four_two_solo", 1, "4"),
    ("44445566", "four_two_pair", 1, "4"), ("2222+33", "four_two_solo", 1, "2"),
])
def test_every_combination_type(text, type_, length, key):
    p = reading(text)
    assert p is not None, text
    assert (p.type, p.length, ORDER.ranks[p.key]) == (type_, length, key)


@pytest.mark.parametrize("text", [
    "33334444",            # edge 1: two quads are no play
    "44445555",            # edge 2
    "4444LB",              # edge 3: rocket as kickers
    "3334445556667779",    # edge 7: either reading uses an adjacent trio as wings
    "JQKA2", "KKAA22", "3344",   # edges 9, 10
    "333LB",               # edge 11: jokers are not a pair
    "LL", "3456", "33445", "33345", "2345", "222333",  # not combinations
    "3333LB44", "AAA222", "KKKAAA2",   # 2s never in planes; wings count mismatch
])
def test_not_combinations(text):
    counts = ORDER.parse_counts(text)
    if counts[13] > 1 or counts[14] > 1:
        return
    assert table().readings(counts) == [], text


def test_edge_cases_on_comparison():
    r = reading
    # 3: 4444+5L is four_two_solo key 4
    assert (r("44445L").type, r("44445L").key) == ("four_two_solo", ORDER.index["4"])
    # 4: 444455 beats 333378, neither is a bomb
    assert r("444455").beats(r("333378")) and not r("444455").is_bomb and not r("333378").is_bomb
    # 5: 444555666777 (plane, n=4) does not answer 333444555789 (plane_solo, n=3)
    assert r("444555666777").type == "plane" and not r("444555666777").beats(r("333444555789"))
    # 6: 333444555777 is plane_solo n=3 key 5
    p = r("333444555777")
    assert (p.type, p.length, ORDER.ranks[p.key]) == ("plane_solo", 3, "5")
    # 8: AAAA46 beats KKKK35; bomb 3333 beats it too
    assert r("AAAA46").beats(r("KKKK35")) and r("3333").beats(r("KKKK35"))
    assert not r("KKKK35").beats(r("3333"))
    # 9: TJQKA
    assert (r("TJQKA").type, ORDER.ranks[r("TJQKA").key]) == ("straight", "A")
    # 10: QQKKAA key A
    assert (r("QQKKAA").type, ORDER.ranks[r("QQKKAA").key]) == ("pair_chain", "A")
    # 11: 333L
    assert r("333L").type == "trio_single"
    # 12: bombs and the rocket
    assert r("2222").beats(r("AAAA")) and r("LB").beats(r("2222")) and not r("2222").beats(r("LB"))
    assert not r("LB").beats(r("LB")) and not r("AAAA").beats(r("2222"))
    # 13: straights of a different length never answer
    assert r("45678").beats(r("34567")) and not r("456789").beats(r("34567"))
    # 14 and 15
    assert r("55566644").beats(r("33344456"))
    assert r("4445553377").beats(r("3334445566"))
    # D11: plane never answers plane_solo of the same card count; type and length must agree
    assert not r("333444555666").beats(r("333444555777"))
    assert not r("3333").beats(r("LB")) and r("3333").beats(r("2"))
    assert not r("33").beats(r("2")) and not r("KKK+2").beats(r("QQQ+22"))


def legal_texts(hand: str, top: str | None, **rules) -> list[str]:
    t = table(KickerRules(**rules))
    code = PACKER.pack(ORDER.parse_counts(hand))
    if top is None:
        return sorted(p.ranks for p in t.leads(code))
    return sorted(p.ranks for p in t.answers(code, reading(top, **rules)))


def test_legal_lead_counts_of_the_rule_file():
    t = table()
    hand = PACKER.pack(ORDER.parse_counts("333444556789TJQKA2LB"))      # edge 16
    leads = t.leads(hand)
    assert len(leads) == 169
    by: dict = {}
    for p in leads:
        by[p.type] = by.get(p.type, 0) + 1
    assert by == {"single": 15, "pair": 3, "trio": 2, "trio_single": 28, "trio_pair": 4, "straight": 36,
                  "pair_chain": 1, "plane": 1, "plane_solo": 78, "rocket": 1}
    hand = PACKER.pack(ORDER.parse_counts("3456777789TTJJQQK"))         # edge 17
    leads = t.leads(hand)
    assert len(leads) == 110
    by = {}
    for p in leads:
        by[p.type] = by.get(p.type, 0) + 1
    assert by == {"single": 11, "pair": 4, "trio": 1, "bomb": 1, "trio_single": 10, "trio_pair": 3,
                  "straight": 28, "pair_chain": 1, "four_two_solo": 48, "four_two_pair": 3}
    assert legal_texts("3456777789TTJJQQK", "9") == sorted(["T", "J", "Q", "K", "7777"])
    assert legal_texts("3456777789TTJJQQK", "34567") == sorted(
        ["45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "7777"])


def test_nothing_answers_the_rocket_and_only_higher_bombs_answer_a_bomb():
    assert legal_texts("2222AAAA3", "LB") == []
    assert legal_texts("2222AAAA3LB", "KKKK") == sorted(["AAAA", "2222", "LB"])
    assert legal_texts("5555LB", "AAAA") == ["LB"]


def test_leads_equal_brute_force_over_sub_multisets():
    """Every sub-multiset of a hand is classified directly; the generator must agree."""
    import itertools
    import random

    t = table()
    rng = random.Random(5)
    deck = "3456789TJQKA2" * 4 + "LB"
    for _ in range(15):
        hand = ORDER.parse_counts("".join(rng.sample(deck, 12)))
        found = set()
        for sub in itertools.product(*(range(c + 1) for c in hand)):
            if any(sub) and t.readings(list(sub)):
                found.add(tuple(sub))
        assert found == {p.counts for p in t.leads(PACKER.pack(hand))}


@pytest.mark.parametrize("rules", [KickerRules(), KickerRules(adjacent_trio_wings=True, four_with_two=False,
                                                              chain_from_bomb_rank=False,
                                                              bomb_answers_rocket=True)])
def test_answers_are_the_leads_that_beat_the_play(rules):
    """The answer and lead generators read the hand through rank masks (``held``) and lists
    kept per mask; an answer list is exactly the hand's leads that beat the play, each once."""
    import random

    from qipai.games.doudizhu.combos import held

    t = table(rules)
    rng = random.Random(8)
    deck = "3456789TJQKA2" * 4 + "LB"
    for _ in range(300):
        hand = ORDER.parse_counts("".join(rng.sample(deck, rng.choice((5, 12, 17, 20)))))
        code = PACKER.pack(hand)
        assert held(code) == tuple(sum(PACKER.unit[r] for r in range(15) if hand[r] >= k)
                                   for k in (1, 2, 3, 4))
        leads = t.leads(code)
        for top in rng.sample(t.plays, 40) + [t.rocket]:
            beat = [p for p in leads if p.beats(top) or (
                rules.bomb_answers_rocket and top.type == "rocket" and p.type == "bomb")]
            got = t.answers(code, top)
            assert len(set(got)) == len(got) and set(got) == set(beat)


# ----- options (each changes what is legal) ------------------------------------------------

def test_option_adjacent_trio_wings():
    assert reading("333444555666").type == "plane"
    t = table(KickerRules(adjacent_trio_wings=True))
    both = t.readings(ORDER.parse_counts("333444555666"))
    assert sorted(p.type for p in both) == ["plane", "plane_solo"]
    assert {p.text for p in both} == {"plane:333444555666", "plane_solo:444555666+333"}
    # two readings of one type: the highest key is kept (§3.4)
    [p] = t.readings(ORDER.parse_counts("5666777888999TTT"))
    assert (p.type, ORDER.ranks[p.key]) == ("plane_solo", "T")
    ambiguous = [c for c, ps in t.by_code.items() if len(ps) > 1]
    assert len(ambiguous) == 9                             # rule file: 9 sets are plane and plane_solo
    assert t.count_by_type()["plane_solo"] == 22588 - 383  # OpenSpiel's 22,588 ids, 383 duplicates
    assert reading("3334445556667779") is None
    assert table(KickerRules(adjacent_trio_wings=True)).readings(ORDER.parse_counts("3334445556667779"))


def test_option_four_with_two_and_its_kickers():
    assert reading("444455") is not None and reading("444455", four_with_two=False) is None
    assert reading("44445566", four_with_two=False) is None
    assert reading("444455", four_two_solo_pair=False) is None
    assert reading("444456", four_two_solo_pair=False).type == "four_two_solo"
    p = reading("44445555", four_two_same_pairs=True)
    assert (p.type, ORDER.ranks[p.key]) == ("four_two_pair", "5")


def test_options_dropping_kicker_rules():
    assert reading("33334444") is None
    assert reading("33334444", wings_body_rank=True).type == "plane_solo"
    assert reading("3334445555666777") is None
    assert reading("333444555666+7777".replace("+", ""), bomb_in_wings=True) is not None
    assert reading("4444LB") is None and reading("4444LB", rocket_in_wings=True).type == "four_two_solo"
    assert reading("333444LB") is None and reading("333444LB", rocket_in_wings=True).type == "plane_solo"


def test_option_chain_from_bomb_rank_and_bomb_answers_rocket():
    hand = "44445678"
    assert "45678" in legal_texts(hand, None)
    assert "45678" not in legal_texts(hand, None, chain_from_bomb_rank=False)
    assert "45678" not in legal_texts(hand + "9", "34567", chain_from_bomb_rank=False)
    assert legal_texts("4444", "LB") == []
    assert legal_texts("4444", "LB", bomb_answers_rocket=True) == ["4444"]


def test_parse_action_forms_and_reasons():
    g = qipai.load("doudizhu")
    assert g.parse_action("333444+56") is g.parse_action("56 333 444")
    assert g.parse_action("3S 3H 3D 4C").text == "333+4"
    assert g.parse_action("LJ BJ").type == "rocket" and g.parse_action("lb").type == "rocket"
    assert g.parse_action("trio_single:3334").text == "333+4"
    assert str(g.parse_action("pass")) == "pass" and str(g.parse_action("bid 2")) == "bid 2"
    cases = {
        "33334444": "bomb", "33345": "a trio takes one single or one pair",
        "JQKA2": "2s and jokers never join a straight",
        "pair:3334": "not a pair", "33X": "not a rank", "3S 3S": "named twice",
        "33344455566": "kicker count does not match airplane length",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalAction) as e:
            g.parse_action(text)
        if reason:
            assert reason in e.value.reason, (text, e.value.reason)
    os = qipai.load("doudizhu", preset="openspiel")
    with pytest.raises(IllegalAction, match="ambiguous"):
        os.parse_action("333444555666")
    assert os.parse_action("plane_solo:333444555666").type == "plane_solo"
