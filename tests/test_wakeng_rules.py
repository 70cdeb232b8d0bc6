"""挖坑 rules, one test (or more) per section and edge case of ``rules/wakeng.md``."""

from __future__ import annotations

import json
import re

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, OptionError
from qipai.games.wakeng import ALL_PLAYS, answers, leads, play_of
from qipai.games.wakeng.combos import ORDER
from qipai.games.wakeng.game import draw_deal
from qipai.games.wakeng.match import MatchScore
from tests.wakeng_helpers import make_deal, new, run


def P(text: str):
    return qipai.load("wakeng").parse_action(text)


def counts(ranks: str) -> list[int]:
    return ORDER.parse_counts(ranks)


def texts(actions) -> list[str]:
    return [str(a) for a in actions]


# ----- §1 / §2.2 deal ------------------------------------------------------------------------
def test_s2_2_seeded_deal_is_16_16_16_and_a_pit_of_4_from_52_cards():
    state = qipai.load("wakeng").new_state(seed=11)
    assert [len(h) for h in state.deal["hands"]] == [16, 16, 16]
    assert len(state.deal["pit"]) == 4
    ids = sorted(c for h in state.deal["hands"] for c in h) + state.deal["pit"]
    assert len(set(ids)) == 52 and not any(c.startswith(("LJ", "BJ")) for c in ids)
    assert draw_deal(11) == state.deal
    assert qipai.load("wakeng").new_state(seed=12).deal != state.deal


def test_s2_2_deal_must_be_one_pack_and_match_the_seed():
    game = qipai.load("wakeng")
    good = make_deal()
    bad = json.loads(json.dumps(good))
    bad["hands"][0][0] = bad["hands"][1][0]
    with pytest.raises(NotationError, match="52-card pack"):
        game.new_state(deal=bad)
    with pytest.raises(NotationError, match="3 hands of 16"):
        game.new_state(deal={"hands": good["hands"][:2], "pit": good["pit"]})
    with pytest.raises(NotationError, match="does not match the seed"):
        game.new_state(seed=3, deal=good)
    with pytest.raises(NotationError):
        game.new_state(deal={"hands": [["ZZ"]], "pit": []})
    with pytest.raises(NotationError):
        game.new_state(seed=1, num_seats=4)
    assert game.new_state(seed=3, deal=draw_deal(3)).deal == draw_deal(3)


# ----- §2.3 first bidder (edge 6) ----------------------------------------------------------------
def test_s2_3_edge6_first_bidder_is_the_5h_holder_then_6h_then_7h():
    assert new("", "", "5H").first_bidder == 2
    assert new("6H", "", "", pit="5H").first_bidder == 0
    assert new("", "7H", "", pit="5H 6H").first_bidder == 1
    assert new("", "", "9H", pit="5H 6H 7H 8H").first_bidder == 2


# ----- §2.4 bidding (edges 7-9) -------------------------------------------------------------------
def test_s2_4_edge7_bid_3_ends_bidding_at_once():
    s = run(new("5H"), "bid 1", "bid 2", "bid 3")
    assert s.digger == 2 and s.bid == 3 and s.phase == "play"
    assert s.view(None)["bid_name"] == "头挖"
    s = run(new("5H"), "bid 3")
    assert s.digger == 0 and s.bid == 3 and len(s.bid_log) == 1


def test_s2_4_edge8_three_passes_force_the_first_bidder_to_dig_for_1():
    s = run(new("", "5H"), "pass", "pass", "pass")
    assert s.digger == 1 and s.bid == 1 and s.forced and s.view(1)["bid_name"] == "烂坑"
    assert len(s.hands[1]) == 20


def test_s2_4_edge9_a_bid_must_exceed_the_highest_bid():
    s = run(new("5H"), "bid 2")
    assert texts(s.legal_actions()) == ["pass", "bid 3"]
    before = json.dumps(s.to_json())
    for bad in ("bid 1", "bid 2"):
        with pytest.raises(IllegalAction, match="exceed"):
            s.apply(bad)
    assert json.dumps(s.to_json()) == before
    run(s, "pass", "pass")
    assert s.digger == 0 and s.bid == 2 and s.view(0)["bid_name"] == "二挖"


def test_s2_4_highest_bidder_digs_after_everyone_acted_once():
    s = run(new("5H"), "bid 1", "pass", "bid 2")
    assert (s.digger, s.bid) == (2, 2)
    s = run(new("5H"), "pass", "bid 1", "pass")
    assert (s.digger, s.bid) == (1, 1) and not s.forced


def test_s2_1_option_bid_direction_opposite_reverses_the_bidding_order():
    same = run(new("5H"), "pass")
    assert same.current_player == 1
    opp = run(new("5H", bid_direction="opposite"), "pass")
    assert opp.current_player == 2
    run(opp, "bid 1", "pass")
    assert opp.digger == 2
    # play still runs s -> s+1 under both directions
    lead = opp.current_player
    opp.apply(opp.legal_actions()[0])
    assert opp.current_player == (lead + 1) % 3


