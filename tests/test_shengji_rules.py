"""Rules of rules/shengji.md, one test per rule or §8 edge case (section named in each test)."""

from __future__ import annotations

from collections import Counter

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.shengji import combos as cb
from qipai.games.shengji import declare as dc
from qipai.games.shengji.scoring import advance, kitty_multiplier, table_outcome, target_met
from qipai.games.shengji.trump import TRUMP, Trump
from tests.shengji_helpers import deal_with, position


def _comps(text: str, trump: Trump, decks: int = 2):
    return cb.decompose(Counter(text.split()), trump.pos, decks)


def _legal(state, seat=None):
    return sorted(str(a) for a in state.legal_actions(seat))


# ----- §3.1 / §3.2 trump membership and order ---------------------------------------------------
def test_s3_2_order_level_ten_trump_hearts():
    """§3.2 example: level T, trump H."""
    t = Trump(10, "H")
    assert [t.pos[f] for f in ("2H", "9H", "JH", "QH", "KH", "AH")] == [0, 7, 8, 9, 10, 11]
    assert t.pos["TS"] == t.pos["TD"] == t.pos["TC"] == 12
    assert (t.pos["TH"], t.pos["LJ"], t.pos["BJ"]) == (13, 14, 15)
    assert [t.pos[f] for f in ("2S", "9S", "JS", "QS", "KS", "AS")] == [0, 7, 8, 9, 10, 11]
    assert t.eff["TS"] == TRUMP and t.eff["AS"] == "S"


def test_s8_1_equal_non_trump_suit_level_cards_first_play_stays():
    """§8.1: TS, TC, 3H, TD — the first of the equal level cards wins."""
    st = position(["TS", "TC", "3H", "TD"], 10, "H")
    for t in ("TS", "TC", "3H", "TD"):
        st.apply(t)
    assert st.tricks[-1]["winner"] == 0


def test_s3_1_no_trump_has_only_jokers_and_level_cards():
    t = Trump(5, None)
    assert t.eff["AS"] == "S" and t.eff["5S"] == TRUMP and t.pos["5S"] == t.pos["5H"] == 0
    assert t.pos["LJ"] == 1 and t.pos["BJ"] == 2


# ----- §3.3 / §3.4 tractors and decomposition -----------------------------------------------------
@pytest.mark.parametrize("cards", ["JS JS 9S 9S", "LJ LJ TH TH", "TH TH TS TS", "TS TS AH AH",
                                   "TH TH TS TS AH AH", "BJ BJ LJ LJ", "5S 5S 4S 4S 3S 3S",
                                   "AH AH KH KH", "JS JS QS QS"])
def test_s8_2_tractors(cards):
    """§8.2: these are one tractor each at level T, trump H."""
    comps = _comps(cards, Trump(10, "H"))
    assert len(comps) == 1 and comps[0].kind == "tractor" and comps[0].length == len(cards.split()) // 2


@pytest.mark.parametrize("cards", ["TS TS TC TC", "AS AS 2S 2S", "5S 4S 4S", "5S 5S 3S 3S"])
def test_s8_2_not_tractors(cards):
    """§8.2 / §3.3: equal pos, no wrap-around, pair + single, a gap."""
    assert len(_comps(cards, Trump(10, "H"))) > 1


def test_s8_2_mixed_effective_suits_lead_refused():
    st = position(["JS JS TS TS", "2C 3C 4C 5C", "2D 3D 4D 5D", "6C 7C 8C 9C"], 10, "H")
    before = st.to_json()
    with pytest.raises(IllegalAction, match="one effective suit"):
        st.apply("JS JS TS TS")
    assert st.to_json() == before


def test_s3_4_decomposition_prefers_longest_run_then_suit_order():
    t = Trump(10, "H")
    comps = _comps("TS TS TC TC AH AH", t)
    assert comps[0].kind == "tractor" and comps[0].faces == ("TS", "TS", "AH", "AH")
    assert comps[1].kind == "pair" and comps[1].faces == ("TC", "TC")


