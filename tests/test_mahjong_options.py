"""Every rule option of mahjong-gb (rule file 4.6) changes the outcome of a game.

Options tested elsewhere: ``min_fan`` and ``multiple_winners`` (test_mahjong_game.py),
``mixed_kongs`` and ``exclusions`` (test_mahjong_fans.py, the calculator the referee calls),
``wall_layout`` (test_mahjong_gb_breaker.py), ``hands_per_match`` (both game test files).
"""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.bots import make_bot
from qipai.core.errors import IllegalAction
from qipai.core.record import Record, replay
from qipai.match.players import BotPlayer, ScriptedPlayer
from qipai.match.runner import play_game_sync
from qipai.tiles import format_tiles, parse_tiles


def _wall_deal(hands: list[str], head: str = "", tail: str = "", flowers: bool = False):
    """A one-hand deal: the wall starts with ``head`` (normal draws in order) and ends with
    ``tail`` (replacement draws in order, so its first tile is the wall's last); the unused
    tiles fill the middle."""
    used = [t for h in hands for t in parse_tiles(h)] + parse_tiles(head) + parse_tiles(tail)
    rest = list(range(34)) * 4 + (list(range(34, 42)) if flowers else [])
    for t in used:
        rest.remove(t)
    rest.sort()
    wall = parse_tiles(head) + rest + parse_tiles(tail)[::-1]
    return [{"hands": hands, "wall": format_tiles(wall, sort=False)}]


def _game(**o):
    o.setdefault("hands_per_match", 1)
    o.setdefault("use_flowers", False)
    return qipai.load("mahjong-gb", **o)


def _texts(state, seat):
    return [str(a) for a in state.legal_actions(seat)]


# ----- use_flowers -------------------------------------------------------------------------------
def test_use_flowers_sets_the_tile_count():
    for flag, total in ((True, 144), (False, 136)):
        st = qipai.load("mahjong-gb", use_flowers=flag).new_state(seed=4)
        tiles = sum(sum(h) for h in st.hands) + sum(len(f) for f in st.flowers) + st.wall.remaining()
        assert tiles == total
        if not flag:
            assert not any(st.flowers)


# ----- base_points and duplicate_scoring ---------------------------------------------------------
# seat 0 discards 5p; seat 1 and seat 3 can both win on it (two chows-and-pair hands)
TWO_WINNERS = ["5pEEESSSWWWNNP", "5p123m456m789m123s", "CCCFFFPPP1199s", "5p123s456s789s999m"]


def _two_winner_hand(**o):
    st = _game(min_fan=0, multiple_winners=True, **o).new_state(deal=_wall_deal(TWO_WINNERS, head="N"))
    st.apply("discard 5p", seat=0)
    for s in list(st.to_act):
        st.apply("pass" if s == 2 else "win", seat=s)
    return st.hand_results[0]


def test_base_points_change_every_payment():
    eight, two = _two_winner_hand(), _two_winner_hand(base_points=2)
    f1, f3 = eight["fans"]["1"]["total"], eight["fans"]["3"]["total"]
    assert eight["payments"] == [-(8 + f1) - (8 + f3), 16 + f1, -16, 16 + f3]
    assert two["payments"] == [-(2 + f1) - (2 + f3), 4 + f1, -4, 4 + f3]


def test_duplicate_scoring_pays_each_winner_three_bases():
    plain, dup = _two_winner_hand(), _two_winner_hand(duplicate_scoring=True)
    f1, f3 = dup["fans"]["1"]["total"], dup["fans"]["3"]["total"]
    assert dup["payments"] == [-8 - f1 - f3, 24 + f1, -8, 24 + f3]
    assert dup["payments"] != plain["payments"]