# ----- §2.5 pit (edge 10) and reveal_pit ---------------------------------------------------------
def test_s2_5_edge10_digger_holds_20_and_the_pit_is_hidden_by_default():
    s = run(new("5H", pit="AS AH 2S 3S"), "bid 1", "pass", "pass")
    assert [len(h) for h in s.hands] == [20, 16, 16]
    assert {"AS0", "AH0", "2S0", "3S0"} <= {c.id for c in s.hand(0)}
    assert s.view(0)["pit"] == ["AS0", "AH0", "2S0", "3S0"]
    assert s.view(1)["pit"] is None and s.view(None)["pit"] is None
    r = run(new("5H", pit="AS AH 2S 3S", reveal_pit=True), "bid 1", "pass", "pass")
    assert r.view(1)["pit"] == ["AS0", "AH0", "2S0", "3S0"] and r.view(None)["pit"] is not None


def test_s2_5_nobody_sees_the_pit_during_bidding():
    s = new("5H", pit="AS AH 2S 3S", reveal_pit=True)
    assert all(s.view(x)["pit"] is None for x in (0, 1, 2, None))


# ----- §2.6 first lead (edge 11) -------------------------------------------------------------------
def test_s2_6_edge11_the_4h_holder_leads_even_if_not_the_digger_and_need_not_play_4h():
    s = run(new("4H KK", "5H"), "bid 1", "pass", "pass")
    assert s.digger == 1 and s.first_leader == 0 and s.current_player == 0
    s.apply("KK")
    assert s.top.text == "KK" and s.hands[0].holds_card(qipai.cards.parse_card("4H"))


def test_s2_6_edge11_4h_in_the_pit_gives_the_digger_the_lead():
    s = run(new("", "5H", pit="4H"), "bid 2", "pass", "pass")
    assert s.digger == 1 and s.first_leader == 1 and s.current_player == 1


# ----- §3.1-§3.3 combinations and comparison (edges 1-5, 16) -----------------------------------------
def test_s3_1_edge1_single_order_4_lowest_3_highest():
    assert P("3").beats(P("2")) and P("2").beats(P("A")) and P("5").beats(P("4"))
    assert not any(p.beats(P("3")) for p in ALL_PLAYS if p.type == "single")
    assert not any(P("4").beats(p) for p in ALL_PLAYS if p.type == "single")


def test_s3_2_edge2_straights_are_3_plus_ranks_from_4_to_k():
    assert (P("456").type, P("456").length, P("456").key) == ("straight", 3, ORDER.index["6"])
    assert P("JQK").key == ORDER.index["K"]
    for bad in ("QKA", "KA2", "A23", "45", "4568", "4455", "44456"):
        with pytest.raises(IllegalAction):
            P(bad)
    with pytest.raises(IllegalAction, match="A, 2 and 3 never join"):
        P("QKA")
    assert P("456789TJQK").length == 10


def test_s3_2_every_card_set_reads_as_at_most_one_play():
    assert len(ALL_PLAYS) == 4 * 13 + 36
    assert len({p.counts for p in ALL_PLAYS}) == len(ALL_PLAYS)


def test_s3_3_edge3_straights_compare_only_at_the_same_length():
    assert P("567").beats(P("456"))
    assert not P("5678").beats(P("456"))
    assert not P("55").beats(P("456"))


def test_s3_3_edge4_fours_are_no_bombs():
    assert not P("8888").beats(P("99")) and not P("8888").beats(P("5"))
    assert P("9999").beats(P("8888"))


def test_s3_3_edge5_3_is_the_top_rank():
    assert P("333").beats(P("222"))
    assert not any(p.beats(P("333")) for p in ALL_PLAYS)
    assert not any(p.beats(P("3333")) for p in ALL_PLAYS)


def test_s3_3_edge16_nothing_beats_jqk():
    assert answers(counts("456789TJQKKQJ"), P("JQK")) == []
    assert not P("TJQK").beats(P("JQK"))


# ----- §3.7 action counts (edge 15) -------------------------------------------------------------
def test_s3_7_edge15_action_counts():
    hand = counts("44567789TJQKKA23")
    lead = leads(hand)
    assert len(lead) == 52
    assert [p.type for p in lead].count("single") == 13
    assert [p.type for p in lead].count("pair") == 3
    assert [p.type for p in lead].count("straight") == 36
    assert texts(answers(hand, P("9"))) == list("TJQKA23")
    assert texts(answers(hand, P("567"))) == ["678", "789", "89T", "9TJ", "TJQ", "JQK"]
    assert answers(hand, P("KK")) == []