# ----- §3.7 following -------------------------------------------------------------------------------
def test_s8_3_follow_tractor_with_non_adjacent_pairs():
    st = position(["8H 8H 7H 7H 4C 5C", "QH QH 9H 9H 5H 3H", "2C 3C 6C 7C 8C 9C", "2D 3D 4D 5D 6D 7D"],
                  2, "S")
    st.apply("8H 8H 7H 7H")
    assert _legal(st) == ["QH QH 9H 9H"]
    with pytest.raises(IllegalAction, match="pairs"):
        st.apply("QH QH 5H 3H")
    st.apply("QH QH 9H 9H")
    assert st.win_seat == 0          # not a tractor: not a contender


def test_s8_4_follow_two_tractor_holding_three_run():
    hands = ["5H 5H 4H 4H 2C 3C 4C", "KH KH QH QH JH JH 3H", "9H 8H 6H 2D 3D 4D 5D", "7H 6D 7D 8D 9D TD JD"]
    st = position(hands, 2, "S")
    st.apply("5H 5H 4H 4H")
    assert _legal(st) == ["KH KH QH QH", "QH QH JH JH"]
    with pytest.raises(IllegalAction, match="tractor"):
        st.apply("KH KH JH JH")
    st.apply("KH KH QH QH")
    st.apply("9H 8H 6H 2D")
    st.apply("7H 6D 7D 8D")
    assert st.tricks[-1]["winner"] == 1


def test_s8_5_pair_lead_forces_breaking_a_tractor():
    st = position(["9H 9H", "7H 7H 6H 6H AH", "2C 3C", "2D 3D"][:1] + ["7H 7H", "2C 3C", "2D 3D"], 2, "S")
    st.apply("9H 9H")
    assert _legal(st) == ["7H 7H"]
    st = position(["9H 9H 2C 3C 4C", "7H 7H 6H 6H AH", "5C 6C 7C 8C 9C", "2D 3D 4D 5D 6D"], 2, "S")
    st.apply("9H 9H")
    assert _legal(st) == ["6H 6H", "7H 7H"]
    with pytest.raises(IllegalAction):
        st.apply("AH 7H")


def test_s8_6_short_in_led_suit():
    st = position(["9H 9H 5C", "3H 4S 4S", "2C 3C 4C", "2D 3D 4D"], 2, "S")
    st.apply("9H 9H")
    with pytest.raises(IllegalAction, match="all your suit H"):
        st.apply("4S 4S")
    st.apply("3H 4S")
    assert st.win_seat == 0


def test_s8_7_trumping_a_pair_needs_a_trump_pair():
    st = position(["AH AH 9C", "KS QS 2C", "3H 3H 4H", "4S 4S 3C"], 2, "S")
    st.apply("AH AH")
    st.apply("KS QS")
    assert st.win_seat == 0
    assert _legal(st) == ["3H 3H"]
    st.apply("3H 3H")
    st.apply("4S 4S")
    assert st.tricks[-1]["winner"] == 3


def test_s8_8_non_identical_level_cards_are_not_a_pair():
    st = position(["KS KS", "TS TD", "3H 3H", "TC TC"], 10, "H")
    st.apply("KS KS")
    st.apply("TS TD")
    assert st.win_seat == 0
    st.apply("3H 3H")
    assert st.win_seat == 2
    st.apply("TC TC")
    assert st.tricks[-1]["winner"] == 3


# ----- §3.6 throws ------------------------------------------------------------------------------------
def test_s8_9_successful_throw_then_trumped():
    st = position(["AS AS KS", "KS QS JS", "QS 9S 9S", "3H 3H 4H"], 2, "H")
    st.apply("AS AS KS")
    assert st.failed_throws == [] and st.lead_n == 3
    st.apply("KS QS JS")
    st.apply("QS 9S 9S")
    st.apply("3H 3H 4H")
    assert st.tricks[-1]["winner"] == 3


