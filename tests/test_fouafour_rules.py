"""4A4 rules, one test (or more) per section and edge case of ``rules/fouafour.md``."""

from __future__ import annotations

import json
import re

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError
from qipai.core.record import Record
from qipai.games.fouafour import ALL_PLAYS, FOUAFOUR, JOKER_BOMB, answers, leads, play_of
from qipai.games.fouafour.combos import ORDER
from qipai.games.fouafour.game import draw_deal
from qipai.games.fouafour.match import SeriesScore
from tests.fouafour_helpers import decline_window, make_deal, new, run


def P(text: str):
    return qipai.load("fouafour").parse_action(text)


def texts(actions) -> list[str]:
    return [str(a) for a in actions]


# ----- §2.2 deal (edge 18) --------------------------------------------------------------------
def test_s2_2_edge18_dealer_3_gives_seats_0_and_1_fourteen_cards():
    d = draw_deal(5, dealer=3)
    assert [len(h) for h in d["hands"]] == [14, 14, 13, 13]
    d = draw_deal(5, dealer=0)
    assert [len(h) for h in d["hands"]] == [13, 14, 14, 13]
    ids = [c for h in d["hands"] for c in h]
    assert len(set(ids)) == 54 and {"LJ0", "BJ0"} <= set(ids)


def test_s2_2_seed_draws_the_dealer_and_a_partial_deal_sets_it():
    game = qipai.load("fouafour")
    s = game.new_state(seed=9)
    assert s.deal == draw_deal(9) and s.dealer == draw_deal(9)["dealer"]
    t = game.new_state(seed=9, deal={"dealer": (s.dealer + 1) % 4})
    assert t.dealer == (s.dealer + 1) % 4
    assert sorted(map(len, t.deal["hands"])) == [13, 13, 14, 14]
    # a replay with the seed and the whole deal checks that they agree
    assert game.new_state(seed=9, deal=t.deal).deal == t.deal
    with pytest.raises(NotationError, match="does not match the seed"):
        game.new_state(seed=10, deal=t.deal)


def test_s2_2_bad_deals_are_refused():
    game = qipai.load("fouafour")
    good = make_deal()
    with pytest.raises(NotationError, match="14"):
        game.new_state(deal={**good, "dealer": 0})
    bad = json.loads(json.dumps(good))
    bad["hands"][0][0] = bad["hands"][1][0]
    with pytest.raises(NotationError, match="54-card"):
        game.new_state(deal=bad)
    with pytest.raises(NotationError, match="dealer"):
        game.new_state(deal={"dealer": 7, "hands": good["hands"]})
    with pytest.raises(NotationError, match="partial deal"):
        game.new_state(seed=1, deal={"dealer": 1, "extra": 2})
    with pytest.raises(NotationError):
        game.new_state(seed=1, num_seats=3)


# ----- §2.3 first lead (edge 17) ---------------------------------------------------------------
def test_s2_3_edge17_the_3h_holder_leads_without_playing_3h():
    s = new("", "", "3H 55")
    assert s.first_leader == 2 and s.current_player == 2
    assert s.view(0)["shown"] == "3H0" and s.view(None)["first_leader"] == 2
    s.apply("55")
    assert s.hands[2].holds_card(qipai.cards.parse_card("3H"))


# ----- §3.1-§3.2 combinations (edges 4, 5, 21) ---------------------------------------------------
def test_s3_2_edge4_straights():
    assert (P("345").type, P("345").length) == ("straight", 3)
    assert P("QKA").type == "straight" and P("QKA").key == ORDER.index["A"]
    for bad in ("34", "KA2", "A23", "JQKA2"):
        with pytest.raises(IllegalAction):
            P(bad)
    with pytest.raises(IllegalAction, match="never join"):
        P("KA2")


def test_s3_2_edge5_sisters():
    assert (P("334455").type, P("334455").length) == ("sisters", 3)
    for bad in ("3344", "KKAA22", "33445566LL"):
        with pytest.raises(IllegalAction):
            P(bad)


def test_s3_2_every_card_set_has_exactly_one_type():
    assert len({p.counts for p in ALL_PLAYS}) == len(ALL_PLAYS)
    assert P("44A") is FOUAFOUR and P("LB") is JOKER_BOMB
    assert P("444").type == "bomb3" and P("4444").type == "bomb4"
    for bad in ("LL", "2L", "4A", "444A", "3335"):
        with pytest.raises(IllegalAction):
            P(bad)


