"""三打一 rules, one test per rule of rules/sandayi.md (section in each name) and every §8 edge
case."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, OptionError
from qipai.core.rng import DealRng
from qipai.games.sandayi import eff, pos
from qipai.games.sandayi.cards import DECK, points, read_card
from qipai.games.sandayi.game import draw_deal
from qipai.games.sandayi.match import MatchScore
from qipai.games.sandayi.scoring import base, need, settle

from .sandayi_helpers import faces, make_deal, to_play

GAME = qipai.load("sandayi")


def snap(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in (0, 1, 2, 3, None)]], sort_keys=True)


def refused(state, text, seat, word):
    before = snap(state)
    with pytest.raises(IllegalAction) as e:
        state.apply(text, seat)
    assert word in str(e.value), str(e.value)
    assert snap(state) == before


# ----- §1 identity ------------------------------------------------------------------------------
def test_s1_deck_points_and_deal_sizes():
    assert len(DECK) == 54 and sum(points(c) for c in DECK) == 100
    state = GAME.new_state(seed=3)
    assert [len(h) for h in state.hands] == [12] * 4 and len(state.kitty) == 6
    assert GAME.info().seats == (4,)


# ----- §2.2 deal ---------------------------------------------------------------------------------
def test_s2_2_deal_one_card_at_a_time_from_the_start_seat():
    a, b = draw_deal(DealRng("x"), 0), draw_deal(DealRng("x"), 2)
    assert a["kitty"] == b["kitty"]
    for j in range(4):
        assert b["hands"][(2 + j) % 4] == a["hands"][j]
    # hand 1 deals from seat0; later hands from the first bidder
    s = GAME.new_state(seed="x")
    assert s.deals[0]["hands"] == a["hands"]
    s2 = GAME.new_state(seed="x", deal={"first_bidder": 2})
    assert s2.deals[0]["hands"] == b["hands"] and s2.first_bidder == 2


def test_s2_2_nobody_sees_the_kitty_before_the_contract():
    state = GAME.new_state(seed=5)
    assert all(state.view(s)["kitty"] is None for s in (0, 1, 2, 3, None))


# ----- §2.3 first bidder (edge case 11) ---------------------------------------------------------
def test_s2_3_first_bidder_hand_one_holds_3d():
    deal = make_deal({2: ("3D", "SHC")}, first_bidder=None)
    assert GAME.new_state(deal=deal).first_bidder == 2


def test_s2_3_first_bidder_3d_in_kitty_then_4d_then_5d():
    deal = make_deal({1: ("4D", "SHC")}, kitty="3D", first_bidder=None)
    assert GAME.new_state(deal=deal).first_bidder == 1
    deal = make_deal({3: ("5D", "SHC")}, kitty="3D 4D", first_bidder=None)
    assert GAME.new_state(deal=deal).first_bidder == 3


def test_s2_3_later_hands_previous_dealer_bids_first():
    state = GAME.new_state(seed=9, deal={"first_bidder": 3})
    assert state.to_act == (3,)


# ----- §2.4 bidding (edge cases 8, 10) ------------------------------------------------------------
def test_s2_4_edge8_opening_minimums_and_higher_bids():
    state = GAME.new_state(seed=11, deal={"first_bidder": 2})
    state.apply("pass", 2)
    state.apply("pass", 3)
    refused(state, "bid 60", 0, "minimum bid is 65")
    assert faces(state.legal_actions(0)) == {"pass", "bid 65", "bid 70", "bid 75", "bid 80"}
    state.apply("bid 65", 0)
    refused(state, "bid 65", 1, "higher")
    state.apply("bid 70", 1)
    assert (state.dealer, state.contract, state.exposed) == (1, 70, False)
    assert state.view(0)["kitty"] is None and state.view(None)["kitty"] is None
    assert state.view(1)["kitty"] == [c.face for c in state.kitty]


def test_s2_4_fourth_bidder_minimum_70_after_three_passes():
    state = GAME.new_state(seed=12, deal={"first_bidder": 0})
    for s in (0, 1, 2):
        state.apply("pass", s)
    assert faces(state.legal_actions(3)) == {"pass", "bid 70", "bid 75", "bid 80"}
    refused(state, "bid 65", 3, "minimum bid is 70")


def test_s2_4_minimums_only_when_all_earlier_passed():
    state = GAME.new_state(seed=12, deal={"first_bidder": 0})
    state.apply("bid 60", 0)
    state.apply("pass", 1)
    assert "bid 65" in faces(state.legal_actions(2))


def test_s2_4_single_round_highest_bidder_is_dealer():
    state = GAME.new_state(seed=13, deal={"first_bidder": 1})
    for s, a in ((1, "bid 60"), (2, "bid 75"), (3, "pass"), (0, "bid 80")):
        state.apply(a, s)
    assert (state.dealer, state.contract, state.phase) == (0, 80, "bury")


def test_s2_4_bid_not_in_list_refused():
    state = GAME.new_state(seed=13)
    refused(state, "bid 62", state.turn, "not a bid value")
    refused(state, "bid 85", state.turn, "not a bid value")


def test_s2_4_edge10_all_pass_redeals_same_first_bidder():
    state = GAME.new_state(seed=14, deal={"first_bidder": 1})
    first = state.deals[0]
    for s in (1, 2, 3, 0):
        state.apply("pass", s)
    assert state.redeals == 1 and len(state.deals) == 2 and state.deals[1] != first
    assert state.phase == "bid" and state.to_act == (1,) and state.first_bidder == 1
    assert state.result is None and state.bids == []
    dealt = sorted(read_card(i).face for i in state.deals[1]["hands"][1])
    assert sorted(c.face for c in state.hands[1]) == dealt


def test_s2_4_max_redeals_then_first_bidder_is_dealer_at_lowest_bid():
    state = GAME.new_state(seed=15, deal={"first_bidder": 2})
    for _ in range(3):
        for s in (2, 3, 0, 1):
            state.apply("pass", s)
    assert state.redeals == 3 and state.phase == "bid"
    for s in (2, 3, 0, 1):
        state.apply("pass", s)
    assert (state.dealer, state.contract, state.forced, state.phase) == (2, 60, True, "bury")
    assert state.redeals == 3


# ----- §2.5 kitty exchange (edge cases 9, 12) -----------------------------------------------------
def test_s2_5_edge9_low_contract_shows_the_kitty_to_all():
    state = GAME.new_state(seed=16, deal={"first_bidder": 0})
    state.apply("bid 60", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    kitty = [c.face for c in state.kitty]
    assert state.exposed and all(state.view(s)["kitty"] == kitty for s in (0, 1, 2, 3, None))
    assert len(state.hands[0]) == 18


def test_s2_5_edge12_bury_exactly_six_cards_of_the_hand():
    deal = make_deal({0: ("KH BJ", None)})
    state = GAME.new_state(deal=deal)
    state.apply("bid 80", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    hand = [c.face for c in state.hands[0] if c.face not in ("KH", "BJ")]
    refused(state, "bury " + " ".join(hand[:5]), 0, "exactly 6")
    not_held = next(c.face for c in state.hands[1])
    refused(state, "bury " + " ".join(hand[:5] + [not_held]), 0, "not in your hand")
    refused(state, "AS", 0, "bury")
    state.apply("bury KH BJ " + " ".join(hand[:4]), 0)
    assert state.phase == "trump" and len(state.hands[0]) == 12
    assert {"KH", "BJ"} <= {c.face for c in state.buried}


def test_s2_5_buried_cards_hidden_from_defenders_until_the_end():
    state = to_play(make_deal({}))
    buried = [c.face for c in state.buried]
    assert state.view(0)["buried"] == buried
    assert all(state.view(s)["buried"] is None for s in (1, 2, 3, None))
    while not state.is_terminal():
        state.apply(state.default_action(state.turn))
    assert all(state.view(s)["buried"] == buried for s in (0, 1, 2, 3, None))


def test_s2_5_bury_legal_set_is_every_six_card_choice():
    state = GAME.new_state(seed=17, deal={"first_bidder": 0})
    state.apply("bid 80", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    legal = state.legal_actions(0)
    assert len(legal) == 18564                      # C(18, 6)
    assert state.default_action(0) in legal


# ----- §2.6 naming trump (edge case 13) ---------------------------------------------------------
def test_s2_6_edge13_no_trump_refused_suit_accepted():
    state = GAME.new_state(seed=18, deal={"first_bidder": 0})
    state.apply("bid 80", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    state.apply(state.default_action(0), 0)
    refused(state, "trump NT", 0, "no no-trump")
    refused(state, "NT", 0, "no no-trump")
    assert faces(state.legal_actions(0)) == {"trump S", "trump H", "trump D", "trump C"}
    state.apply("trump S", 0)
    assert state.trump == "S" and all(s["trump"] == "S" for s in map(state.view, (0, 1, 2, 3, None)))
    trumps = [c.face for c in DECK if eff(c, "S") == "T"]
    assert len(trumps) == 18 and {"2H", "2D", "2C", "2S", "LJ", "BJ", "3S", "AS"} <= set(trumps)


# ----- §3.1-§3.2 order (edge case 1) -------------------------------------------------------------
def test_s3_2_edge1_order_with_trump_h():
    order = "BJ LJ 2H 2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H".split()
    keys = [pos(read_card(f), "H") for f in order]
    assert keys == sorted(keys, reverse=True)
    assert pos(read_card("2S"), "H") == pos(read_card("2D"), "H") == pos(read_card("2C"), "H") == 12
    assert eff(read_card("2S"), "H") == "T" and eff(read_card("AS"), "H") == "S"
    side = [pos(read_card(r + "S"), "H") for r in "AKQJT9876543"]
    assert side == sorted(side, reverse=True)
    assert sum(1 for c in DECK if eff(c, "H") == "T") == 18


# ----- §3.3 follows (edge cases 2, 5, 7) ---------------------------------------------------------
def test_s3_3_edge2_follow_with_the_plain_card_not_the_2():
    state = to_play(make_deal({0: ("AS", None), 1: ("2S 5S 9C", "DC")}))
    state.apply("AS", 0)
    assert faces(state.legal_actions(1)) == {"5S"}
    refused(state, "2S", 1, "must follow")
    refused(state, "9C", 1, "must follow")
    state.apply("5S", 1)


def test_s3_3_edge5_trump_lead_must_be_followed_with_a_2():
    state = to_play(make_deal({0: ("3H", None), 1: ("2C 7S 9D", "SDC")}))
    state.apply("3H", 0)
    assert faces(state.legal_actions(1)) == {"2C"}
    refused(state, "7S", 1, "must follow trump")


def test_s3_3_edge7_singles_only():
    state = to_play(make_deal({0: ("KS QS", None)}))
    refused(state, "KS QS", 0, "exactly one card")
    state.apply("KS", 0)
    two = " ".join(c.face for c in state.hands[1][:2])
    refused(state, two, 1, "exactly one card")


def test_s3_3_leader_may_lead_any_card_and_never_obliged_to_trump():
    state = to_play(make_deal({0: ("AS", None), 1: ("3H 9C", "DC")}))
    assert faces(state.legal_actions(0)) == {c.face for c in state.hands[0]}
    state.apply("AS", 0)
    legal = faces(state.legal_actions(1))
    assert "9C" in legal and "3H" in legal


def test_s3_3_card_not_in_hand_refused():
    state = to_play(make_deal({1: ("AS", "DC")}))
    refused(state, "AS", 0, "not in your hand")


# ----- §3.4 trick winner (edge cases 3, 4, 6) ----------------------------------------------------
def test_s3_4_edge3_void_the_2_of_the_led_suit_trumps():
    state = to_play(make_deal({0: ("AS", None), 1: ("2S 9C", "DC"), 2: ("KS", "SDC"), 3: ("3H", "DC")}))
    state.apply("AS", 0)
    assert faces(state.legal_actions(1)) >= {"2S", "9C"}
    for seat, card in ((1, "2S"), (2, "KS"), (3, "3H")):
        state.apply(card, seat)
    assert state.tricks[-1][2] == 1 and state.to_act == (1,)


def test_s3_4_edge4_equal_non_trump_2s_earlier_wins():
    state = to_play(make_deal({0: ("KC", None), 1: ("2S", "SD"), 2: ("2D", "H"), 3: ("3H", "SD")}))
    for seat, card in ((0, "KC"), (1, "2S"), (2, "2D"), (3, "3H")):
        state.apply(card, seat)
    assert state.tricks[-1][2] == 1


def test_s3_4_edge6_higher_card_of_another_side_suit_cannot_win():
    state = to_play(make_deal({0: ("3S", None), 1: ("AD", "DC"), 2: ("4S", None), 3: ("9C", "DC")}))
    for seat, card in ((0, "3S"), (1, "AD"), (2, "4S"), (3, "9C")):
        state.apply(card, seat)
    assert state.tricks[-1][2] == 2 and state.to_act == (2,)


# ----- §3.5 flow ------------------------------------------------------------------------------
def test_s3_5_dealer_leads_twelve_tricks():
    state = GAME.new_state(seed=19, deal={"first_bidder": 3})
    state.apply("bid 70", 3)
    for s in (0, 1, 2):
        state.apply("pass", s)
    state.apply(state.default_action(3), 3)
    state.apply("trump D", 3)
    assert state.to_act == (3,) and state.clock_phase(3) == "first_lead"
    while not state.is_terminal():
        state.apply(state.default_action(state.turn))
    assert len(state.tricks) == 12 and all(len(h) == 0 for h in state.hands)


# ----- §4 scoring (edge cases 14-19) -------------------------------------------------------------
def test_s4_2_need_and_base():
    assert [need(c) for c in (60, 65, 70, 75, 80)] == [45, 40, 35, 30, 25]
    assert [base(c) for c in (60, 65, 70, 75, 80)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("case, contract, d, last, dig, dealer, defender", [
    ("edge14 made", 70, 30, False, True, 9, -3),
    ("edge15 set at the boundary", 70, 35, False, True, -9, 3),
    ("edge16 heavily set", 70, 70, False, True, -18, 6),
    ("edge17 shut-out", 80, 0, False, True, 45, -15),
    ("edge18 dig", 60, 20, True, True, -6, 2),
    ("edge18 dig off", 60, 20, True, False, 3, -1),
    ("edge19 kitty never counts for defenders", 60, 50, False, True, -3, 1),
    ("dig with set", 60, 50, True, True, -9, 3),
    ("dig with heavy set", 60, 90, True, True, -12, 4),
])
def test_s4_3_standard_payout(case, contract, d, last, dig, dealer, defender):
    p = settle(contract, d, last, "standard", dig)
    assert (p.dealer, p.defender) == (dealer, defender), case
    assert p.dealer == -3 * p.defender                 # zero-sum over four seats


def test_s4_3_simple_payout():
    assert (settle(80, 0, False, "simple").dealer, settle(80, 0, True, "simple").dealer) == (3, 3)
    assert settle(60, 45, False, "simple").defender == 1
    assert settle(60, 44, True, "simple").defender == -1


def test_s4_1_kitty_points_go_to_the_dealer_not_to_d():
    deal = make_deal({0: ("KS TD 5C", None)})
    state = GAME.new_state(deal=deal)
    state.apply("bid 60", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    rest = [c.face for c in state.hands[0] if c.face not in ("KS", "TD", "5C") and c.rank not in "5TK"][:3]
    state.apply("bury KS TD 5C " + " ".join(rest), 0)
    state.apply("trump H", 0)
    while not state.is_terminal():
        state.apply(state.default_action(state.turn))
    d = state.result.details
    assert d["kitty_points"] == 25
    won = sum(points(c) for _, plays, w in state.tricks if w != 0 for _, c in plays)
    assert d["defender_points"] == won and d["dealer_points"] == 100 - won
    dealer_tricks = sum(points(c) for _, plays, w in state.tricks if w == 0 for _, c in plays)
    assert dealer_tricks + 25 == 100 - won


def test_s4_result_shape():
    state = GAME.new_state(seed=21)
    while not state.is_terminal():
        state.apply(state.default_action(state.turn))
    r = state.result
    dealer = r.details["dealer"]
    assert sum(r.returns) == 0 and r.text.count(" ") == 3
    assert r.reason == r.details["outcome"] in ("shutout", "made", "set", "heavy_set", "dig")
    assert (r.winners == (dealer,)) == r.details["made"]
    assert r.details["next_first_bidder"] == dealer
    assert state.sides() == [(dealer,), tuple(s for s in range(4) if s != dealer)]


# ----- §5 competition format (edge case 20) ------------------------------------------------------
def test_s5_edge20_match_tie_plays_one_more_hand():
    m = MatchScore(hands=20)
    for _ in range(19):
        m.add([0, 0, 0, 0])
    m.add([3, -3, 3, -3])
    assert m.played == 20 and not m.over and m.winner is None
    m.add([-1, -1, 3, -1])
    assert m.over and m.winner == 2 and m.extra_hands == 1
    with pytest.raises(ValueError):
        m.add([0, 0, 0, 0])


def test_s5_redeals_do_not_count_as_hands():
    from qipai.bots import make_bot
    from qipai.games.sandayi.match import play_match

    bot = make_bot("sandayi", "rule", 0)
    m = play_match(qipai.load("sandayi", hands=3), bot.choose, seed="r")
    assert m.played >= 3


def test_s5_default_actions():
    state = GAME.new_state(seed=22, deal={"first_bidder": 0})
    assert str(state.default_action(0)) == "pass" and state.default_action(1) is None
    state.apply("bid 70", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    kitty = sorted(c.face for c in state.kitty)
    bury = state.default_action(0)
    assert sorted(c.face for c in bury.cards) == kitty
    state.apply(bury, 0)
    counts = {s: sum(1 for c in state.hands[0] if c.suit == s) for s in "SHDC"}
    best = max(counts.values())
    expect = next(s for s in "DCHS" if counts[s] == best)
    assert str(state.default_action(0)) == f"trump {expect}"


def test_s5_default_lead_and_follow_order():
    state = to_play(make_deal({0: ("3C 3D BJ", None), 1: ("4S 9C", "DC")}))
    # lowest non-trump pos; ties D, C, H, S -> 3D before 3C
    assert str(state.default_action(0)) == "3D"
    state.apply("3C", 0)
    assert str(state.default_action(1)) == min(
        (c for c in state.hands[1] if c.suit == "C"), key=lambda c: pos(c, "H")).face


def test_s5_default_lead_lowest_trump_when_only_trumps():
    deal = make_deal({0: ("2S 2D 2C 2H LJ BJ 3H 4H 5H 6H 7H 8H", "")})
    state = to_play(deal)
    assert str(state.default_action(0)) == "3H"
    for f in ("3H",):
        state.apply(f, 0)
    for s in (1, 2, 3):
        state.apply(state.default_action(s), s)
    while state.turn != 0 or state.trick:
        state.apply(state.default_action(state.turn))
    order = "DCHS"
    low = min(state.hands[0], key=lambda c: (pos(c, "H"), order.index(c.suit) if c.suit else 4))
    assert str(state.default_action(0)) == low.face


def test_s5_clock_phases():
    state = GAME.new_state(seed=23, deal={"first_bidder": 0})
    assert state.clock_phase(0) == "bid"
    state.apply("bid 80", 0)
    for s in (1, 2, 3):
        state.apply("pass", s)
    assert state.clock_phase(0) == "bury"
    state.apply(state.default_action(0), 0)
    assert state.clock_phase(0) == "declare"
    state.apply("trump C", 0)
    assert state.clock_phase(0) == "first_lead"
    state.apply(state.default_action(0), 0)
    assert state.clock_phase(1) is None


def test_s5_view_shows_trick_last_trick_own_hand_and_d():
    state = to_play(make_deal({}))
    for _ in range(5):
        state.apply(state.default_action(state.turn))
    v = state.view(2)
    assert v["hand"] == [c.face for c in state.hands[2]] and "hands" not in v
    assert len(v["trick"]) == 1 and len(v["last_trick"]["cards"]) == 4
    assert v["defender_points"] == state.defender_points
    assert v["counts"] == [len(h) for h in state.hands]
    assert state.view(None)["hand"] is None


# ----- §6 notation -------------------------------------------------------------------------------
def test_s6_card_codes_and_action_texts():
    from qipai.games.sandayi.actions import parse

    assert str(parse("10h", "play")) == "TH" and str(parse("TH0", "play")) == "TH"
    assert str(parse("65", "bid")) == "bid 65" and str(parse("h", "trump")) == "trump H"
    assert str(parse("bury bj 3d kh 5c 2s ts")) == "bury 2S 3D 5C TS KH BJ"
    for bad in ("TH1", "ZZ", "1H", "bid x", "bid", "trump X"):
        with pytest.raises(IllegalAction):
            parse(bad, "play")
    with pytest.raises(IllegalAction):
        parse("3D 3D", "bury")


# ----- start and options validation --------------------------------------------------------------
def test_bad_deals_and_options_refused():
    with pytest.raises(NotationError):
        GAME.new_state(deal={"hands": [[]] * 4, "kitty": []})
    with pytest.raises(NotationError):
        GAME.new_state(seed=1, deal={"first_bidder": 4})
    with pytest.raises(NotationError):
        GAME.new_state(seed=1, deal=make_deal({}))
    with pytest.raises(NotationError):
        GAME.new_state(position="x")
    for bad in ({"bids": [60, 60]}, {"bids": [61]}, {"bids": "a,b"}, {"bids": []}, {"bids": [60, 105]},
                {"expose_kitty_max": "x"}, {"payout": "x"}, {"max_redeals": -1}, {"hands": 0}):
        with pytest.raises(OptionError):
            qipai.load("sandayi", **bad)


def test_s5_next_hand_starts_from_the_previous_dealer():
    from qipai.bots import make_bot

    bot = make_bot("sandayi", "rule", 0)
    m = MatchScore()
    state = GAME.new_state(seed="h1", deal=m.next_deal())
    while not state.is_terminal():
        state.apply(bot.choose(state, state.turn))
    m.add(state.returns(), state.result.details["next_first_bidder"])
    nxt = GAME.new_state(seed="h2", deal=m.next_deal())
    assert nxt.first_bidder == state.result.details["dealer"] == nxt.to_act[0]
    with pytest.raises(ValueError):
        m.add([1, -1, 0])