@pytest.mark.parametrize("others,forced", [
    (["3S 2C 3C 4C 5C", "JS 2S 6C 7C 8C", "2D 3D 4D 5D 6D"], ["9S"]),
    (["QS QS 3S 2C 3C", "2S 4C 5C 6C 7C", "2D 3D 4D 5D 6D"], ["4S", "4S"]),
    (["2C 3C 4C 5C 6C", "7C 8C 9C JC QC", "5S 5S 2D 3D 4D"], ["4S", "4S"]),
    (["JS 2C 3C 4C 5C", "6C 7C 8C 9C JC", "5S 5S 2D 3D 4D"], ["4S", "4S"]),
])
def test_s8_10_failed_throw_seed001_examples(others, forced):
    """§8.10 a–d: forced component, cards back to the hand, penalty 10 × 5 for the dealer side."""
    st = position(["9S 8S 8S 4S 4S"] + others, 10, "H", dealer=0)
    st.apply("9S 8S 8S 4S 4S")
    assert st.failed_throws[0]["forced"] == forced
    assert [f for s, fs in st.trick for f in fs] == forced
    assert st.hands[0]["8S"] == 2
    assert st.penalty == 50
    assert st.view(2)["failed_throws"][0]["attempted"] == ["9S", "8S", "8S", "4S", "4S"]


def test_s8_13_failed_throw_by_attacker_costs_attackers():
    hands = ["2D 3D", "AH KH", "AH 4D", "5D 6D"]
    st = position(hands, 2, "S", dealer=0, leader=1)
    st.apply("AH KH")
    assert st.failed_throws[0]["forced"] == ["KH"] and st.penalty == -20
    st = position(hands, 2, "S", dealer=0, leader=1, profile="seed001")
    st.apply("AH KH")
    assert st.failed_throws[0]["forced"] == ["KH"] and st.penalty == 0


# ----- §3.8 contenders ------------------------------------------------------------------------------------
_TRUMPERS = ["9H 9H 8H 8H 7H 2H", "6H 6H 5H 5H KH QH", "2C 3C 4C 6C 7C 8C"]


def test_s8_11a_trump_shape_must_match_throw():
    st = position(["AS KS 5S 5S 4S 4S", *_TRUMPERS], 10, "H")
    st.apply("AS KS 5S 5S 4S 4S")
    assert not st.failed_throws
    st.apply("9H 9H 8H 8H 7H 2H")
    st.apply("6H 6H 5H 5H KH QH")
    st.apply("2C 3C 4C 6C 7C 8C")
    assert st.tricks[-1]["winner"] == 1


def test_s8_11b_two_pairs_do_not_match_pair_plus_tractor():
    st = position(["AS AS 5S 5S 4S 4S", *_TRUMPERS], 10, "H")
    st.apply("AS AS 5S 5S 4S 4S")
    for t in ("9H 9H 8H 8H 7H 2H", "6H 6H 5H 5H KH QH", "2C 3C 4C 6C 7C 8C"):
        st.apply(t)
    assert st.tricks[-1]["winner"] == 0


@pytest.mark.parametrize("rule,winner", [("key", 2), ("all", 1)])
def test_s8_12a_over_trump_by_key_shape(rule, winner):
    st = position(["5S 4S 4S", "9H 7H 7H", "8H 8H 4H", "QH JH 6H"], 10, "H", throw_beat_rule=rule)
    for t in ("5S 4S 4S", "9H 7H 7H", "8H 8H 4H", "QH JH 6H"):
        st.apply(t)
    assert st.tricks[-1]["winner"] == winner