def test_s3_6_edge21_lead_counts():
    assert len(leads(ORDER.parse_counts("3344556677AA2L"))) == 27
    lead = leads(ORDER.parse_counts("44A456789TJQKB"))
    assert len(lead) == 60
    kinds = [p.type for p in lead]
    assert (kinds.count("single"), kinds.count("pair"), kinds.count("bomb3"), kinds.count("straight"),
            kinds.count("fouafour")) == (12, 1, 1, 45, 1)


# ----- §3.3 comparison (edges 1, 2, 3, 6) -------------------------------------------------------
def test_s3_3_edge1_fouafour_beats_everything_and_nothing_beats_it():
    assert FOUAFOUR.beats(JOKER_BOMB) and FOUAFOUR.beats(P("2222"))
    assert not any(p.beats(FOUAFOUR) for p in ALL_PLAYS)            # D9: not even a second 44A
    assert [p for p in ALL_PLAYS if p.beats(JOKER_BOMB)] == [FOUAFOUR]


def test_s3_3_edge2_bomb_classes():
    assert JOKER_BOMB.beats(P("2222")) and P("3333").beats(P("222"))
    assert P("333").beats(P("3456789")) and P("333").beats(P("B"))
    assert not P("222").beats(P("3333"))


def test_s3_3_edge3_bombs_of_one_class_by_rank():
    assert P("555").beats(P("444")) and P("2222").beats(P("AAAA"))
    assert not P("444").beats(P("555"))


def test_s3_3_edge6_non_bombs_need_type_and_length():
    assert P("456").beats(P("345"))
    assert not P("4567").beats(P("345")) and not P("55").beats(P("345"))
    assert P("B").beats(P("L")) and P("L").beats(P("2")) and P("2").beats(P("A"))
    hand = ORDER.parse_counts("456789")
    assert texts(answers(hand, P("345"))) == ["456", "567", "678", "789"]


# ----- §3.4 叉 and 勾 (edges 7-11) ----------------------------------------------------------------
def _cha_table():
    """Seat 0 leads with one 7; seat 2 holds 77; seat 3 the fourth 7; seat 1 holds 2222, LB, 44A."""
    return new("3H 7S", "2S 2H 2C 2D LJ BJ 4S 4H AS", "7H 7C", "7D")


def test_s3_4_edge7_cha_before_the_next_turn_then_gou_wins_the_trick():
    s = _cha_table()
    s.apply("7")
    assert s.phase == "cha" and s.to_act == (1, 2, 3)          # every other seat answers
    assert texts(s.legal_actions(1)) == ["pass"] and texts(s.legal_actions(3)) == ["pass"]
    assert texts(s.legal_actions(2)) == ["pass", "cha 77"]
    with pytest.raises(IllegalAction, match="window"):
        s.apply("2222", seat=1)
    s.apply("cha 77", seat=2)
    assert s.phase == "gou" and s.to_act == (0, 1, 3)
    assert texts(s.legal_actions(3)) == ["pass", "gou 7"]
    s.apply("7", seat=3)                                       # bare card read as the gou
    assert s.log[-1] == [3, "gou 7"]
    assert s.phase == "play" and s.current_player == 3 and s.top is None
    plays = s.view(None)["plays"]
    assert [p[:2] for p in plays] == [[0, "7"], [2, "cha 77"], [3, "gou 7"]]
    # each play names the cards laid face up: the four sevens, once each
    assert [len(p[2]) for p in plays] == [1, 2, 1]
    assert sorted(c for p in plays for c in p[2]) == ["7C0", "7D0", "7H0", "7S0"]


def test_s3_4_edge8_nobody_gou_the_cha_player_leads():
    s = _cha_table()
    run(s, "7", "2:cha 77")
    decline_window(s)
    assert s.current_player == 2 and s.top is None


def test_s3_4_edge9_no_window_after_a_joker_single():
    s = new("3H LJ")
    s.apply("L")
    assert s.phase == "play" and s.to_act == (1,)


def test_s3_4_edge10_declining_keeps_normal_turn_rights():
    s = new("3H 7S", "9S", "7H 7C KS", "")
    s.apply("7")
    decline_window(s)
    assert s.current_player == 1
    s.apply("9")
    decline_window(s)
    assert s.current_player == 2 and "K" in texts(s.legal_actions())
    s.apply("K")
    assert s.top_seat == 2


def test_s3_4_edge11_after_a_cha_only_the_gou_card():
    s = _cha_table()
    run(s, "7", "2:cha 77")
    before = json.dumps(s.to_json())
    for bad in ("LB", "44A", "2222", "88"):
        with pytest.raises(IllegalAction, match="only the 勾 card"):
            s.apply(bad, seat=1)
    assert json.dumps(s.to_json()) == before