# ----- flowers_count_toward_min --------------------------------------------------------------------
def test_flowers_count_toward_min_lets_a_five_fan_hand_with_three_flowers_win():
    # seat 1 is dealt three flowers, replaced from the tail by 7s 8s 9s: it then waits on 6s/9s
    # with a 5-fan hand (rule file example 2); seat 0 draws 9s and discards it
    hands = ["CCCFFFPPEESSW", "234m567m345p6sf1f2f3", "111m222p444p77p88p", "1122335577889s"]
    deal = _wall_deal(hands, head="9s", tail="7s 8s 9s", flowers=True)
    for flag in (False, True):
        st = _game(use_flowers=True, flowers_count_toward_min=flag).new_state(deal=deal)
        assert len(st.flowers[1]) == 3
        st.apply("discard 9s", seat=0)
        assert ("win" in _texts(st, 1)) is flag
        if flag:
            st.apply("pass", seat=2)
            st.apply("pass", seat=3)
            st.apply("win", seat=1)
            fans = st.hand_results[0]["fans"]["1"]
            assert (fans["base_total"], fans["total"]) == (5, 8)


# ----- seat_rotation -------------------------------------------------------------------------------
def test_seat_rotation_fixed_keeps_the_seats_in_the_second_round():
    orders = {}
    for rotation in ("mcr", "fixed"):
        st = qipai.load("mahjong-gb", hands_per_match=16, seat_rotation=rotation).new_state(seed=2)
        bots = [make_bot("mahjong-gb", "fast", s) for s in range(4)]
        while st.hand_no < 4:
            seat = st.to_act[0]
            st.apply(bots[seat].choose(st, seat), seat=seat)
        orders[rotation] = (st.prevalent, list(st.order))
    assert orders == {"mcr": (1, [1, 0, 3, 2]), "fixed": (1, [0, 1, 2, 3])}


# ----- rob_concealed_kong_for_13_orphans -----------------------------------------------------------
# seat 0 holds four 1m and declares a concealed kong; seat 1 waits on 1m with thirteen orphans;
# seat 2 also waits on 1m, with an ordinary hand that may not rob a concealed kong
ORPHANS = ["1111m234p567sEEE", "9m1p9p1s9sESWNCFPP", "2m3m123p456p789p11s", "2233445566778s"]


def test_a_concealed_kong_is_robbed_only_with_the_option_and_only_for_thirteen_orphans():
    deal = _wall_deal(ORPHANS, head="C", tail="5m")
    off = _game(min_fan=0).new_state(deal=deal)
    off.apply("kong 1m", seat=0)
    assert off.phase == "turn" and off.to_act == (0,) and off.drawn == parse_tiles("5m")[0]

    on = _game(min_fan=0, rob_concealed_kong_for_13_orphans=True).new_state(deal=deal)
    on.apply("kong 1m", seat=0)
    assert on.phase == "rob" and set(on.to_act) == {1, 2, 3}
    assert on.view(2)["claim"]["tile"] is None and on.view(None)["claim"]["tile"] is None
    assert on.view(0)["claim"]["tile"] == "1m"
    assert "win" in _texts(on, 1) and "win" not in _texts(on, 2)
    with pytest.raises(IllegalAction, match="thirteen orphans"):
        on.apply("win", seat=2)
    on.apply("pass", seat=2)
    on.apply("pass", seat=3)
    on.apply("win", seat=1)
    info = on.hand_results[0]
    assert info["how"] == "robbing_kong" and info["winners"] == [1]
    nos = [f["no"] for f in info["fans"]["1"]["fans"]]
    assert 7 in nos and 47 in nos        # 十三幺, 抢杠和
    total = info["fans"]["1"]["total"]
    assert info["payments"] == [-(8 + total), 24 + total, -8, -8]
    assert info["revealed"]["0"].startswith("111m")   # the robbed kong went back to the hand