def test_s8_12b_three_singles_compare_highest_single():
    st = position(["5S 6S 7S", "9H 7H 7H", "8H 8H 4H", "2C 3C 4C"], 10, "H")
    for t in ("7S 6S 5S", "9H 7H 7H", "8H 8H 4H", "2C 3C 4C"):
        st.apply(t)
    assert st.tricks[-1]["winner"] == 1
    st = position(["5S 6S 7S", "9H 7H 7H", "8H 8H 4H", "QH JH 6H"], 10, "H")
    for t in ("7S 6S 5S", "9H 7H 7H", "8H 8H 4H", "QH JH 6H"):
        st.apply(t)
    assert st.tricks[-1]["winner"] == 3


# ----- §4 scoring -------------------------------------------------------------------------------------
def _last_trick_tractor(table: str):
    hands = ["2C 3C 4C 6C", "QS QS JS JS", "2D 3D 4D 6D", "8C 9C 8D 9D"]
    return position(hands, 7, "S", dealer=0, leader=1, buried="KD TC 5S 2H 3H 4H 6H 8H",
                    trick_points=95, levels=[7, 5], score_table=table)


@pytest.mark.parametrize("table,outcome,level",
                         [("t000", "A+3", 8), ("t003", "A+5", 10), ("t002", "A+6", 11)])
def test_s8_14_kitty_bonus_with_tractor(table, outcome, level):
    st = _last_trick_tractor(table)
    for t in ("QS QS JS JS", "2D 3D 4D 6D", "8C 9C 8D 9D", "2C 3C 4C 6C"):
        st.apply(t)
    d = st.result.details
    assert (d["kitty_points"], d["kitty_multiplier"]) == (25, 8)
    assert (d["kitty_bonus"], d["attack_total"]) == (200, 295)
    assert st.result.text == outcome and d["levels"] == [7, level] and d["next_dealer"] == 1
    assert st.result.winners == (1, 3) and st.returns() == [0, level - 5, 0, level - 5]


def test_s8_15_kitty_bonus_with_pair_or_dealer_wins_last_trick():
    hands = ["2C 3C", "4C 6C", "2D 3D", "AS AS"]
    st = position(hands, 2, "S", dealer=0, leader=3, buried="TC 2H 3H 4H 6H 7H 8H 9H", trick_points=60)
    st.apply("AS AS")
    for t in ("2C 3C", "4C 6C", "2D 3D"):
        st.apply(t)
    assert st.result.details["attack_total"] == 100 and st.result.text == "take over"
    hands = ["AS AS", "4C 6C", "2D 3D", "2C 3C"]
    st = position(hands, 2, "S", dealer=0, leader=0, buried="TC 2H 3H 4H 6H 7H 8H 9H", trick_points=60)
    for t in ("AS AS", "4C 6C", "2D 3D", "2C 3C"):
        st.apply(t)
    assert st.result.details["attack_total"] == 60 and st.result.text == "D+1"
    assert st.result.details["next_dealer"] == 2


def test_s8_16_kitty_multiplier_after_throw():
    big = [("tractor", 3), ("pair", 1), ("single", 1)]
    assert kitty_multiplier(big, "exponential") == 16 and kitty_multiplier(big, "linear") == 12
    pps = [("pair", 1), ("pair", 1), ("single", 1)]
    assert kitty_multiplier(pps, "exponential") == kitty_multiplier(pps, "linear") == 4
    assert kitty_multiplier([("single", 1)], "exponential") == 2
    assert kitty_multiplier([("titanic", 2)], "linear", decks=3) == 12
    assert kitty_multiplier([("triple", 1)], "linear", decks=3) == 6


