"""The Guobiao mahjong referee: deals, claims, priorities, robbing, payments, views, records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai.bots import make_bot
from qipai.core.errors import IllegalAction, NotationError
from qipai.core.formats import read_records
from qipai.core.record import Record, replay
from qipai.games.mahjong_gb.state import table_points
from qipai.tiles import format_tiles, parse_tiles
from tests.xiangqi_peers import shared_dir

DATA = Path(__file__).parent / "data" / "mahjong_gb"


def _snapshot(state) -> str:
    return json.dumps([state.to_json(), [state.view(s) for s in range(4)], state.scores], sort_keys=True)


def _play(state, bots, rng=None, limit=100000):
    n = 0
    while not state.is_terminal() and n < limit:
        seat = state.to_act[0]
        a = bots[seat].choose(state, seat) if bots else rng.choice(state.legal_actions(seat))
        state.apply(a, seat=seat)
        n += 1
    return n


def _deal(hands, wall, **extra):
    return [{"hands": hands, "wall": wall, **extra}]


def _full_deal(hands: list[str], draws: str, **extra):
    """A one-hand deal whose wall starts with ``draws`` and is filled with the unused tiles."""
    used = [t for h in hands for t in parse_tiles(h)] + parse_tiles(draws)
    rest = list(range(34)) * 4
    for t in used:
        rest.remove(t)
    rest.sort()
    return _deal(hands, format_tiles(parse_tiles(draws) + rest, sort=False), **extra)


def _game(**o):
    return qipai.load("mahjong-gb", hands_per_match=1, use_flowers=False, **o)


def test_seeded_deal_is_reproducible_and_dealer_draws_14th():
    g = qipai.load("mahjong-gb")
    a, b = g.new_state(seed=11), g.new_state(seed=11)
    assert _snapshot(a) == _snapshot(b)
    dealer = a.to_act[0]
    assert dealer == 0 and sum(a.hands[0]) == 14
    assert all(sum(a.hands[s]) == 13 for s in (1, 2, 3))
    assert all(t < 34 for s in range(4) for t in range(34) if a.hands[s][t])
    tiles = sum(sum(h) for h in a.hands) + sum(len(f) for f in a.flowers) + a.wall.remaining()
    assert tiles == 144


def test_self_drawn_win_and_payments():
    hands = ["111222333m456p7p", "1359m1359p1359sE", "2468m2468p2468sS", "EEESSSWWWNNNC"]
    st_ = _game().new_state(deal=_full_deal(hands, "7p"))
    assert "win" in [str(a) for a in st_.legal_actions(0)]
    st_.apply("win", seat=0)
    info = st_.hand_results[0]
    assert info["how"] == "self_drawn" and sum(info["payments"]) == 0
    total = info["fans"]["0"]["total"]
    assert info["payments"] == [3 * (8 + total), -(8 + total), -(8 + total), -(8 + total)]
    assert st_.result.text.startswith(" ".join(str(x) for x in info["payments"]))


def test_illegal_actions_leave_the_state_unchanged():
    st_ = qipai.load("mahjong-gb").new_state(seed=5)
    before = _snapshot(st_)
    seat = st_.to_act[0]
    missing = next(t for t in range(34) if not st_.hands[seat][t])
    for bad in (f"discard {format_tiles([missing])}", "pung", "chow 123m", "win", "discard", "hello"):
        with pytest.raises(IllegalAction):
            st_.apply(bad, seat=seat)
        assert _snapshot(st_) == before
    with pytest.raises(IllegalAction):
        st_.apply(f"discard {format_tiles([missing])}", seat=(seat + 1) % 4)
    assert _snapshot(st_) == before


def test_win_below_minimum_is_refused():
    # seat 1 waits on 6s/9s with a 5-fan hand (rule file example 2); seat 0 draws and discards 9s
    hands = ["CCCFFFPPEESSW", "234m567m345p678s9s", "111m222p444p77p88p", "1122335577889s"]
    deal = _full_deal(hands, "9s")
    st_ = _game().new_state(deal=deal)
    st_.apply("discard 9s", seat=0)
    assert "win" not in [str(a) for a in st_.legal_actions(1)]
    with pytest.raises(IllegalAction, match="at least 8"):
        st_.apply("win", seat=1)
    low = _game(min_fan=5).new_state(deal=deal)
    low.apply("discard 9s", seat=0)
    assert "win" in [str(a) for a in low.legal_actions(1)]


def test_claim_priority_win_over_pung_over_chow_and_head_bump():
    # seat 0 discards 5p; seat 1 can chow (46p), seat 2 can pung (55p), seat 3 can win (single wait 5p)
    hands = ["5pEEESSSWWWNNP", "46p111m999m11s99sC", "55p222m888m22s88sF", "5p123m456m789m123s"]
    deal = _full_deal(hands, "N")
    st_ = _game(min_fan=0).new_state(deal=deal)
    st_.apply("discard 5p", seat=0)
    assert set(st_.to_act) == {1, 2, 3}
    st_.apply("chow 456p", seat=1)
    st_.apply("pung", seat=2)
    st_.apply("win", seat=3)
    assert st_.is_terminal() and st_.hand_results[0]["winners"] == [3]
    pay = st_.hand_results[0]["payments"]
    f = st_.hand_results[0]["fans"]["3"]["total"]
    assert pay == [-(8 + f), -8, -8, 24 + f]
    # without the win, the pung beats the chow
    st2 = _game(min_fan=0).new_state(deal=deal)
    st2.apply("discard 5p", seat=0)
    st2.apply("chow 456p", seat=1)
    st2.apply("pung", seat=2)
    st2.apply("pass", seat=3)
    assert st2.to_act == (2,) and st2.melds[2][0].kind == "pung"
    assert [str(a) for a in st2.legal_actions(2)][0].startswith("discard")   # no win, no kong now
    # two winners: head bump gives the first after the discarder; multiple_winners pays both
    hands2 = ["5pEEESSSWWWNNP", "5p123m456m789m123s", "CCCFFFPPP1199s", "5p123s456s789s999m"]
    deal2 = _full_deal(hands2, "N")
    one = _game(min_fan=0).new_state(deal=deal2)
    one.apply("discard 5p", seat=0)
    assert set(one.to_act) == {1, 2, 3}   # every other seat answers; only 1 and 3 can win
    assert "win" not in [str(a) for a in one.legal_actions(2)]
    for s in list(one.to_act):
        one.apply("pass" if s == 2 else "win", seat=s)
    assert one.hand_results[0]["winners"] == [1]
    both = _game(min_fan=0, multiple_winners=True).new_state(deal=deal2)
    both.apply("discard 5p", seat=0)
    for s in list(both.to_act):
        both.apply("pass" if s == 2 else "win", seat=s)
    assert both.hand_results[0]["winners"] == [1, 3] and sum(both.hand_results[0]["payments"]) == 0


def _pass_all(state):
    while state.phase != "turn" and not state.is_terminal():
        for s in list(state.to_act):
            state.apply("pass", seat=s)


def test_robbing_an_added_kong():
    hands = ["55pEEESSSWWWNC", "5p111m222m333mCCF", "46p123s456s789s99m", "77p88p11s77s88sPPF"]
    st_ = _game(min_fan=0).new_state(deal=_full_deal(hands, "N E S W N 5p"))
    st_.apply("discard N", seat=0)
    _pass_all(st_)
    st_.apply("discard 5p", seat=1)
    assert set(st_.to_act) == {0, 2, 3}
    st_.apply("pass", seat=2)
    st_.apply("pass", seat=3)
    st_.apply("pung", seat=0)
    st_.apply("discard W", seat=0)
    _pass_all(st_)
    for seat, tile in ((1, "S"), (2, "W"), (3, "N")):
        assert st_.to_act == (seat,) and st_.drawn == parse_tiles(tile)[0]
        st_.apply(f"discard {tile}", seat=seat)
        _pass_all(st_)
    assert st_.to_act == (0,) and "add 5p" in [str(a) for a in st_.legal_actions(0)]
    st_.apply("add 5p", seat=0)
    assert st_.phase == "rob" and st_.to_act == (1, 2, 3)
    assert "win" not in [str(a) for a in st_.legal_actions(1) + st_.legal_actions(3)]
    st_.apply("pass", seat=1)
    st_.apply("pass", seat=3)
    st_.apply("win", seat=2)
    info = st_.hand_results[0]
    assert info["how"] == "robbing_kong" and info["winners"] == [2]
    assert 47 in [f["no"] for f in info["fans"]["2"]["fans"]]
    assert info["payments"][0] == -(8 + info["fans"]["2"]["total"])


def test_random_four_bot_games_never_crash_and_payments_sum_to_zero():
    g = qipai.load("mahjong-gb", hands_per_match=4)
    for seed in range(3):
        st_ = g.new_state(seed=seed)
        bots = {s: make_bot("mahjong-gb", "fast", seed * 10 + s) for s in range(4)}
        _play(st_, bots)
        assert st_.is_terminal() and len(st_.hand_results) == 4
        for info in st_.hand_results:
            assert sum(info["payments"]) == 0
        assert sum(st_.result.returns) == 0
        # JSON round trip replays to the same state
        again = g.state_from_json(json.loads(json.dumps(st_.to_json())))
        assert again.result == st_.result and again.scores == st_.scores


def test_a_full_sixteen_hand_match_with_seat_changes():
    g = qipai.load("mahjong-gb")
    st_ = g.new_state(seed=99)
    bots = {s: make_bot("mahjong-gb", "fast", s) for s in range(4)}
    winds = set()
    while not st_.is_terminal():
        winds.add((st_.hand_no, st_.prevalent, tuple(st_.order)))
        seat = st_.to_act[0]
        st_.apply(bots[seat].choose(st_, seat), seat=seat)
    assert len(st_.hand_results) == 16
    assert [h["prevalent"] for h in st_.hand_results] == list("EEEESSSSWWWWNNNN")
    assert {o for _, p, o in winds if p == 1} == {(1, 0, 3, 2)}
    assert sum(st_.result.returns) == 0 and sum(st_.result.details["table_points"]) == 7


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6))
def test_random_playouts_legal_actions_apply_and_views_hide_tiles(seed):
    rng = random.Random(seed)
    st_ = qipai.load("mahjong-gb", hands_per_match=1).new_state(seed=seed)
    while not st_.is_terminal():
        seat = rng.choice(st_.to_act)
        view = st_.view(seat)
        for other in range(4):
            if other != seat:
                assert "hand" not in view["seats"][other]
                assert all("tiles" in m or m.get("concealed") for m in view["seats"][other]["melds"])
        acts = st_.legal_actions(seat)
        wins = [a for a in acts if a.kind == "win"]
        st_.apply(wins[0] if wins else rng.choice(acts), seat=seat)
    assert sum(st_.result.returns) == 0
    rec = Record.from_json(json.loads(json.dumps(st_.to_record().to_json())))
    assert replay(rec).result == st_.result


def test_default_action_is_pass_or_discard():
    st_ = qipai.load("mahjong-gb").new_state(seed=3)
    seat = st_.to_act[0]
    a = st_.default_action(seat)
    assert a.kind == "discard" and a in st_.legal_actions(seat)


def test_table_points_share_ties():
    assert table_points([10, 5, 0, -15]) == [4, 2, 1, 0]
    assert table_points([10, 10, 0, -20]) == [3, 3, 1, 0]


def test_bad_deals_are_refused():
    with pytest.raises(NotationError):
        _game().new_state(deal=[{"hands": ["123m"] * 4, "wall": "1m"}])


def test_pmn_samples_replay_with_fans_and_scores():
    for path in sorted(DATA.glob("*.pmn")):
        fmt, recs = read_records(path.read_bytes(), str(path))
        assert fmt == "pmn" and len(recs) == 1
        state = replay(recs[0], source=str(path))
        assert state.result.text == recs[0].result["text"]
        assert "|" in state.result.text


def test_pmn_duplicate_two_winners():
    path = DATA / "python-majiang_example_2.pmn"
    _, recs = read_records(path.read_bytes(), str(path))
    state = replay(recs[0])
    assert state.hand_results[0]["winners"] == [1, 3]
    assert [int(x) for x in state.result.returns] == [-32, 36, -8, 36]


def test_botzone_sample_replays_fans_and_scores():
    folder = shared_dir("mahjong_mcr")
    path = folder / "botzone_sample.txt"
    fmt, recs = read_records(path.read_bytes(), str(path))
    assert fmt == "botzone-mahjong" and len(recs) == 16
    wins = 0
    for rec in recs:
        state = replay(rec, source=str(path))
        assert sum(state.result.returns) == 0
        wins += bool(state.hand_results[0]["winners"])
    assert wins == 14


def test_malformed_record_names_the_line():
    bad = b"Match x\nWind 0\nPlayer 0 Deal W1\n" + b"Player 1 Deal W1\n" * 3 + b"Player 0 Draw W2\n"
    from qipai.core.errors import RecordError

    with pytest.raises(RecordError, match="line 3"):
        read_records(bad, "bad.txt")


def test_result_details_are_a_copy_of_the_hands():
    st_ = qipai.load("mahjong-gb", hands_per_match=1).new_state(seed=1)
    bots = {s: make_bot("mahjong-gb", "fast", s) for s in range(4)}
    _play(st_, bots)
    hands = st_.result.details["hands"]
    assert hands == st_.hand_results and hands is not st_.hand_results
    hands[0]["payments"][0] += 1000
    assert st_.hand_results[0]["payments"] != hands[0]["payments"]
    st2 = qipai.load("mahjong-gb", hands_per_match=4).new_state(seed=1)
    st2.forfeit(2, "resign")
    assert st2.result.details["hands"] is not st2.hand_results


def test_an_explicit_deal_is_checked_for_tile_counts_when_the_state_is_made():
    """Five copies of a tile, or more tiles than a set has, are refused when the state is made,
    with the tile named, not later in play."""
    hands = ["1112345678m 99p 1s", "123456p 234567s E", "789s EE SSS WWW N C", "NNN CCC FFF PPP 9m"]
    ok = _full_deal(hands, "7p")
    _game().new_state(deal=ok)
    wall = ok["wall"] if isinstance(ok, dict) else ok[0]["wall"]
    with pytest.raises(NotationError, match="5 copies of 1m"):
        _game().new_state(deal=_deal(hands, "1m" + wall))            # one more 1m: five in all
    with pytest.raises(NotationError, match="2 copies of f1"):
        qipai.load("mahjong-gb", hands_per_match=1).new_state(deal=_deal(hands, "f1 f1" + wall))
