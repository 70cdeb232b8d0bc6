"""保皇: one test per rule of ``rules/baohuang.md`` Part A (section named in each test) and every
edge case of its §8."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.baohuang import ORDER, from_counts
from qipai.games.baohuang.game import SEATS
from qipai.games.baohuang.tribute import largest
from tests.baohuang_helpers import finish_in_order, make_deal, set_hands, start_play


def s(text: str):
    """The set written as a rank string."""
    return from_counts(ORDER.parse_counts(text))


# ----- §3.2-§3.3 sets and comparison (§8 cases 1-8) ----------------------------------------------

@pytest.mark.parametrize("top, follow, beats", [
    ("999", "TTT", True), ("999", "888", False), ("999", "TTTT", False),        # case 1
    ("999", "TTL", True),                                                         # case 2
    ("999", "44B", False),                                                        # case 3
    ("LL999", "BBJJJ", True), ("LL999", "BBBJJ", True), ("LL999", "BJJJJ", True),
    ("LL999", "LLJJJ", False), ("LL999", "KKKKK", False),                         # case 4
    ("B3333", "BB222", False), ("B3333", "BBBBB", False),                         # case 5
    ("LL", "BB", True), ("LL", "LB", False), ("LL", "22", False),                 # case 6
    ("2", "L", True), ("2", "B", True), ("L", "B", True), ("L", "L", False),      # case 7
    ("22", "LL", True), ("22", "LB", True),                                       # case 8
    ("LLL", "BBB", True), ("LLL", "LLB", False), ("B", "B", False),               # §3.3 consequences
])
def test_s3_3_comparison_edge_cases(top, follow, beats):
    assert s(follow).beats(s(top)) is beats


def test_s3_2_base_rank_and_class():
    assert (s("999LL").base, s("999LL").cls) == (ORDER.index["9"], 1)
    assert (s("LB").base, s("LB").cls) == (ORDER.index["L"], 2)
    assert (s("BB").base, s("BB").cls) == (ORDER.index["B"], 2)
    assert (s("2BB").base, s("2BB").size) == (ORDER.index["2"], 3)       # D6: a 2 among big jokers
    with pytest.raises(ValueError, match="one normal rank"):
        s("99TT")


def test_s3_3_answers_match_beats_on_the_table():
    state = start_play(0, 1)
    set_hands(state, {0: "9993", 1: "TTTLB44B", 2: "888", 3: "KKKK", 4: "LLBB"})
    state.apply("999")
    got = {str(a) for a in state.legal_actions()}
    assert got == {"pass", "TTT", "TTL", "TTB", "TLB", "TBB", "LBB"}
    state.apply("pass")
    assert {str(a) for a in state.legal_actions()} == {"pass"}        # 888 is not higher
    state.apply("pass")
    assert "KKK" in {str(a) for a in state.legal_actions()}


def test_s3_6_case_23_distinct_lead_counts():
    state = start_play(0, 1)
    set_hands(state, {0: "33LB", 1: "555KLLB", 2: "4", 3: "5", 4: "6"})
    assert len(state.legal_actions()) == 11
    state.apply("3")
    state.apply("pass")
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == 0 and state.top is None
    set_hands(state, {0: "555KLLB", 1: "4", 2: "5", 3: "6", 4: "7"})
    assert len(state.legal_actions()) == 29


# ----- §2.2 deal ------------------------------------------------------------------------------

def test_s2_2_deal_holds_back_the_reserved_joker_and_deals_43_each():
    state = qipai.load("baohuang").new_state(seed=11)
    dealt = state.dealt[0]["hands"]
    assert [len(h) for h in dealt] == [43] * 5
    assert "BJ0" not in {c for h in dealt for c in h}
    assert len({c for h in dealt for c in h}) == 215
    again = qipai.load("baohuang").new_state(seed=11)
    assert again.dealt == state.dealt                                      # seeded and portable


def test_s4_5_reserved_joker_option_changes_the_package():
    state = qipai.load("baohuang", reserved_joker="BJ2").new_state(seed=3)
    assert "BJ2" not in {c for h in state.dealt[0]["hands"] for c in h}
    assert state.package[0].id == "BJ2"
    assert state.view(None)["package"][0] == "BJ0"      # shown as its face: labels are no pack index
    default = qipai.load("baohuang").new_state(seed=3)
    assert default.package[0].id == "BJ0"


# ----- §2.4 emperor selection -----------------------------------------------------------------

def test_s2_4_case_9_no_triple_declines_automatically_without_a_2():
    deal = make_deal({2: ["2S0", "2S1"], 1: ["9H0", "9H1", "9H2"]}, c0=2)
    state = qipai.load("baohuang").new_state(deal=deal)
    assert state.triples(2) == {}
    # the decline is his only legal action, and he is asked like any candidate: the engine does
    # not decline for him, so a decline never tells the others whether it was forced
    assert state.candidate == 2 and state.selection == []
    assert [str(a) for a in state.legal_actions()] == ["decline"]
    assert state.default_action(2) == state.legal_actions()[0]
    state.apply("decline")
    assert state.selection == [(2, "decline", False)]
    assert state.candidate == 1 and [c.id for c in state.package] == ["BJ0"]
    assert state.sizes[2] == 43


def test_s2_4_case_10_second_candidate_adds_its_lowest_2():
    deal = make_deal({2: ["9H0", "9H1", "9H2"], 1: ["2S0", "2H3", "8D0", "8D1", "8D2"]}, c0=2,
                     avoid={1: "2"})
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("decline")                       # c0's first decline adds nothing
    assert state.candidate == 1
    # offered as the seat is shown its hand (2H0: its first 2H); the record keeps the copy moved
    assert [str(a) for a in state.legal_actions()] == ["accept", "decline 2H0"]
    state.apply("decline")
    assert [c.id for c in state.package][:2] == ["BJ0", "2H3"]
    assert state.log[-1] == "decline 2H3" and len(state.selection) == 2 and state.candidate == 0
    assert state.sizes[1] == 42


def test_s2_4_decliner_may_choose_which_2():
    deal = make_deal({2: ["9H0", "9H1", "9H2"], 1: ["2S0", "2H3", "8D0", "8D1", "8D2"]}, c0=2,
                     avoid={1: "2"})
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("decline")
    state.apply("decline 2S0")
    assert [c.id for c in state.package][:2] == ["BJ0", "2S0"]


def test_s2_4_accept_takes_the_package_and_hand_sizes():
    deal = make_deal({4: ["9H0", "9H1", "9H2"], 3: ["2S0"], 0: ["8D0", "8D1", "8D2"]}, c0=0)
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("decline")                       # seat 0 (c0) adds nothing
    assert state.candidate == 4
    state.apply("decline")                       # seat 4 adds a 2
    # seat 3 has no triple: its only action is the decline adding its 2; seats 2 and 1 likewise
    for seat in (3, 2, 1):
        assert state.candidate == seat and len(state.legal_actions()) == 1
        state.apply(state.legal_actions()[0])
    assert state.candidate == 0 and state._second
    n2 = len(state.package) - 1
    state.apply("accept")
    assert state.emperor == 0 and state.phase == "declare"
    assert state.sizes[0] == 43 + 1 + n2
    assert sum(state.sizes) == 216


def test_s2_6_case_11_all_decline_then_c0_again_voids_the_deal():
    basis = {"emperor": 1, "guard": 2, "mode": "normal", "side_score": 4, "order": [1, 0, 2, 3, 4]}
    game = qipai.load("baohuang")
    state = game.new_state(seed="void-test", deal={"previous": basis})
    first_tribute = [(g, r) for g, r, _ in state.tribute]
    assert first_tribute
    while state.voids == 0:
        assert state.phase == "select"            # the default action of a candidate is to decline
        state.apply(state.default_action(state.current_player))
    assert len(state.dealt) == 2 and state.dealt[0] != state.dealt[1]
    assert [(g, r) for g, r, _ in state.tribute] == first_tribute     # D5: tribute applied again
    assert state.package[0].id == "BJ0" and len(state.package) == 1
    assert sum(state.sizes) == 215


def test_s2_4_package_returns_to_c0_with_all_2s():
    deal = make_deal({0: ["9H0", "9H1", "9H2"]}, c0=0)
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("decline")
    # seats 4..1 have no triple: each must decline, adding a 2 when it holds one
    for seat in (4, 3, 2, 1):
        legal = [a.text for a in state.legal_actions()]
        assert state.candidate == seat and legal == [state.default_action(seat).text]
        state.apply(state.default_action(seat))
    assert state.candidate == 0 and state.phase == "select"
    assert [s for s, _, auto in state.selection] == [0, 4, 3, 2, 1]
    assert len(state.package) == 1 + sum(1 for _, t, _ in state.selection if t.startswith("decline 2"))
    state.apply("decline")
    assert state.voids == 1


# ----- §2.5 declaring the guard ---------------------------------------------------------------

def test_s2_5_case_12_guard_is_told_privately():
    deal = make_deal({3: ["7H0", "7H2", "7H3"], 0: ["7H1"]}, c0=3)
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("accept")
    state.apply("declare 7H0 7H2 7H3")
    assert (state.mode, state.guard, state.emperor) == ("normal", 0, 3)
    assert state.view(0)["guard"] == 0
    for seat in (1, 2, 3, 4, None):
        v = state.view(seat)
        # the copies are identical: the public sees the lowest labels revealed whichever copies
        # were declared, the guard's copy takes the label left over ([D4]: no hint of a guard)
        assert v["guard"] is None and v["revealed"] == ["7H0", "7H1", "7H2"] and v["named_card"] == "7H"
    assert "7H3" in {c.id for c in state.hand(0)} and "7H1" not in {c.id for c in state.hand(0)}
    assert state.turn == 3                        # §3.4 the emperor leads


def test_s2_5_case_12_hidden_du_when_the_emperor_holds_the_fourth_copy():
    state = start_play(3, None)
    assert state.mode == "hidden_du" and state.guard is None
    assert state.view(3)["hidden_du"] is True
    assert state.view(0)["hidden_du"] is None and state.view(0)["mode"] == "declared"
    assert state.sides() == [(3,), (0, 1, 2, 4)]


def test_s2_5_ming_du_is_announced():
    state = start_play(2, None, four=True)
    assert state.mode == "ming_du"
    assert all(state.view(s)["ming_du"] for s in (0, 1, None))
    assert len(state.revealed) == 4


def test_s2_5_declare_shorthands():
    deal = make_deal({3: ["7H0", "7H2", "7H3", "7H1"]}, c0=3)
    state = qipai.load("baohuang").new_state(deal=deal)
    state.apply("accept")
    texts = [str(a) for a in state.legal_actions()]
    assert "declare 7H0 7H1 7H2" in texts and "declare 7H0 7H1 7H2 7H3" in texts
    c = state.clone()
    c.apply("declare 7Hx4")
    assert c.mode == "ming_du" and c.log[-1] == "declare 7H0 7H1 7H2 7H3"
    state.apply("declare 7H")
    assert state.mode == "hidden_du" and state.log[-1] == "declare 7H0 7H1 7H2"


def test_s2_3_case_13_illegal_declarations_and_triples():
    deal = make_deal({1: ["2S0", "2S1", "2S2", "LJ0", "LJ1", "LJ2", "5S0", "5S1", "5H0"],
                      0: ["9H0", "9H1", "9H2"]}, c0=1, avoid={1: "5"})
    state = qipai.load("baohuang").new_state(deal=deal)
    assert state.voids == 0 and state.triples(1) == {}   # only rank-2, joker, mixed-suit triples
    assert [str(a) for a in state.legal_actions()] == ["decline"]
    state.apply("decline")
    assert state.selection[0] == (1, "decline", False) and state.candidate == 0
    for text in ("declare 2S0 2S1 2S2", "declare LJ0 LJ1 LJ2", "declare 5S0 5S1 5H0", "declare 2S"):
        with pytest.raises(IllegalAction):
            qipai.load("baohuang").parse_action(text)


# ----- §3.4 turn flow, 接风 -------------------------------------------------------------------

def test_s3_4_leader_must_play_and_follower_may_pass():
    state = start_play(0, 1)
    assert "pass" not in {str(a) for a in state.legal_actions()}
    with pytest.raises(IllegalAction, match="leader must play"):
        state.apply("pass")
    state.apply(str(state.legal_actions()[0]))
    assert str(state.legal_actions()[0]) == "pass"


def test_s3_4_trick_ends_after_every_other_player_passed():
    state = start_play(0, 1)
    set_hands(state, {0: "33", 1: "44", 2: "55", 3: "66", 4: "77"})
    state.apply("3")
    for seat in (1, 2, 3, 4):
        assert state.current_player == seat
        state.apply("pass")
    assert state.current_player == 0 and state.top is None


def test_s3_4_case_20_jiefeng_succeeds():
    state = start_play(1, 2)
    set_hands(state, {1: "777", 2: "99", 3: "88", 4: "TT", 0: "55"})
    state.apply("777")
    assert state.finished == [1] and state.current_player == 2
    assert [str(a) for a in state.legal_actions()] == ["pass jiefeng"]
    state.apply("pass")                           # the applicant's pass carries the flag (D7)
    assert state.log[-1] == "pass jiefeng"
    for seat in (3, 4, 0):
        assert state.current_player == seat
        with pytest.raises(IllegalAction, match="接风"):
            state.apply("pass jiefeng")
        state.apply("pass")
    assert state.current_player == 2 and state.top is None


def test_s3_4_case_21_jiefeng_fails_when_someone_beats():
    state = start_play(1, 2)
    set_hands(state, {1: "777", 2: "99", 3: "66", 4: "8883", 0: "55"})
    state.apply("777")
    state.apply("pass jiefeng")
    state.apply("pass")
    state.apply("888")
    for seat in (0, 2, 3):                        # seat 1 has finished and is skipped
        assert state.current_player == seat
        state.apply("pass")
    assert state.current_player == 4 and state.top is None


# ----- §3.5 finishing, §4 scoring (§8 cases 14-17, 22) -----------------------------------------

def test_s4_2_case_14_seed_example():
    state = start_play(0, 1)
    finish_in_order(state, [0, 2, 3, 1, 4])       # emperor 1st, guard 4th
    r = state.result
    assert r.details["side_score"] == 2 and r.returns == (4, 2, -2, -2, -2)
    assert r.winners == (0, 1) and r.reason == "finished"
    assert r.details["places"] == [1, 4, 2, 3, 5]
    assert sum(r.returns) == 0


def test_s4_2_case_15_draw():
    state = start_play(0, 1)
    finish_in_order(state, [2, 0, 3, 1, 4])       # emperor 2nd, guard 4th: T = 0
    assert state.result.returns == (0,) * 5 and state.result.winners == ()
    assert state.result.details["tribute_basis"]["side_score"] == 0


def test_s4_3_case_16_hidden_du_emperor_first():
    state = start_play(0, None)
    finish_in_order(state, [0, 1, 2, 3, 4])
    assert state.result.returns == (16, -4, -4, -4, -4)
    assert state.result.details["mode"] == "hidden_du"


def test_s4_3_case_17_ming_du_emperor_second():
    state = start_play(0, None, four=True)
    finish_in_order(state, [1, 0, 2, 3, 4])
    assert state.result.returns == (16, -4, -4, -4, -4)
    assert state.result.details["multiplier"] == 2


def test_s4_2_revolutionaries_win():
    state = start_play(0, 1)
    finish_in_order(state, [2, 3, 4, 1, 0])       # T = -2 - 4 = -6
    assert state.result.returns == (-12, -6, 6, 6, 6) and state.result.winners == (2, 3, 4)


def test_s3_5_case_22_deal_goes_on_after_the_emperors_side_is_out():
    state = start_play(0, 1)
    set_hands(state, {0: "B", 1: "B", 2: "33", 3: "44", 4: "55"})
    state.apply("B")
    state.apply("pass jiefeng")                    # seat 1 cannot beat a big joker
    for _ in range(3):
        state.apply("pass")
    state.apply("B")
    assert state.finished == [0, 1] and not state.is_terminal()
    while not state.is_terminal():
        state.apply(state.default_action(state.current_player))
    assert state.result.returns == (12, 6, -6, -6, -6)


def test_s4_5_early_finish_stops_the_deal_with_the_same_score():
    state = start_play(0, 1, early_finish=True)
    set_hands(state, {0: "B", 1: "B", 2: "33", 3: "4", 4: "55"})
    state.apply("B")
    for _ in range(4):
        state.apply("pass")
    state.apply("B")
    r = state.result
    assert r.reason == "early_finish" and r.returns == (12, 6, -6, -6, -6)
    # unfinished players ordered by fewer cards left (seat 3), then play order from seat 2
    assert r.details["order"] == [0, 1, 3, 2, 4]


def test_s4_3_team_scoring_option():
    state = start_play(0, 1, individual_scoring="team")
    finish_in_order(state, [0, 2, 3, 1, 4])
    assert state.result.returns == (2, 2, -2, -2, -2)
    du = start_play(0, None, four=True, individual_scoring="team")
    finish_in_order(du, [1, 0, 2, 3, 4])
    assert du.result.returns == (4, -4, -4, -4, -4)


# ----- §4.4 tribute (§8 cases 18-19) ------------------------------------------------------------

def test_s4_4_case_18_tribute_after_the_emperors_side_won():
    basis = {"emperor": 0, "guard": 1, "mode": "normal", "side_score": 2, "order": [0, 2, 3, 1, 4]}
    deal = make_deal({0: ["3S0", "3S1", "3S2"], 2: ["BJ1"], 3: ["2S0"], 4: ["AS0"]}, c0=0,
                     previous=basis, avoid={2: "LB", 3: "2LB", 4: "A2LB"})
    state = qipai.load("baohuang").new_state(deal=deal)
    assert state.voids == 0
    got = [(g, r, c.id) for g, r, c in state.tribute]
    assert sorted(got) == sorted([(2, 0, "BJ1"), (3, 1, "2S0"), (4, 0, "AS0")])
    assert state.sizes == [45, 44, 42, 42, 42]
    assert {"BJ1", "AS0"} <= {c.id for c in state.hand(0)}
    # the exchange is public, each card shown as its face (the pack index is nobody's news)
    assert state.view(4)["tribute"] == [[g, r, c[:2] + "0"] for g, r, c in got]


def test_s4_4_case_19_tribute_after_the_emperors_side_lost():
    basis = {"emperor": 0, "guard": 1, "mode": "normal", "side_score": -4, "order": [2, 3, 1, 4, 0]}
    deal = make_deal({0: ["BJ1", "LJ0"], 1: ["2D0"], 2: ["3S0", "3S1", "3S2"]}, c0=2,
                     previous=basis, avoid={0: "LB", 1: "2LB"})
    state = qipai.load("baohuang").new_state(deal=deal)
    assert [(g, r, c.id) for g, r, c in state.tribute] == [(0, 2, "BJ1"), (0, 3, "LJ0"), (1, 4, "2D0")]


def test_s4_4_tribute_middle_card_goes_to_the_guard_and_ties_favour_earlier_finisher():
    basis = {"emperor": 0, "guard": 1, "mode": "normal", "side_score": 2, "order": [0, 4, 3, 1, 2]}
    deal = make_deal({0: ["3S0", "3S1", "3S2"], 2: ["AS0"], 3: ["AH0"], 4: ["KS0"]}, c0=0,
                     previous=basis, avoid={2: "A2LB", 3: "A2LB", 4: "KA2LB"})
    state = qipai.load("baohuang").new_state(deal=deal)
    # both aces: seat 3 finished earlier (3rd) than seat 2 (5th), so its ace counts as larger
    assert sorted((g, r, c.id) for g, r, c in state.tribute) == sorted(
        [(3, 0, "AH0"), (2, 1, "AS0"), (4, 0, "KS0")])


def test_s4_4_du_tributes_and_doubling():
    order = [1, 2, 3, 0, 4]                       # the emperor 4th: T = -2 (3rd would be a draw)
    hidden_won = {"emperor": 0, "guard": None, "mode": "hidden_du", "side_score": 4, "order": [0, 1, 2, 3, 4]}
    st = qipai.load("baohuang").new_state(seed=5, deal={"previous": hidden_won})
    assert sorted(g for g, r, _ in st.tribute) == [1, 2, 3, 4] and {r for _, r, _ in st.tribute} == {0}
    ming_lost = {"emperor": 0, "guard": None, "mode": "ming_du", "side_score": 0 - 2, "order": order}
    st = qipai.load("baohuang").new_state(seed=5, deal={"previous": ming_lost})
    hands = st.dealt[0]["hands"]
    from qipai.cards import parse_card
    top8 = [c.id for c in largest([parse_card(c) for c in hands[0]], 8)]
    assert [(g, r, c.id) for g, r, c in st.tribute] == [
        (0, rec, top8[i]) for i, rec in enumerate([1, 1, 2, 2, 3, 3, 4, 4])]
    ming_won = {**ming_lost, "side_score": 2, "order": [1, 0, 2, 3, 4]}
    st = qipai.load("baohuang").new_state(seed=5, deal={"previous": ming_won})
    assert len(st.tribute) == 8 and {r for _, r, _ in st.tribute} == {0}


def test_s4_4_no_tribute_after_a_draw_or_before_the_first_deal():
    basis = {"emperor": 0, "guard": 1, "mode": "normal", "side_score": 0, "order": [2, 0, 3, 1, 4]}
    assert qipai.load("baohuang").new_state(seed=5, deal={"previous": basis}).tribute == []
    assert qipai.load("baohuang").new_state(seed=5).tribute == []


def test_s4_4_largest_card_is_the_lowest_id_of_the_top_rank():
    from qipai.cards import parse_cards
    assert [c.id for c in largest(parse_cards("2S0 2D1 2D0 AS3 LJ2 LJ1"), 3)] == ["LJ1", "LJ2", "2D0"]


# ----- §3.4 D8 timeouts -----------------------------------------------------------------------

def test_d8_default_actions():
    deal = make_deal({1: ["9H0", "9H1", "9H2", "5D0", "5D1", "5D2"], 0: ["2S0"]}, c0=1)
    state = qipai.load("baohuang").new_state(deal=deal)
    assert str(state.default_action(1)) == "decline"
    assert state.default_action(0) is None                 # not that seat's turn
    state.apply("accept")
    assert str(state.default_action(1)) == "declare 5D0 5D1 5D2"
    state.apply(state.default_action(1))
    set_hands(state, {1: "44LB", 0: "33", 2: "5", 3: "6", 4: "7"})
    assert str(state.default_action(1)) == "4"
    state.apply("4")
    assert str(state.default_action(2)) == "pass"
    set_hands(state, {1: "LB", 0: "33", 2: "5", 3: "6", 4: "7"})
    state.top = None
    state.turn = 1
    assert str(state.default_action(1)) == "L"


# ----- §5 match ---------------------------------------------------------------------------------

def test_s5_match_carries_tribute_and_deals_per_match():
    from qipai.bots import make_bot
    from qipai.games.baohuang.match import Match
    game = qipai.load("baohuang", deals_per_match=2)
    match = Match(game, "m1")
    winner = None
    while winner is None:
        state = match.next_state()
        bots = [make_bot("baohuang", "rule", seed=i) for i in range(SEATS)]
        while not state.is_terminal():
            p = state.current_player
            state.apply(bots[p].choose(state, p))
        if len(match.states) >= 2:
            prev = match.states[-2].result.details["tribute_basis"]
            assert state.basis == prev
            if prev["side_score"]:
                assert state.tribute
        winner = match.record(state)
    assert match.score.played >= 2 and winner == match.score.leader()


def test_s5_time_limit_option():
    from qipai.games.baohuang.match import MatchScore
    short = MatchScore(None, time_limit_min=30)
    default = MatchScore(None, time_limit_min=qipai.load("baohuang").options["time_limit_min"])
    for m in (short, default):
        m.add([4, 2, -2, -2, -2])
    assert short.elapsed(45) and short.winner() == 0
    assert not default.elapsed(45) and default.winner() is None
    tied = MatchScore(1)
    tied.add([2, 2, -2, -2, 0])
    assert tied.winner() is None                  # a shared top plays on
    tied.add([1, 0, 0, -1, 0])
    assert tied.winner() == 0