@pytest.mark.parametrize("table,cases", [
    ("t000", {0: "D+3", 5: "D+2", 35: "D+2", 40: "D+1", 75: "D+1", 80: "take+0", 115: "take+0",
              120: "A+1", 155: "A+1", 160: "A+2", 195: "A+2", 200: "A+3", 260: "A+3", -30: "D+3"}),
    ("t003", {235: "A+3", 240: "A+4", 260: "A+4", 400: "A+8"}),
    ("t002", {145: "A+1", 150: "A+2", 175: "A+2", 180: "A+3", 210: "A+4", 240: "A+5", 275: "A+5",
              280: "A+6", 400: "A+6"}),
    ("t_titanic", {0: "D+3", 55: "D+2", 60: "D+1", 115: "D+1", 120: "take+0", 175: "take+0",
                   180: "A+1", 240: "A+2", 300: "A+3", 360: "A+4"}),
])
def test_s8_17_score_table_boundaries(table, cases):
    for s, want in cases.items():
        kind, k = table_outcome(s, table)
        assert f"{kind}+{k}" == want, (table, s)


def _rotation(total: int):
    hands = ["2C 3C", "4C 6C", "2D 3D", "AS AS"]
    st = position(hands, 2, "S", dealer=3, leader=3, trick_points=total, buried="2H 3H 4H 6H 7H 8H 9H JH")
    for t in ("AS AS", "2C 3C", "4C 6C", "2D 3D"):
        st.apply(t)
    return st.result.details


def test_s8_18_dealer_rotation():
    d = _rotation(40)
    assert d["outcome"] == "D+1" and d["next_dealer"] == 1 and d["on_stage"] == 1
    d = _rotation(80)
    assert d["outcome"] == "take over" and d["next_dealer"] == 0 and d["levels"] == [2, 2]


def test_s4_5_must_play_levels():
    assert advance(8, 3, [10], defended=True) == 10
    assert advance(10, 2, [10], defended=False) == 10
    assert advance(10, 2, [10, 13], defended=True) == 12
    assert advance(11, 3, [10, 13], defended=True) == 13
    assert advance(8, 3, [], defended=True) == 11


def test_s8_22_match_end_targets():
    assert target_met(11, "pass_10") and not target_met(10, "pass_10")
    assert target_met(10, "reach_10") and not target_met(14, "pass_A") and target_met(15, "pass_A")
    hands = ["2C 3C", "4C 6C", "2D 3D", "AS AS"]
    st = position(hands, 9, "S", dealer=0, leader=3, trick_points=160, levels=[9, 9],
                  buried="2H 3H 4H 6H 7H 8H 9H JH")
    for t in ("AS AS", "2C 3C", "4C 6C", "2D 3D"):
        st.apply(t)
    # 160 + kitty 0 → A+2 → team 1 at J passes 10
    assert st.result.details["levels"] == [9, 11] and st.result.details["match_winner"] == 1


def test_s8_22_seed003_reach_ten():
    hands = ["AS AS", "4C 6C", "2D 3D", "2C 3C"]
    st = position(hands, 8, "S", dealer=0, trick_points=20, levels=[8, 5], profile="seed003",
                  buried="2H 3H 4H 6H 7H 8H 9H JH")
    for t in ("AS AS", "4C 6C", "2D 3D", "2C 3C"):
        st.apply(t)
    assert st.result.text == "D+2" and st.result.details["levels"] == [10, 5]
    assert st.result.details["match_winner"] == 0


# ----- §2 declarations -------------------------------------------------------------------------------
def test_s8_19_ladder2_declarations():
    """§2.4/§2.7/§8.19: no direct NT, strictly stronger only, dealer = first declarer (hand 1),
    prompts after each new declaration a seat gets, then the final window."""
    hands = [["LJ", "LJ", "2D", "2D"], ["2S", "2S", "BJ", "BJ"], ["2H"], ["2C", "2C"]]
    d = deal_with(hands, ["2H", "3C", "3C", "3D", "3D", "3H", "3H", "3S"], p=0)
    st = qipai.load("shengji").new_state(deal=d)

    def answer(seat, text):
        assert st.phase in ("deal", "window") and st.current_player == seat
        st.apply(text)

    answer(1, "pass")                       # 2S
    answer(1, "pass")                       # 2S 2S
    with pytest.raises(IllegalAction, match="no direct no-trump"):
        st.apply("declare LJ LJ")
    answer(0, "pass")
    answer(3, "pass")
    answer(0, "pass")
    answer(2, "declare 2H")                 # accepted: trump H, seat 2 is the dealer
    with pytest.raises(IllegalAction, match="not in your hand"):
        st.apply("declare 2C")
    answer(0, "declare 2D 2D")
    with pytest.raises(IllegalAction, match="not stronger"):
        st.apply("declare 2S 2S")
    answer(1, "pass")
    assert st.phase == "window"
    answer(0, "declare LJ LJ")
    answer(1, "declare BJ BJ")
    assert st.phase == "bury"
    assert [x["seat"] for x in st.declarations] == [2, 0, 0, 1]
    assert st.dealer == 2 and st.trump.spec == "NT"