def test_s3_7_edge15_through_the_state():
    # seat 0 holds the edge-15 hand and follows seat 2's 9
    s = run(new("44567789TJQKKA23", "", "5H 4H 9S"), "bid 1", "pass", "pass")
    assert s.current_player == 2
    s.apply("9")
    assert s.current_player == 0
    assert texts(s.legal_actions()) == ["pass", *"TJQKA23"]


# ----- §3.4 turn flow (edge 17) -----------------------------------------------------------------
def _in_play(**options):
    """Seat 0 digs for 1 and leads (it holds 5H and 4H)."""
    return run(new("5H 4H 9S TS", "9C JS", "9D QS", **options), "bid 1", "pass", "pass")


def test_s3_4_edge17_leader_cannot_pass_follower_may_pass_with_a_beating_play():
    s = _in_play()
    with pytest.raises(IllegalAction, match="leader must play"):
        s.apply("pass")
    s.apply("9")
    assert "J" in texts(s.legal_actions()) and "pass" in texts(s.legal_actions())
    s.apply("pass")
    assert s.current_player == 2


def test_s3_4_two_passes_give_the_lead_to_the_last_player():
    s = _in_play()
    run(s, "9", "J", "pass", "pass")
    assert s.current_player == 1 and s.top is None
    assert "pass" not in texts(s.legal_actions())


def test_s3_4_option_must_beat_if_able_forbids_passing_with_a_beating_play():
    s = _in_play(must_beat_if_able=True)
    s.apply("9")
    legal = texts(s.legal_actions())
    assert "pass" not in legal and "J" in legal
    with pytest.raises(IllegalAction, match="must play"):
        s.apply("pass")
    s.apply(legal[0])
    # a follower who cannot beat still passes
    t = run(new("5H 4H 3S", "", "", must_beat_if_able=True), "bid 1", "pass", "pass", "3")
    assert texts(t.legal_actions()) == ["pass"]


def test_s3_4_plays_refused_with_the_reason_and_state_unchanged():
    s = _in_play()
    s.apply("9")
    before = json.dumps(s.to_json())
    for bad, why in (("5", "not higher"), ("99", "does not beat"), ("K", "not in your hand"),
                     ("QKA", "never join"), ("bid 2", "combination")):
        with pytest.raises(IllegalAction, match=why):
            s.apply(bad)
        assert json.dumps(s.to_json()) == before


# ----- §3.5 timeouts (edge 18) and clock phases --------------------------------------------------
def test_s3_5_edge18_default_actions():
    s = new("5H 4D 4H 4S 6C", "", "")
    assert str(s.default_action(0)) == "pass"
    assert s.clock_phase(0) == "bid"
    run(s, "bid 1", "pass", "pass")
    assert s.current_player == 0 and s.clock_phase(0) == "first_lead"
    lowest = s.default_action(0)
    assert str(lowest) == "4"
    s.apply(lowest)
    assert [c.id for c in s.play_cards[-1]] == ["4D0"]
    assert s.clock_phase(1) is None
    assert str(s.default_action(1)) == "pass"
    assert s.default_action(0) is None          # not to act


# ----- §3.6 fouls and strict_fouls -----------------------------------------------------------------
def test_s3_6_illegal_submission_is_only_refused_by_default():
    s = _in_play()
    assert s.penalize_illegal(0) is False and not s.is_terminal()
    with pytest.raises(IllegalAction, match="strict_fouls"):
        s.apply("foul")


def test_s3_6_option_strict_fouls_loses_the_deal_at_the_bid():
    s = run(new("5H 4H", "", "", strict_fouls=True), "bid 2", "pass", "pass")
    assert s.penalize_illegal(0) is True
    assert s.result.reason == "foul" and s.result.returns == (-4, 2, 2)
    assert s.result.details["offender"] == 0
    t = run(new("5H", "4H", "", strict_fouls=True), "bid 3")
    t.penalize_illegal(1)                      # an opponent's foul: its side loses
    assert t.result.returns == (6, -3, -3) and t.result.winners == (0,)
    again = qipai.replay(qipai.core.record.Record.from_json(t.to_json()))
    assert again.result.returns == t.result.returns and again.log[-1] == "foul"


# ----- §4 end and scoring (edges 12, 13) ---------------------------------------------------------
def test_s4_edge12_digger_wins_bid_3():
    s = run(new("5H 4H 3333 2222 AAAA KK", pit="KK 5S 5C"), "bid 3")
    while not s.is_terminal():
        if s.current_player == 0:
            play = max(s.legal_actions(), key=lambda p: (p.ncards, p.key))
            s.apply(play)
        else:
            s.apply("pass")
    assert s.result.returns == (6, -3, -3) and s.result.winners == (0,)
    assert s.result.text == "+6 -3 -3" and s.result.details["digger_wins"]


