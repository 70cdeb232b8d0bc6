"""Format primitives of competition.md §2: series, sessions, brackets, round robin, Swiss, lots."""

from __future__ import annotations

import pytest

from qipai.competition import lot
from qipai.competition.config import load_preset, parse_config, preset_data, preset_names
from qipai.competition.pairing import (
    berger_rounds,
    knockout_first_round,
    knockout_next_round,
    lucky_loser_count,
    slot_order,
    swiss_pairings,
    table_round,
)
from qipai.competition.rules import GamePoints, SeriesGame, SeriesRule, series_status
from qipai.competition.sessionrule import SessionRule, session_status
from qipai.core.errors import OptionError


def s0_rule() -> SeriesRule:
    return load_preset("s0_xiangqi").series


def test_s0_series_goes_to_a_fourth_game_with_coin_toss_and_rapid_clock():
    rule = s0_rule()
    coin = {3: 1}.get
    st = series_status(rule, [], coin=lambda n: coin(n, 0))
    assert (st.done, st.number, st.first, st.clock) == (False, 1, 0, "xq_s0_slow")  # lower number first
    games = [SeriesGame(0, 0, 40)]
    st = series_status(rule, games, coin=lambda n: coin(n, 0))
    assert (st.number, st.first, st.clock) == (2, 1, "xq_s0_slow")                 # alternate
    games.append(SeriesGame(1, 1, 30))     # B moves first and wins game 2: 1-1
    st = series_status(rule, games, coin=lambda n: coin(n, 0))
    assert (st.done, st.number, st.first, st.clock) == (False, 3, 1, "xq_s0_rapid")  # coin toss: 1
    games.append(SeriesGame(1, None, 80))  # game 3 drawn: 1.5-1.5
    st = series_status(rule, games, coin=lambda n: coin(n, 0))
    assert (st.done, st.number, st.first, st.clock) == (False, 4, 0, "xq_s0_rapid")  # alternation goes on
    assert st.describe(3) == "1.5-1.5 after 3 games"
    games.append(SeriesGame(0, 1, 55))     # game 4 decides
    st = series_status(rule, games, coin=lambda n: coin(n, 0))
    assert (st.done, st.winner, st.points, st.decided_by) == (True, 1, (1.5, 2.5), "extra game")
    assert st.describe(4) == "1.5-2.5 after 4 games"


def test_best_of_three_stops_early_and_cap_goes_to_lot():
    rule = load_preset("s2_xiangqi").series
    st = series_status(rule, [SeriesGame(0, 0), SeriesGame(1, 0)], coin=lambda n: 0)
    assert (st.done, st.winner, st.points) == (True, 0, (2.0, 0.0))
    capped = SeriesRule(scheduled=1, max_extra=2)
    st = series_status(capped, [SeriesGame(0, None)] * 3, coin=lambda n: 0, lot=lambda: 1)
    assert (st.done, st.winner, st.decided_by) == (True, 1, "lot")
    level = SeriesRule(scheduled=1, tiebreak="none")
    assert series_status(level, [SeriesGame(0, None)], coin=lambda n: 0).winner is None


def test_short_game_rule_points():
    gp = load_preset("s3_xiangqi").game_points
    assert gp.score(True, 10) == 0 and gp.score(True, 11) == 1
    assert gp.score(False, 3) == -1 and gp.score(None, 50) == 0
    assert gp.score(True, 0) == 0          # a forfeit counts as 0 moves
    assert GamePoints().score(True, 1) == 1


def test_session_target_and_time_limited_match_ending_level():
    rule = SessionRule(seats=3, target=100, time_limit=90 * 60_000)
    st = session_status(rule, [([40, -20, -20], 30 * 60_000), ([60, -30, -30], 10 * 60_000)])
    assert st.done and st.ranking[0] == 0 and st.ended_by == "target"
    # time runs out with seats 0 and 1 level: extra deals until one seat leads alone
    deals = [([10, -5, -5], 50 * 60_000), ([-5, 10, -5], 41 * 60_000)]
    st = session_status(rule, deals)
    assert not st.done and st.extra and st.totals == (5, 5, -10) and st.ended_by == "time"
    st = session_status(rule, deals + [([-2, -2, 4], 60_000)])    # still level at the top
    assert not st.done and st.totals == (3, 3, -6)
    st = session_status(rule, deals + [([-2, -2, 4], 60_000), ([4, -2, -2], 60_000)])
    assert st.done and st.ranking == (0, 1, 2) and st.ranks == (1, 2, 3) and st.deals == 2


def test_session_fixed_deals_and_shared_ranks():
    rule = parse_config("x", preset_data("s2_doudizhu")).session
    deals = [([2, -1, -1], 0)] * 4 + [([-2, 4, -2], 0)]
    st = session_status(rule, deals)
    assert st.done and st.totals == (6, 0, -6) and st.ranking[0] == 0
    st = session_status(rule, [([2, -1, -1], 0), ([-1, 2, -1], 0)] * 2 + [([0, 0, 0], 0)])
    assert not st.done and st.extra