def test_s3_4_cha_and_gou_only_in_their_window():
    s = _cha_table()
    with pytest.raises(IllegalAction, match="no 叉/勾 window"):
        s.apply("cha 77", seat=0)
    with pytest.raises(IllegalAction, match="takes 2"):
        P("cha 7")
    s.apply("7")
    with pytest.raises(IllegalAction, match="not in your hand"):
        s.apply("cha 77", seat=1)


def test_s3_4_the_single_player_may_gou():
    s = new("3H 7S 7D", "", "7H 7C")
    run(s, "7", "2:cha 77")
    assert texts(s.legal_actions(0)) == ["pass", "gou 7"]
    s.apply("gou 7", seat=0)
    assert s.current_player == 0


def test_s3_4_a_single_that_is_its_players_last_card_can_be_cha_d():
    s = new("3H 4S 5S 6S 7S 8S 9S TS JS QS KS AS LJ 9H", "9D 9C")
    run(s, "3456789TJQKA", "pass", "pass", "pass", "L", "pass", "pass", "pass", "9")
    assert s.finished == [0] and s.to_act == (1, 2, 3)
    assert texts(s.legal_actions(1)) == ["pass", "cha 99"]
    s.apply("cha 99", seat=1)
    assert s.to_act == (2, 3)                                  # the finished seat 0 is not asked
    decline_window(s)
    assert s.current_player == 1


# ----- §3.5 turn flow and 接风 (edges 15, 16) -----------------------------------------------------
def _last_nine():
    """Seat 0 leads its 12-card straight and L, then holds only a 9; nobody holds two 9s or Ks."""
    s = new("3H 4S 5S 6S 7S 8S 9S TS JS QS KS AS LJ 9H", "9D KD", "KH", "9C KC")
    run(s, "3456789TJQKA", "pass", "pass", "pass", "L", "pass", "pass", "pass")
    assert s.current_player == 0 and len(s.hands[0]) == 1
    return s


def test_s3_5_leader_must_play_and_followers_may_pass():
    s = new("3H")
    with pytest.raises(IllegalAction, match="leader must play"):
        s.apply("pass")
    s.apply(s.legal_actions()[0])
    decline_window(s) if s.window else None
    assert "pass" in texts(s.legal_actions())


def test_s3_5_edge15_partner_leads_after_the_last_card_goes_unbeaten():
    s = _last_nine()
    s.apply("9")
    assert s.finished == [0]
    decline_window(s)
    run(s, "pass", "pass", "pass")
    assert s.current_player == 2 and s.top is None


def test_s3_5_edge16_a_finished_player_is_skipped():
    s = _last_nine()
    s.apply("9")
    decline_window(s)
    s.apply("K")
    decline_window(s)
    assert s.current_player == 2
    run(s, "pass", "pass")
    assert s.current_player == 1 and s.top is None


# ----- §4 outcomes (edges 12, 13, 14) and first_out_wins ---------------------------------------------
FULL = ("3H 4S 5S 6S 7S 8S 9S TS JS QS KS AS LJ BJ", "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 2C",
        "3S 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H", "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S")
SEAT0_OUT = ("3456789TJQKA", "pass", "pass", "pass", "LB", "pass", "pass", "pass")
SEAT1_OUT = ("456789TJQKA", "pass", "pass", "3", "1:pass", "3:pass", "pass", "2", "2:pass", "3:pass",
             "pass", "pass", "3456789TJQKA", "pass", "pass", "2", "2:pass", "3:pass", "pass", "pass")


def test_s4_edge12_both_partners_out_first_wins_while_opponents_hold_cards():
    s = run(new(*FULL), *SEAT0_OUT)
    assert s.current_player == 2                               # 接风
    run(s, "456789TJQKA", "pass", "pass", "3", "1:pass", "3:pass", "pass", "pass", "2")
    assert s.result.details["order"] == [0, 2] and s.result.text == "1-0"
    assert s.result.winners == (0, 2) and s.result.returns == (1.0, 0.0, 1.0, 0.0)
    assert s.result.details["cards_left"][1] > 0 and s.result.details["cards_left"][3] > 0


def test_s4_edge13_order_a_b_a_wins_for_a():
    s = run(new(*FULL), *SEAT0_OUT, *SEAT1_OUT)
    assert s.finished == [0, 1] and s.current_player == 3
    run(s, "456789TJQKA", "pass", "3", "2:pass", "2")
    assert s.result.details["order"] == [0, 1, 2] and s.result.details["outcome"] == "win"
    assert s.result.winners == (0, 2)