def test_s8_20_bao_basics():
    hands = [["2C", "LJ"], ["2H", "BJ"], ["2S", "2S", "LJ"], ["2D", "2D", "BJ"]]
    d = deal_with(hands, ["2C", "2H", "3C", "3C", "3D", "3D", "3H", "3H"], p=0)
    st = qipai.load("shengji", profile="seed002").new_state(deal=d)
    assert st.phase == "bao" and st.current_player == 0
    st.apply("pass")
    assert st.current_player == 1
    st.apply("declare 2H BJ")
    assert st.dealer == 1 and st.phase == "fan"
    # seat 2's 2S 2S LJ is weaker than (1,0,1): it is not offered, and refused if tried
    assert st.current_player == 3
    st.apply("declare 2D 2D BJ")
    # seat 0's 2C LJ is only an opening: nobody has a stronger 反主, so the round closes
    with pytest.raises(ValueError, match="反主 is two identical level cards"):
        dc.classify("bao", ("2C", "LJ"), 2, "fan")
    assert dc.classify("bao", ("2S", "2S", "LJ"), 2, "fan")[0] < (1, 0, 1)
    assert st.dealer == 1 and st.trump.spec == "D" and st.phase == "bury"
    with pytest.raises(IllegalAction):
        st.apply("declare 2C LJ")


@pytest.mark.parametrize("mode,kitty,trump", [("kitty_first", ["7D"], "D"), ("kitty_first", ["BJ"], "NT"),
                                              ("kitty_third", ["AS", "3C", "LJ"], "NT"),
                                              ("kitty_third", ["LJ", "3C", "9H"], "H"),
                                              ("no_trump", ["7D"], "NT")])
def test_s8_21_no_declaration(mode, kitty, trump):
    d = deal_with([[], [], [], []], kitty, p=1)
    st = qipai.load("shengji", no_declaration=mode).new_state(deal=d)
    while st.phase in ("deal", "window"):
        st.apply("pass")
    assert st.trump.spec == trump and st.dealer == 1
    assert (st.view(2)["kitty_shown"] != []) == (mode != "no_trump")


def test_s2_8_kitty_random_turns_until_a_suit():
    d = deal_with([[], [], [], []], ["LJ", "BJ", "5C"], p=0, flip=[1, 0, 2, 3, 4, 5, 6, 7])
    st = qipai.load("shengji", no_declaration="kitty_random").new_state(deal=d)
    while st.phase in ("deal", "window"):
        st.apply("pass")
    assert st.trump.spec == "C" and st.kitty_shown == ["BJ", "LJ", "5C"]


def test_s2_10_bury_and_dealer_leads():
    st = qipai.load("shengji").new_state(seed=3)
    while st.phase != "bury":
        st.apply(st.default_action(st.current_player))
    dealer = st.dealer
    assert sum(st.hands[dealer].values()) == 33
    with pytest.raises(IllegalAction, match="exactly 8"):
        st.apply("bury " + " ".join(st.hand_faces(dealer)[:7]))
    st.apply(st.default_action(dealer))
    assert st.phase == "play" and st.current_player == dealer
    assert st.view(dealer)["buried"] is not None and st.view((dealer + 1) % 4)["buried"] is None