def test_knockout_byes_for_twelve_entrants():
    assert slot_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert slot_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    r1 = knockout_first_round(12)
    assert r1 == [(1, None), (8, 9), (4, None), (5, 12), (2, None), (7, 10), (3, None), (6, 11)]
    assert sorted(a for a, b in r1 if b is None) == [1, 2, 3, 4]        # byes to 1..P-N
    assert knockout_next_round([1, 9, 4, 5]) == [(1, 9), (4, 5)]
    assert knockout_first_round(2) == [(1, 2)]
    with pytest.raises(OptionError):
        knockout_first_round(1)


def test_table_knockout_rounds_of_three():
    # §2.5 examples with k = 3
    tables, byes = table_round([1, 2, 3, 4], 3, {})
    assert (tables, byes, lucky_loser_count(4, 3)) == ([[2, 3, 4]], [1], 1)
    tables, byes = table_round(list(range(1, 9)), 3, {})
    assert (tables, byes) == ([[3, 4, 5], [6, 7, 8]], [1, 2]) and lucky_loser_count(8, 3) == 0
    assert lucky_loser_count(6, 3) == 1 and lucky_loser_count(7, 3) == 0
    assert table_round(list(range(1, 5)), 3, {1: 1})[1] == [2]          # fewest byes first
    with pytest.raises(OptionError):
        table_round([1, 2], 3, {})


def test_berger_tables_match_fide():
    assert berger_rounds(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    six = berger_rounds(6)
    assert six[0] == [(1, 6), (2, 5), (3, 4)]
    assert six[1] == [(6, 4), (5, 3), (1, 2)]
    assert six[4] == [(3, 6), (4, 2), (5, 1)]
    for n in (5, 7, 8, 10):
        rounds = berger_rounds(n)
        met = {frozenset(p) for r in rounds for p in r}
        m = n + n % 2
        assert len(rounds) == m - 1 and len(met) == m * (m - 1) // 2


def test_swiss_known_first_round_and_invariants():
    # Dutch system, round 1, 8 players: 1-5, 6-2, 3-7, 8-4 (top half against bottom half)
    assert swiss_pairings(8, 5, [[] for _ in range(8)]) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    # play 4 rounds of 7 players (higher number always loses): no rematch, at most one bye each
    n, total = 7, 4
    hist: list[list[tuple[int, str, str]]] = [[] for _ in range(n)]
    for _ in range(total):
        pairs = swiss_pairings(n, total, hist)
        assert sorted(x for p in pairs for x in p if x) == list(range(1, n + 1))
        for a, b in pairs:
            if b is None:
                hist[a - 1].append((0, "-", "U"))
                continue
            hist[a - 1].append((b, "w", "1" if a < b else "0"))
            hist[b - 1].append((a, "b", "1" if b < a else "0"))
    for rows in hist:
        opps = [o for o, _, _ in rows if o]
        assert len(opps) == len(set(opps))
        assert sum(1 for _, _, r in rows if r == "U") <= 1


def test_lot_is_hmac_stream_and_reproducible():
    secret = "00" * 32
    s = lot.seed(secret, "deal", ["m42", 1, 0, "aa11", "bb22", "cc33"])
    import hashlib
    import hmac

    want = hmac.new(bytes(32), b"qipai-rng-v1|deal|m42|1|0|aa11|bb22|cc33", hashlib.sha256).digest()
    assert s == want
    st = lot.Stream(s)
    block0 = hmac.new(s, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    assert st.word() == int.from_bytes(block0[:8], "big")
    order = lot.draw_order(secret, "ev", 1, ["c", "a", "b"])
    assert sorted(order) == ["a", "b", "c"] and order == lot.draw_order(secret, "ev", 1, ["b", "c", "a"])
    assert lot.commitment(secret) == hashlib.sha256(bytes(32)).hexdigest()
    with pytest.raises(ValueError):
        lot.seed(secret, "deal", ["a|b"])


def test_every_preset_parses_and_bad_presets_are_refused():
    names = preset_names()
    assert {"s0_xiangqi", "s2_xiangqi", "s3_xiangqi", "s0_doudizhu", "s2_doudizhu", "s3_doudizhu",
            "s0_gomoku", "s3_gomoku", "s2_go", "s4_wakeng", "s0_baohuang"} <= set(names)
    assert {"s0_junqi", "s0_shengji", "s2_4a4", "s2_tuolaji", "s3_tuolaji", "s0_tiaoqi",
            "s3_tiaoqi"} <= set(names)
    for name in names:
        data = preset_data(name)
        cfg = parse_config(name, data)
        assert cfg.game_id == data["game"]["id"]
        assert cfg.pairs == (data.get("entrants") == "pairs")
        measure = data.get("match", {}).get("session", {}).get("measure", "score")
        assert cfg.session is None or cfg.session.measure == measure
    assert load_preset("s3_gomoku").game_options == {"ruleset": "freestyle"}
    with pytest.raises(OptionError, match="unknown preset 'nope'; valid presets"):
        preset_data("nope")
    with pytest.raises(OptionError, match="stage.kind"):
        parse_config("bad", {"game": {"id": "xiangqi"}, "stage": {"kind": "ladder"}})
    with pytest.raises(OptionError, match="unknown series parameter"):
        parse_config("bad", {"game": {"id": "xiangqi"}, "stage": {"kind": "knockout"},
                             "match": {"series": {"best_of": 3}}})