def test_s4_edge14_order_a_b_b_is_a_draw():
    s = run(new(*FULL), *SEAT0_OUT, *SEAT1_OUT)
    run(s, "3456789TJQKA", "pass", "2")
    assert s.result.details["order"] == [0, 1, 3] and s.result.text == "1/2-1/2"
    assert s.result.winners == () and s.result.returns == (0.5,) * 4


def test_s5_option_first_out_wins_ends_the_deal_at_the_first_player_out():
    plain = run(new(*FULL), *SEAT0_OUT[:5])
    assert not plain.is_terminal()
    s = run(new(*FULL, first_out_wins=True), *SEAT0_OUT[:5])
    assert s.result.reason == "first_out" and s.result.winners == (0, 2)
    assert s.result.details["order"] == [0] and s.result.details["first_out_wins"] is True


# ----- §5 match (edges 19, 20) --------------------------------------------------------------------
def test_s5_edge19_two_wins_end_the_match():
    m = SeriesScore()
    m.add(0)
    m.add(0)
    assert m.over and m.winner == 0 and len(m.outcomes) == 2
    with pytest.raises(ValueError):
        m.add(1)


def test_s5_edge20_level_after_three_extra_then_first_out_deal():
    m = SeriesScore()
    for o in (0, None, 1):
        assert m.next_options() == {"first_out_wins": False}
        m.add(o)
    assert not m.over and m.wins == [1, 1]
    m.add(None)                                               # first extra deal drawn
    assert not m.over and m.next_options() == {"first_out_wins": True}
    with pytest.raises(ValueError, match="cannot be drawn"):
        m.add(None)
    m.add(1)
    assert m.winner == 1 and m.extra == 2


def test_s5_more_wins_after_three_deals_advance():
    m = SeriesScore()
    for o in (0, None, None):
        m.add(o)
    assert m.winner == 0
    n = SeriesScore()
    for o in (None, None, None, 1):
        n.add(o)
    assert n.winner == 1


# ----- timeouts, clock phases, external endings ------------------------------------------------------
def test_s3_5_default_actions_and_clock_phases():
    s = _cha_table()
    assert s.clock_phase(0) == "first_lead"
    low = s.default_action(0)
    assert str(low) == ORDER.ranks[ORDER.rank_of(s.hands[0].lowest())]
    s.apply("7")
    assert s.clock_phase(1) == "claim"
    assert all(str(s.default_action(x)) == "pass" for x in (1, 2, 3))
    assert s.default_action(0) is None
    decline_window(s)
    assert s.clock_phase(1) is None and str(s.default_action(1)) == "pass"


def test_external_endings_resign_draw_and_replay():
    s = new("3H")
    s.resign(1)
    assert s.result.winners == (0, 2) and s.result.text == "1-0" and s.result.reason == "resign"
    again = qipai.replay(Record.from_json(s.to_json()))
    assert again.result.winners == (0, 2)
    t = new("3H")
    t.agree_draw()
    assert t.result.text == "1/2-1/2"
    assert qipai.replay(Record.from_json(t.to_json())).result.returns == (0.5,) * 4


# ----- notation and bad input ------------------------------------------------------------------------
def test_s6_every_play_text_round_trips():
    for p in ALL_PLAYS:
        assert P(p.text) is p and play_of(p.counts) is p
    assert P("LJ BJ") is JOKER_BOMB and P("4S 4H AS") is FOUAFOUR and P("10JQ") is P("TJQ")
    assert P("叉 77").text == "cha 77" and P("勾 7").text == "gou 7"


def test_bad_input_is_refused_with_the_state_unchanged():
    s = _cha_table()
    before = json.dumps(s.to_json())
    for bad in ("@@", "", "7S 7S", "XX", "99999"):
        with pytest.raises(IllegalAction):
            s.apply(bad)
    with pytest.raises(IllegalAction, match="not to act"):
        s.apply("7", seat=1)
    with pytest.raises(IllegalAction, match="no seat"):
        s.apply("7", seat=4)
    with pytest.raises(IllegalAction, match="not in your hand"):
        s.apply("2222")
    assert json.dumps(s.to_json()) == before


def test_views_never_show_another_seats_cards():
    s = _cha_table()
    s.apply("7")
    for seat in (0, 1, 2, 3, None):
        text = json.dumps(s.view(seat))
        shown = set(re.findall(r"\b(?:[2-9TJQKA][SHDC]|LJ|BJ)0\b", text)) - {"3H0"}
        mine = {c.id for c in s.hand(seat)} if seat is not None else set()
        laid = {c for p in s.view(seat)["plays"] if len(p) > 2 for c in p[2]}
        assert laid == {"7S0"}                                   # seat 0's 7, laid face up
        assert shown <= mine | laid
