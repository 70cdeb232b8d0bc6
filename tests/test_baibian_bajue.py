"""百变八雀 as the proposal of rules/baibian-bajue.md §4 (marked ``proposal``): tile values and the
§4.4 example, bombs in hand and by claim, claims and their priority, wins and payments, the
drawn hand, the 108-tile option, refusals, views, playouts and the marking."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from typer.testing import CliRunner

import qipai
from qipai.bots import make_bot
from qipai.cli import app
from qipai.core.errors import NotationError
from qipai.games.baibian_bajue import hand_value, tile_value
from qipai.tiles.meld import PUNG, Meld
from qipai.tiles.tile import parse_tiles
from qipai.tiles.wall import tile_set

from .refusals import refused

GAME = qipai.load("baibian-bajue", hands_per_match=1)


def deal(hands: list[str], head: str = "", tail: str = "", tiles: int = 136) -> dict:
    """One hand's deal: seat s holds ``hands[s]`` (13 tiles), the wall starts with ``head`` and
    ends with ``tail`` (the last tile of ``tail`` is the first replacement); the other tiles fill
    the middle."""
    pool = Counter(t for t in tile_set(flowers=False) if tiles == 136 or t < 27)
    fixed = [parse_tiles(h) for h in hands]
    for t in [x for h in fixed for x in h] + parse_tiles(head) + parse_tiles(tail):
        pool[t] -= 1
        assert pool[t] >= 0, t
    middle = [t for t, n in sorted(pool.items()) for _ in range(n)]
    return {"hands": fixed, "wall": parse_tiles(head) + middle + parse_tiles(tail)}


# ----- §4.3 values and the §4.4 example --------------------------------------------------------
def test_tile_values_and_the_worked_example():
    assert [tile_value(t) for t in parse_tiles("19m5pESWNCFP")] == [1, 9, 5] + [10] * 7
    concealed = [0] * 34
    for t in parse_tiles("123m456p789s1p1p"):
        concealed[t] += 1
    assert hand_value(concealed, [Meld(PUNG, parse_tiles("C")[0])]) == 77       # §4.4


HAND0 = "123m456p789s1pCCC"          # ready: waits on 1p (pair)


def test_self_drawn_win_each_other_seat_pays_v():
    s = GAME.new_state(deal=deal([HAND0, "2m3m4m5m6m7m8m2p3p4p5p6p7p", "1s2s3s4s5s6s8s8s9s9sEEE",
                                  "SSSWWWNNNFFPP"], head="1p"))
    assert s.current == 0 and str(s.legal_actions()[0]) == "win"
    s.apply("win")
    r = s.hand_results[-1]
    assert r["how"] == "self_drawn" and r["value"] == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 1 + 1 + 30
    v = r["value"]
    assert r["payments"] == [3 * v, -v, -v, -v] and s.result.reason == "hands_played"
    assert s.result.returns == (3 * v, -v, -v, -v) and s.result.winners == (0,)


def test_a_win_on_a_discard_the_discarder_pays_2v_and_the_nearest_winner_takes_it():
    # seat 1 (dealer's next) draws and discards 1p: seats 0 and 2 both win on it; seat 2 is nearer
    d = deal(["1m2m3m4m5m6m7m8m9mEEE1p", "1p5s5s6s6s7s7sWWNNFF", "2p3p4p5p6p7p8p9pSSSCC",
              "PPPCCWWNNFF9s9s"], head="2s9p")
    s = qipai.load("baibian-bajue", hands_per_match=1).new_state(deal=d)
    s.apply("discard 2s")                                      # dealer seat 0 drew 2s
    for seat in (1, 2, 3):
        s.apply("pass", seat=seat)
    assert s.current == 1
    s.apply("discard 1p")                                      # seat 1 drew 9p; throws 1p
    assert "win" in [str(a) for a in s.legal_actions(0)] and "win" in [str(a) for a in s.legal_actions(2)]
    s.apply("win", seat=0)
    s.apply("win", seat=2)
    s.apply("pass", seat=3)
    r = s.hand_results[-1]
    assert r["winners"] == [2] and r["how"] == "discard" and r["from"] == 1
    assert r["payments"][1] == -2 * r["value"] and r["payments"][2] == 2 * r["value"]
    assert r["payments"][0] == r["payments"][3] == 0


def test_bomb_in_hand_is_paid_at_once_and_replaced_from_the_tail():
    s = GAME.new_state(deal=deal(["5s5s5s5s1m2m3m4m5m6m7m8m9m", "2p3p4p5p6p7p8p9pEEESS",
                                  "1s2s3s4s6s7s8s9sWWWNN", "1p1p1pCCCFFFPPNN"], head="E", tail="9s"))
    assert "bomb 5s" in [str(a) for a in s.legal_actions()]
    s.apply("bomb 5s")
    assert s.bonus == [30, -10, -10, -10] and s.bombs == [[0, parse_tiles("5s")[0]]]
    assert s.drawn == parse_tiles("9s")[0] and s.current == 0          # the replacement: the tail
    shown = s.view(1)["seats"][0]["melds"]
    assert len(shown) == 1 and shown[0]["kind"] == "kong" and not shown[0].get("concealed")
    assert s.view(None)["bombs"] == [[0, "5s"]]


BOMB_DEAL = deal(["5s5s5s5s1m2m3m4m5m6m7m8m9m", "2p3p4p5p6p7p8p9pEEESS", "1s2s3s4s6s7s8s9sWWWNN",
                  "1p1p1pCCCFFFPPNN"], head="E", tail="9s")


@pytest.mark.parametrize("end", ["resign", "draw", "hand"])
def test_a_bomb_is_in_the_scores_at_once_and_every_later_ending_keeps_it(end):
    # breaker: the bonus was kept for the hand's end, so a forfeit or an agreed draw after a
    # bomb lost it and the views showed scores without it
    s = qipai.load("baibian-bajue", hands_per_match=4).new_state(deal=[BOMB_DEAL] * 4)
    s.apply("bomb 5s")
    assert [x["score"] for x in s.view(2)["seats"]] == [30, -10, -10, -10]
    if end == "resign":
        s.forfeit(1, "resign")
        assert s.result.returns == (130, -310, 90, 90)
    elif end == "draw":
        s.agree_draw()
        assert s.result.returns == (30, -10, -10, -10)
    else:
        while s.hand_no == 0:
            seat = s.to_act[0]
            s.apply(s.default_action(seat), seat=seat)
        r = s.hand_results[0]
        assert r["bomb_payments"] == [30, -10, -10, -10] and s.scores == r["payments"]
        return
    assert qipai.replay(s.to_record()).result.text == s.result.text


def test_bomb_by_claim_beats_a_chow_and_pays_the_maker():
    # the dealer discards 7m; seat 1 could chow 789m... no: seat 1 holds 8m9m (chow), seat 3 holds
    # three 7m (bomb): the bomb wins the claim
    s = GAME.new_state(deal=deal(["1m2m3m4m5m6m9m1p2p3p4p5p6p", "8m9m1s2s3s4s5s6sEESSW",
                                  "7p8p9p7s8s9sWWNNCCF", "7m7m7mFFPPPNN2s3s4s"], head="7m", tail="9p"))
    s.apply("discard 7m")
    assert [str(a) for a in s.legal_actions(1)] == ["pass", "chow 789m"]
    assert "bomb" in [str(a) for a in s.legal_actions(3)]
    s.apply("chow 789m", seat=1)
    s.apply("pass", seat=2)
    s.apply("bomb", seat=3)
    assert s.current == 3 and s.bonus == [-10, -10, -10, 30]
    assert s.melds[3][0].kind == "kong" and s.drawn == parse_tiles("9p")[0]
    assert s.ponds[0][-1] == [parse_tiles("7m")[0], True]


def test_pung_beats_chow_and_honours_never_chow():
    s = GAME.new_state(deal=deal(["EE1m2m3m4m5m6m7m8m9m1p2p", "SS1s2s3s4s5s6s7s8s9s3p4p",
                                  "EWWNN5p6p7p8p9pCCF", "FFPPPC7m8m9m1p2p3pN"], head="S"))
    s.apply("discard S")
    assert [str(a) for a in s.legal_actions(1)] == ["pass", "pung"]         # honour: no chow
    for seat in (1, 2, 3):
        s.apply("pung" if seat == 1 else "pass", seat=seat)
    assert s.current == 1 and s.after_claim
    assert all(a.kind == "discard" for a in s.legal_actions())               # no win, no bomb now
    assert refused(s, "win").code == "baibian-bajue.no_win_after_claim"


def test_an_empty_wall_draws_the_hand_bombs_stay_paid():
    s = qipai.load("baibian-bajue", hands_per_match=1).new_state(seed=5)
    while not s.is_terminal():
        seat = s.to_act[0]
        s.apply(s.default_action(seat), seat=seat)
    r = s.hand_results[-1]
    assert r["how"] == "drawn" and r["payments"] == r["bomb_payments"] == [0, 0, 0, 0]
    assert s.result.winners == () and s.result.reason == "hands_played"


def test_108_tiles_have_no_honours():
    s = qipai.load("baibian-bajue", tiles=108, hands_per_match=1).new_state(seed=2)
    assert all(sum(h[27:]) == 0 for h in s.hands) and s.wall.remaining() == 108 - 52 - 1
    with pytest.raises(NotationError):          # a 136-tile wall: honours, 84 tiles
        qipai.load("baibian-bajue", tiles=108).new_state(deal=deal(["1m2m3m4m5m6m7m8m9m1p2p3p4p"] * 4))


def test_bad_deals_and_positions_are_refused():
    with pytest.raises(NotationError):
        GAME.new_state(deal={"hands": [HAND0] * 4, "wall": ""})
    with pytest.raises(NotationError):
        GAME.new_state(deal={"hands": ["1m" * 13] * 4, "wall": "1m" * 84})
    with pytest.raises(NotationError):
        GAME.new_state(position="x")


def test_refusals_change_nothing():
    s = GAME.new_state(seed=3)
    seat = s.current
    assert refused(s, "pass").code == "baibian-bajue.own_turn"
    assert refused(s, "win").code == "baibian-bajue.not_a_win"
    missing = next(t for t in range(34) if not s.hands[seat][t])
    assert refused(s, f"discard {qipai.tiles.format_tiles([missing])}").code == "baibian-bajue.not_held"
    assert refused(s, "discard 5p", seat=(seat + 1) % 4).code == "seat_not_act_act"
    assert refused(s, "hop").code == "mahjong.unknown_action_expected"


# ----- views, playouts, the match ------------------------------------------------------------------
def test_views_hide_the_other_hands():
    s = GAME.new_state(seed=1)
    v = s.view(1)
    assert v["marking"] == "proposal" and v["seats"][1]["hand"] and "hand" not in v["seats"][0]
    assert "hand" not in s.view(None)["seats"][0] and "legal" not in s.view(None)


@pytest.mark.parametrize("seed", range(4))
def test_playouts_finish_zero_sum_and_replay(seed):
    rng = random.Random(seed)
    game = qipai.load("baibian-bajue", hands_per_match=4)
    bots = [make_bot("baibian-bajue", "rule", s) for s in range(4)]
    for mode in ("random", "default", "bot"):
        s = game.new_state(seed=seed)
        for _ in range(4000):
            if s.is_terminal():
                break
            seat = rng.choice(s.to_act)
            act = (rng.choice(s.legal_actions(seat)) if mode == "random" else s.default_action(seat)
                   if mode == "default" else bots[seat].choose(s, seat))
            s.apply(act, seat=seat)
        assert s.is_terminal() and len(s.hand_results) == 4
        assert sum(s.result.returns) == 0
        for r in s.hand_results:
            assert sum(r["payments"]) == 0
        assert qipai.replay(s.to_record()).result.text == s.result.text


def test_bots_win_hands():
    game = qipai.load("baibian-bajue", hands_per_match=4)
    s = game.new_state(seed=0)
    bots = [make_bot("baibian-bajue", "rule", x) for x in range(4)]
    while not s.is_terminal():
        seat = s.to_act[0]
        s.apply(bots[seat].choose(s, seat), seat=seat)
    assert any(r["winners"] for r in s.hand_results)


def test_forfeit_pays_each_other_seat_and_replays():
    s = GAME.new_state(seed=2)
    s.forfeit(1, "resign")
    assert s.result.returns == (100, -300, 100, 100)
    assert qipai.replay(s.to_record()).result.text == s.result.text


# ----- the marking -------------------------------------------------------------------------------
def test_the_game_is_declared_a_proposal():
    info = next(i for i in qipai.games() if i.id == "baibian-bajue")
    assert info.status == "proposal" and info.to_json()["status"] == "proposal"
    assert GAME.marking == "proposal"
    out = CliRunner().invoke(app, ["games"]).output
    line = next(x for x in out.splitlines() if x.startswith("baibian-bajue"))
    assert "[PROPOSAL: not for competition]" in line


def test_option_first_place_tiebreak_plays_extra_hands_until_one_leads():
    # §4.3 "extra hand if a single winner is needed": default actions never win, so every hand
    # is drawn and the tie for first never breaks: the extra hands stop after 16
    plain = qipai.load("baibian-bajue", hands_per_match=1).new_state(seed=3)
    tie = qipai.load("baibian-bajue", hands_per_match=1, first_place_tiebreak=True).new_state(seed=3)
    for s in (plain, tie):
        while not s.is_terminal():
            seat = s.to_act[0]
            s.apply(s.default_action(seat), seat=seat)
    assert len(plain.hand_results) == 1 and len(tie.hand_results) == 17
    assert tie.result.winners == () and tie.view(0)["hand"] == 17
    # a win breaks the tie at once
    w = qipai.load("baibian-bajue", hands_per_match=1, first_place_tiebreak=True).new_state(
        deal=deal([HAND0, "2m3m4m5m6m7m8m2p3p4p5p6p7p", "1s2s3s4s5s6s8s8s9s9sEEE", "SSSWWWNNNFFPP"],
                  head="1p"))
    w.apply("win")
    assert w.is_terminal() and len(w.hand_results) == 1 and w.result.winners == (0,)