# ----- §3.1 常主 (§8.23) --------------------------------------------------------------------------------
def test_s8_23_two_always_trump():
    t = Trump(10, "H", two_always=True)
    order = ["3H", "KH", "AH", "2S", "2H", "TS", "TH", "LJ", "BJ"]
    assert [t.pos[f] for f in order] == sorted(t.pos[f] for f in order)
    assert t.pos["2S"] == t.pos["2D"] == t.pos["2C"] < t.pos["2H"]
    for cards in ("2H 2H 2S 2S", "2S 2S AH AH", "TS TS 2H 2H"):
        assert len(_comps(cards, t)) == 1
    assert len(_comps("2S 2S 2C 2C", t)) == 2
    st = position(["3S 5C", "2S 4S", "6C 7C", "8C 9C"], 10, "H", two_always_trump=True)
    st.apply("3S")
    assert _legal(st) == ["4S"]


# ----- §3.10 three decks (§8.24) ---------------------------------------------------------------------------
def test_s8_24_titanic_triple_lead():
    hands = ["9S 9S 9S 2C", "QS QS 7S 6S", "KS KS KS 2S", "3C 4C 6C 7C"]
    st = position(hands, 5, "H", profile="titanic")
    st.apply("9S 9S 9S")
    assert _legal(st) == ["QS QS 6S", "QS QS 7S"]
    with pytest.raises(IllegalAction):
        st.apply("QS 7S 6S")
    st.apply("QS QS 7S")
    assert _legal(st) == ["KS KS KS"]
    st.apply("KS KS KS")
    assert st.win_seat == 2


def test_s3_10_titanic_shapes():
    t = Trump(5, "H")
    for cards, kind in (("3S 3S 3S 4S 4S 4S", "titanic"), ("BJ BJ BJ LJ LJ LJ", "titanic"),
                        ("AH AH AH 5D 5D 5D", "titanic"), ("5H 5H 5H LJ LJ LJ", "titanic")):
        comps = _comps(cards, t, 3)
        assert [c.kind for c in comps] == [kind], cards
    comps = _comps("7S 7S 7S 8S 8S", t, 3)
    assert [c.kind for c in comps] == ["tractor", "single"]


def test_s2_6_grab3_ladder():
    """§2.6: steps 1..5; LJ×2 and BJ×2 are the same step; 天主 is NT; any step may come first."""
    hand = {"5S": 3, "LJ": 2, "BJ": 3}
    assert dc.classify("grab3", ("5S",), 5)[0] == 1
    assert dc.classify("grab3", ("LJ", "LJ"), 5)[0] == dc.classify("grab3", ("BJ", "BJ"), 5)[0] == 3
    assert dc.classify("grab3", ("5S",) * 3, 5)[0] == 4
    assert dc.classify("grab3", ("BJ",) * 3, 5) == (5, None, "天主")
    assert set(dc.candidates("grab3", hand, 5, None)) == {
        ("5S",), ("5S", "5S"), ("5S",) * 3, ("LJ", "LJ"), ("BJ", "BJ"), ("BJ",) * 3}
    assert set(dc.candidates("grab3", hand, 5, 3)) == {("5S",) * 3, ("BJ",) * 3}
    with pytest.raises(ValueError):
        dc.classify("grab3", ("LJ", "BJ"), 5)


def test_s2_6_titanic_hand_declarations():
    """A titanic hand: 39 cards each, a 6-card kitty, the first declarer deals."""
    st = qipai.load("shengji", profile="titanic").new_state(seed=12)
    while st.phase in ("deal", "window"):
        acts = st.legal_actions()
        st.apply(acts[-1] if not st.declarations else "pass")
    assert st.phase == "bury" and len(st.kitty) == 6
    if st.declarations:
        assert st.dealer == st.declarations[0]["seat"]
    assert sum(st.hands[st.dealer].values()) == 45