def test_an_unrobbed_concealed_kong_gets_its_replacement():
    deal = _wall_deal(ORPHANS, head="C", tail="5m")
    st = _game(rob_concealed_kong_for_13_orphans=True).new_state(deal=deal)
    st.apply("kong 1m", seat=0)
    for s in (1, 2, 3):
        st.apply("pass", seat=s)
    assert st.phase == "turn" and st.to_act == (0,) and st.drawn == parse_tiles("5m")[0]
    assert st.melds[0][0].concealed


# ----- illegal_action_policy -----------------------------------------------------------------------
def test_botzone_policy_penalty_ends_the_hand_and_the_match_goes_on():
    refuse = qipai.load("mahjong-gb", hands_per_match=4).new_state(seed=8)
    before = json.dumps(refuse.to_json())
    assert refuse.penalize_illegal(0) is False
    with pytest.raises(IllegalAction, match="botzone"):
        refuse.apply("penalty", seat=0)
    assert json.dumps(refuse.to_json()) == before

    g = qipai.load("mahjong-gb", hands_per_match=4, illegal_action_policy="botzone")
    st = g.new_state(seed=8)
    assert "penalty" not in _texts(st, 0)
    with pytest.raises(IllegalAction):
        st.apply("discard 9m" if not st.hands[0][8] else "pung", seat=0)
    assert st.penalize_illegal(0) is True
    assert st.hand_results[0]["how"] == "penalty" and st.hand_results[0]["payments"] == [-30, 10, 10, 10]
    assert st.hand_no == 1 and not st.is_terminal() and st.scores == [-30, 10, 10, 10]
    with pytest.raises(IllegalAction):
        st.penalize_illegal((st.to_act[0] + 1) % 4)      # only a seat that is to act
    again = g.state_from_json(json.loads(json.dumps(st.to_json())))
    assert again.scores == st.scores and again.hand_no == 1


@pytest.mark.parametrize("policy", ["refuse", "botzone"])
def test_the_match_runner_applies_the_policy(policy):
    g = qipai.load("mahjong-gb", hands_per_match=1, illegal_action_policy=policy)
    players = [ScriptedPlayer([(0, "discard 1m x")] + [(0, None)]) if s == 0
               else BotPlayer(make_bot("mahjong-gb", "fast", s)) for s in range(4)]
    out = play_game_sync(g, players, seed=5, clock={"move_cap": 1000, "on_cap": "auto"})
    refused = [e for e in out.events if e["type"] == "refused"]
    assert refused and refused[0]["seat"] == 0
    if policy == "botzone":
        assert out.result.reason == "penalty" and list(out.result.returns) == [-30, 10, 10, 10]
        assert out.record.actions == ["penalty"]
        assert any(e["type"] == "penalty" for e in out.events)
    else:
        assert out.result.reason != "penalty" and "penalty" not in json.dumps(out.record.actions)
        assert len(out.record.actions) > 1      # the timeout played seat 0's default discard
    again = replay(Record.from_json(json.loads(json.dumps(out.record.to_json()))))
    assert again.result == out.result


@pytest.mark.parametrize("bot", ["fast", "mcts3"])
def test_bots_rob_a_concealed_kong_only_with_thirteen_orphans(bot):
    # seat 2 also waits on 1m but may not rob a concealed kong: every bot passes there, and the
    # thirteen-orphans hand robs; without the option no window opens at all
    deal = _wall_deal(ORPHANS, head="C", tail="5m")
    on = _game(min_fan=0, rob_concealed_kong_for_13_orphans=True).new_state(deal=deal)
    on.apply("kong 1m", seat=0)
    answers = {s: str(make_bot("mahjong-gb", bot, seed=s).choose(on, s)) for s in (1, 2, 3)}
    assert answers == {1: "win", 2: "pass", 3: "pass"}
    for s in (2, 3, 1):
        on.apply(answers[s], seat=s)
    assert on.hand_results[0]["how"] == "robbing_kong"
    off = _game(min_fan=0).new_state(deal=deal)
    off.apply("kong 1m", seat=0)
    assert off.phase == "turn" and off.to_act == (0,)