def test_s4_edge12_13_an_opponent_out_first_wins_for_both_bid_3():
    s = run(new("5H 4S", "3333 2222 AAAA KKKK", "4H"), "bid 3")
    assert s.current_player == 2 and s.digger == 0
    s.apply("4")
    while not s.is_terminal():
        if s.current_player == 1:
            s.apply(max(s.legal_actions(), key=lambda p: (getattr(p, "ncards", 0), getattr(p, "key", 0))))
        else:
            s.apply("pass")
    assert s.result.returns == (-6, 3, 3) and set(s.result.winners) == {1, 2}
    assert s.result.details["cards_left"][2] == 15 and s.result.details["out"] == 1


# ----- §5 match (edge 14) and deals_per_match -------------------------------------------------------
def test_s5_edge14_tie_at_the_top_plays_one_more_deal():
    m = MatchScore(20)
    for _ in range(19):
        m.add((0, 0, 0))
    m.add((12, 12, -24))
    assert m.played == 20 and not m.over
    m.add((6, -3, -3))
    assert m.over and m.winner == 0 and m.extra_deals == 1 and m.totals == [18, 9, -27]
    with pytest.raises(ValueError):
        m.add((0, 0, 0))


def test_s5_option_deals_per_match_changes_when_the_match_ends():
    short = MatchScore.for_game(qipai.load("wakeng", deals_per_match=1))
    full = MatchScore.for_game(qipai.load("wakeng"))
    for m in (short, full):
        m.add((2, -1, -1))
    assert short.over and short.winner == 0
    assert not full.over and full.deals == 20


def test_s4_3_option_scoring_has_one_value_and_others_are_refused():
    assert qipai.load("wakeng").options["scoring"] == "bid_each"
    with pytest.raises(OptionError, match="bid_each"):
        qipai.load("wakeng", scoring="double")


# ----- §6 notation ------------------------------------------------------------------------------
def test_s6_every_play_text_round_trips():
    for p in ALL_PLAYS:
        assert P(p.text) is p
        assert play_of(p.counts) is p


def test_s6_input_forms_rank_strings_ten_and_card_codes():
    assert P("10JQ") is P("TJQ") and P("qjt") is P("TJQ")
    s = _in_play()
    assert s.game.parse_action("9S", s) is P("9")
    with pytest.raises(IllegalAction, match="not in your hand"):
        s.game.parse_action("9C", s)
    with pytest.raises(IllegalAction, match="not a card of this game"):
        P("LJ")
    with pytest.raises(IllegalAction, match="twice"):
        P("9S 9S")
    with pytest.raises(IllegalAction):
        P("@@")
    with pytest.raises(IllegalAction):
        P("")


def test_bad_input_wrong_seat_out_of_turn_and_game_over():
    s = new("5H")
    with pytest.raises(IllegalAction, match="not to act"):
        s.apply("bid 1", seat=1)
    with pytest.raises(IllegalAction, match="no seat"):
        s.apply("bid 1", seat=5)
    with pytest.raises(IllegalAction, match="no seat"):
        s.view(3)
    s.resign(0)
    assert s.result.reason == "resign" and s.result.returns == (-2, 1, 1)
    with pytest.raises(IllegalAction, match="over"):
        s.apply("pass")


def test_views_never_show_another_seats_cards():
    s = run(new("5H 4H"), "bid 1", "pass", "pass", "4")
    [[seat0, text, laid]] = s.view(None)["plays"]                 # seat 0's lead, face up
    assert (seat0, text, len(laid), laid[0][0]) == (0, "4", 1, "4")
    for seat in (0, 1, 2, None):
        text = json.dumps(s.view(seat))
        shown = set(re.findall(r"\b[2-9TJQKA][SHDC]0\b", text))
        mine = {c.id for c in s.hand(seat)} if seat is not None else set()
        assert shown <= mine | set(laid)


def test_result_text_replays_external_endings():
    s = run(new("5H"), "bid 2", "pass", "pass")
    s.forfeit(1, "timeout")
    rec = s.to_record()
    again = qipai.replay(rec)
    assert again.result.returns == s.result.returns == (4, -2, -2)
    assert again.result.reason == "timeout"


def test_the_end_of_a_deal_shows_every_hand_left_and_the_pit():
    """The deal over, every seat and a spectator see the cards left in each hand and the pit (a
    loser's panel said "15张" with no cards and the pit was never shown); before, none of it."""
    import random

    import qipai
    game = qipai.load("wakeng")
    for seed in range(40):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            seat = state.to_act[0]
            assert "remaining" not in state.view(None)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        if state.digger is not None and any(len(h) for h in state.hands):
            break
    for seat in (0, 1, 2, None):
        v = state.view(seat)
        assert v["remaining"] == [[c.id for c in h.cards()] for h in state.hands]
        assert v["pit"] == [c.id for c in state.pit] and len(v["pit"]) == 4
