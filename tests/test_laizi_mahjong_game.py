"""The laizi mahjong referee (rules/laizi-mahjong.md sections 2, 4 and 5): the deal and the
indicator, discards and the kongs of peel and laizi tiles, claims and their priority, winning
on a played-out laizi, the end of the wall, payments, the match, views and default actions."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError
from qipai.core.record import Record, replay
from qipai.tiles import parse_tile

from .laizi_helpers import answer_all, laizi_deal, laizi_game


def _legal(state, seat=None):
    return [str(a) for a in state.legal_actions(seat)]


def test_seeded_deal_indicator_and_laizi():
    g = qipai.load("laizi-mahjong")
    a, b = g.new_state(seed=5), g.new_state(seed=5)
    assert a.to_json() == b.to_json() and a.view(0) == b.view(0)
    assert a.view(0)["seats"][0]["concealed_count"] == 14            # the dealer drew
    assert [a.view(None)["seats"][s]["concealed_count"] for s in (1, 2, 3)] == [13, 13, 13]
    assert a.wall.remaining() == 136 - 52 - 1 - 1                     # indicator out, one draw
    from qipai.games.laizi_mahjong.points import successor
    assert a.laizi == successor(a.indicator)
    v = a.view(2)
    assert v["indicator"] and v["laizi"] and v["dealer"] == 0 and v["hand"] == 1


def test_explicit_deals_are_checked_when_the_state_is_made():
    g = laizi_game()
    good = laizi_deal(HANDS_A, "4p")
    g.new_state(deal=good)
    five = {**good, "hands": [good["hands"][0], good["hands"][1].replace("SS", "S 1m"), *good["hands"][2:]]}
    with pytest.raises(NotationError, match="5 copies of 1m"):
        g.new_state(deal=five)
    with pytest.raises(NotationError, match="13"):
        g.new_state(deal={**good, "hands": good["hands"][:3] + ["1m"]})
    with pytest.raises(NotationError, match="84"):
        g.new_state(deal={**good, "wall": good["wall"][:-2]})


HANDS_A = ["123m 456m 789m 11m E 4p", "123p 567p 789p 11s SS",
           "2345678p 123s W 9s N", "99p 789s 22s NN CC FF"]


def test_peel_kong_replacement_bloom_and_self_drawn_payment():
    # dealer: indicator 4p (laizi 5p); draws E, plays out the peel 4p, draws 1m from the tail: 杠开
    g = laizi_game()
    s = g.new_state(deal=laizi_deal(HANDS_A, "4p", head="E", tail="1m"))
    assert "discard 4p" not in _legal(s) and "peel 4p" in _legal(s)
    with pytest.raises(IllegalAction) as e:
        s.apply("discard 4p")
    assert e.value.code == "laizi-mahjong.barred_discard"
    s.apply("peel 4p")
    assert s.view(0)["seats"][0]["peel_kongs"] == 1 and s.drawn == parse_tile("1m")
    assert "win" in _legal(s)
    s.apply("win")
    res = s.hand_results[0]
    # 奏一色 hard 1 × 硬 × 自摸 × 杠开 × 门前清 × 皮子杠 = 32 -> 15 from each
    assert res["score"]["points"] == 32 and res["score"]["hard"]
    assert res["payments"] == [45, -15, -15, -15] and res["how"] == "self_drawn"
    assert s.is_terminal() and s.returns() == [45, -15, -15, -15]


HANDS_LZ = ["123s 456s 789s 11s E 5p", "123m 456m 789m 11m EE",
            "234p 678p 99p WW NN C", "1p 7p 2s 3s 5s 6s 8s SS CC FF"]


def test_winning_on_a_played_out_laizi_pays_as_a_discard():
    # the dealer holds the laizi 5p and plays it out; seat 1 wins on it (seed note 2)
    g = laizi_game()
    s = g.new_state(deal=laizi_deal(HANDS_LZ, "4p", head="N"))
    s.apply("laizi 5p")
    assert s.phase == "laizi" and set(s.to_act) == {1, 2, 3}
    assert _legal(s, 1) == ["pass", "win"] and _legal(s, 2) == ["pass"]
    with pytest.raises(IllegalAction) as e:
        s.apply("pung", seat=2)
    assert e.value.code == "laizi-mahjong.laizi_kong_win_only"
    answer_all(s, {1: "win"})
    res = s.hand_results[0]
    assert res["how"] == "laizi_kong" and res["from"] == 0 and res["winners"] == [1]
    # 奏一色 soft 1 × 门前清 = 2: the player of the laizi pays money(4) = 5, the others 5
    assert res["score"]["points"] == 2 and not res["score"]["hard"]
    assert res["payments"] == [-5, 15, -5, -5]


def test_a_laizi_kong_nobody_claims_gives_a_replacement():
    s = laizi_game().new_state(deal=laizi_deal(HANDS_LZ, "4p", head="N", tail="9m"))
    s.apply("laizi 5p")
    answer_all(s)
    assert s.phase == "turn" and s.current == 0 and s.drawn == parse_tile("9m")
    assert s.view(1)["seats"][0]["laizi_kongs"] == 1


HANDS_C = ["5m 1p 3p 7p 9p 2s 4s 6s 8s S W N P", "46m 2p 4p 6p 8p 1s 3s 5s 7s 9s S W",
           "55m 1p 2p 5p 8p 7s 8s 9s NN PP", "123m 46m 678m 999m EE"]


def _claim_state(**options):
    s = laizi_game(**options).new_state(deal=laizi_deal(HANDS_C, "C", head="1m"))
    s.apply("discard 5m")
    return s


def test_claims_every_other_seat_answers_and_a_win_comes_first():
    s = _claim_state()
    assert s.to_act == (1, 2, 3)
    assert _legal(s, 1) == ["pass", "chow 456m"]
    assert _legal(s, 2) == ["pass", "pung"]
    assert _legal(s, 3) == ["pass", "win"]
    answer_all(s, {1: "chow 456m", 2: "pung", 3: "win"})
    res = s.hand_results[0]
    # 奏一色 hard × 门前清 = 4 on a discard: discarder money(8) = 5, others 5
    assert res["winners"] == [3] and res["payments"] == [-5, -5, -5, 15]


def test_a_pung_beats_a_chow_and_the_claimant_then_discards():
    s = _claim_state()
    answer_all(s, {1: "chow 456m", 2: "pung"})
    assert s.current == 2 and s.phase == "turn"
    legal = _legal(s)
    assert all(a.startswith("discard") for a in legal)
    with pytest.raises(IllegalAction):
        s.apply("win")
    assert s.view(2)["seats"][2]["melds"][0]["tiles"] == "555m"


def test_a_chow_when_nobody_else_claims():
    s = _claim_state()
    answer_all(s, {1: "chow 456m"})
    assert s.current == 1 and s.view(1)["seats"][1]["melds"][0]["tiles"] == "456m"


def test_option_discard_payers_discarder():
    s = _claim_state(discard_payers="discarder")
    answer_all(s, {3: "win"})
    assert s.hand_results[0]["payments"] == [-5, 0, 0, 5]


def test_a_laizi_never_goes_into_a_chow():
    # indicator 3m: 4m is the laizi; seat 1 holds 46m but the chow 456m would use the laizi
    hands = ["5m 1p 3p 7p 9p 2s 4s 6s 8s S W N P", "46m 67m 2p 4p 6p 8p 1s 3s 5s S W",
             "55m 1p 2p 5p 8p 7s 8s 9s NN PP", "123m 99m 678m 999s EE"]
    s = laizi_game().new_state(deal=laizi_deal(hands, "3m", head="1m"))
    s.apply("discard 5m")
    assert _legal(s, 1) == ["pass", "chow 567m"]


def test_after_three_pungs_only_peel_and_laizi_tiles_are_played_out_as_kongs():
    # indicator 1p (laizi 2p): seat 2 pungs 3m, 5m and 7m and holds nothing but laizi and peel tiles
    hands = ["3m 1s 3s 5s 7s 9s 2m 4m 6m 8m S W N", "1m 9m 4p 5p 6p 7p 8p 9p 2s 4s 6s 8s C",
             "33m 55m 77m 9s E 22p 111p", "1m 9m 3p 4p 5p 6p 3s 4s 5s 6s PP S"]
    s = laizi_game().new_state(deal=laizi_deal(hands, "1p", head="F 5m 7m", tail="9p"))
    s.apply("discard 3m")
    answer_all(s, {2: "pung"})
    with pytest.raises(IllegalAction) as e:
        s.apply("peel 1p")
    assert e.value.code == "laizi-mahjong.no_kong_after_claim"
    s.apply("discard 9s")
    answer_all(s)
    s.apply("discard 5m", seat=3)
    answer_all(s, {2: "pung"})
    s.apply("discard E")
    answer_all(s)
    s.apply("discard 7m", seat=3)
    answer_all(s, {2: "pung"})
    assert _legal(s) == ["peel 1p", "laizi 2p"]
    assert str(s.default_action(2)) in ("peel 1p", "laizi 2p")
    s.apply("peel 1p")
    assert s.drawn == parse_tile("9p") and s.current == 2


def test_concealed_and_added_kongs():
    # the dealer holds four 9s: a concealed kong, replacement from the tail
    hands = ["9999s 123m 456m 78m E", "123p 456p 789p 11s EE",
             "2345678p 123s W 9m N", "1p 678s 234s SS CC F N"]
    s = laizi_game().new_state(deal=laizi_deal(hands, "4p", head="E", tail="9m"))
    assert "kong 9s" in _legal(s)
    s.apply("kong 9s")
    assert s.view(0)["seats"][0]["melds"][0]["concealed"] and s.drawn == parse_tile("9m")
    assert s.view(1)["seats"][0]["melds"] == [{"kind": "kong", "concealed": True}]   # hidden from others
    # 123m 456m 789m EE + (9999s): 奏... not one suit (9s): no pattern, no win
    assert "win" not in _legal(s)


def test_a_concealed_kong_counts_four_in_play_with_bloom():
    hands = ["5555s 123s 678s 99s E", "123p 456p 789p 11m EE",
             "2345678p 123m W N 9m", "1p 789m 234m SS CC F N"]
    s = laizi_game().new_state(deal=laizi_deal(hands, "1m", head="9s", tail="E"))
    s.apply("kong 5s")
    assert "win" in _legal(s)
    s.apply("win")
    sc = s.hand_results[0]["score"]
    # 奏一色 hard: 1 × 硬 × 自摸 × 杠开 × 门前清 × 暗杠 4 = 64 -> 20 from each
    assert sc["points"] == 64 and sorted(d["name"] for d in sc["doublings"]) == sorted(
        ["硬糊", "自摸", "杠开", "门前清", "暗杠"])
    assert s.hand_results[0]["payments"] == [60, -20, -20, -20]


def test_the_end_of_the_wall():
    # default actions only: nobody claims or wins, the wall runs out, the hand is drawn
    s = qipai.load("laizi-mahjong", hands_per_match=1).new_state(seed=3)
    seen_last = False
    while not s.is_terminal():
        seat = s.to_act[0]
        if s.phase == "turn" and s.wall.is_empty():
            seen_last = True
            legal = s.legal_actions(seat)
            assert all(a.kind in ("discard", "win") for a in legal)            # no kong
            held = [t for t in range(34) if s.hands[seat][t]]
            assert sorted(a.tile for a in legal if a.kind == "discard") == held   # any tile
        if s.phase == "claim" and s.pending["last"]:
            assert all(str(a) in ("pass", "win") for a in s.legal_actions(seat))
        s.apply(s.default_action(seat), seat=seat)
    assert seen_last
    res = s.hand_results[0]
    assert res["how"] == "drawn" and res["payments"] == [0, 0, 0, 0] and s.result.reason == "drawn_hand"


def test_a_match_rotates_the_deal_and_gives_table_points():
    s = qipai.load("laizi-mahjong", hands_per_match=4).new_state(seed=8)
    dealers = []
    while not s.is_terminal():
        if s.phase == "turn" and s.hand_no >= len(dealers):
            dealers.append(s.dealer)
        seat = s.to_act[0]
        s.apply(s.default_action(seat), seat=seat)
    assert dealers == [0, 1, 2, 3] and len(s.hand_results) == 4
    assert s.result.reason == "hands_played" and sum(s.returns()) == 0
    assert sum(s.result.details["table_points"]) == 7


def _default_play(s):
    while not s.is_terminal():
        seat = s.to_act[0]
        s.apply(s.default_action(seat), seat=seat)


def test_option_first_place_tiebreak():
    g = qipai.load("laizi-mahjong", hands_per_match=1)
    s = g.new_state(seed=3)
    _default_play(s)
    assert len(s.hand_results) == 1 and s.result.winners == ()
    t = qipai.load("laizi-mahjong", hands_per_match=1, first_place_tiebreak=True).new_state(seed=3)
    _default_play(t)
    # every hand drawn: the tie never breaks, and the extra hands stop at 16
    assert len(t.hand_results) == 17
    # a win breaks the tie at once
    w = qipai.load("laizi-mahjong", hands_per_match=1, first_place_tiebreak=True).new_state(
        deal=laizi_deal(HANDS_A, "4p", head="E", tail="1m"))
    w.apply("peel 4p")
    w.apply("win")
    assert w.is_terminal() and len(w.hand_results) == 1 and w.result.winners == (0,)


def test_option_allow_pihu_in_play():
    # the dealer draws 1s: 234m 567p 789s 111s EE, a plain hand
    hands = ["234m 567p 789s 11s EE", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p",
             "5p 6p 7p 8p 9p 1s 2s 3s 4s 5s 6s 7s 8s", "9s S S S N N N C C C F F F"]
    deal = laizi_deal(hands, "3p", head="1s")
    assert "win" not in _legal(laizi_game().new_state(deal=deal))
    s = laizi_game(allow_pihu=True).new_state(deal=deal)
    s.apply("win")
    # 屁胡 1 × 硬 × 自摸 × 门前清 = 8 -> 5 from each
    res = s.hand_results[0]
    assert res["score"]["pattern"] == "屁胡" and res["payments"] == [15, -5, -5, -5]


def test_views_hide_other_hands_and_replay_round_trips():
    s = qipai.load("laizi-mahjong", hands_per_match=1).new_state(seed=4)
    for _ in range(30):
        if s.is_terminal():
            break
        seat = s.to_act[0]
        s.apply(s.default_action(seat), seat=seat)
    for seat in range(4):
        v = s.view(seat)
        assert "hand" in v["seats"][seat]
        assert all("hand" not in x for i, x in enumerate(v["seats"]) if i != seat)
    assert all("hand" not in x for x in s.view(None)["seats"])
    data = json.loads(json.dumps(s.to_json()))
    again = s.game.state_from_json(data)
    assert again.view(1) == s.view(1)
    _default_play(s)
    r = replay(Record.from_json(json.loads(s.to_record().dumps())))
    assert r.result.returns == s.result.returns


def test_resign_and_recorded_results():
    s = laizi_game().new_state(seed=1)
    s.resign(2)
    assert s.returns() == [35, 35, -105, 35] and s.result.reason == "resign"
    t = laizi_game().new_state(seed=1)
    t.end_by_result_text("10 -5 -5 0", "agreement")
    assert t.returns() == [10, -5, -5, 0]
    with pytest.raises(IllegalAction):
        laizi_game().new_state(seed=1).end_by_result_text("1 2 3 4", "agreement")


def test_refusals_leave_the_state_unchanged():
    s = _claim_state()
    before = json.dumps([s.to_json(), s.view(1)])
    for seat, text in ((1, "pung"), (1, "discard 4m"), (2, "chow 456m"), (3, "kong"), (1, "laizi F"),
                       (0, "pass"), (1, "bogus"), (1, "chow 4m")):
        with pytest.raises(IllegalAction):
            s.apply(text, seat=seat)
    assert json.dumps([s.to_json(), s.view(1)]) == before


def test_money_options_in_play_and_a_cap_below_the_floor_is_refused():
    s = _claim_state(money_floor=10, money_cap=10)
    answer_all(s, {3: "win"})
    assert s.hand_results[0]["payments"] == [-10, -10, -10, 30]
    with pytest.raises(qipai.OptionError):
        qipai.load("laizi-mahjong", money_floor=20, money_cap=10)


def test_option_laizi_kong_factor_in_play():
    # the dealer could win at once, but plays out its laizi 5p and wins on the replacement 1m:
    # 奏一色 hard 1 × 硬 × 自摸 × 杠开 × 门前清 × 赖子杠 (2 or 4)
    hands = ["123m 456m 789m 11m E 5p", "123p 567p 789p 11s SS", "234p 678p 99p WW NN C",
             "1p 7p 2s 3s 5s 6s 8s 9s CC FF P"]
    for factor, points, money in ((2, 32, 15), (4, 64, 20)):
        s = laizi_game(laizi_kong_factor=factor).new_state(deal=laizi_deal(hands, "4p", head="E", tail="1m"))
        assert "win" in _legal(s)
        s.apply("laizi 5p")
        answer_all(s)
        s.apply("win")
        res = s.hand_results[0]
        assert res["score"]["points"] == points and res["payments"] == [3 * money, -money, -money, -money]


def test_default_actions_discard_the_drawn_tile_or_the_last_one():
    # the dealer drew the peel tile 4p: it cannot be discarded, so the last discardable tile goes
    s = laizi_game().new_state(deal=laizi_deal(HANDS_A, "4p", head="4p"))
    assert str(s.default_action(0)) == "discard E"
    assert s.default_action(1) is None                     # not to act
    t = laizi_game().new_state(deal=laizi_deal(HANDS_A, "4p", head="9s"))
    assert str(t.default_action(0)) == "discard 9s"


def test_the_last_wall_tile_is_marked_for_hailao():
    s = qipai.load("laizi-mahjong", hands_per_match=1).new_state(seed=3)
    while not s.wall.is_empty():
        seat = s.to_act[0]
        s.apply(s.default_action(seat), seat=seat)
    seat = s.to_act[0]
    assert s.phase == "turn" and s.hand_of(seat, s.drawn, self_drawn=True).last
    assert not s.hand_of(seat, s.drawn, self_drawn=False).last
