"""Duplicate deals (competition.md §2.8): the same cards at every table of a group, hands rotated
by table, and scores compared between the holders of the same hand."""

from __future__ import annotations

import pytest

import qipai
from qipai.bots import make_bot
from qipai.competition import duplicate as dup
from qipai.competition.lot import deal_seed
from qipai.core.errors import OptionError
from qipai.match import BotPlayer, play_game_sync


def hand_ids(state, seat):
    return sorted(c.id for c in state.deal_hands()[seat])


@pytest.mark.parametrize("preset", ["classic", "seed002"])
def test_same_deals_at_every_table_with_rotated_seats(preset):
    game = qipai.load("doudizhu", preset=preset)
    k, tables = 3, 3
    seeds = [deal_seed("ab" * 32, "dup-group", d) for d in (1, 2)]
    for seed in seeds:
        per_table = dup.group_deals(game, seed, tables)
        states = [game.new_state(deal=deals) for deals in per_table]
        base = states[0]
        for i, st in enumerate(states):
            assert sorted(c.id for c in st.kitty) == sorted(c.id for c in base.kitty)
            for seat in range(k):
                h = dup.hand_of(i, seat, k)
                # seat j at table i holds hand (j + i) mod k of the table-0 deal ...
                assert hand_ids(st, seat) == hand_ids(base, h)
            # ... and the first bidder's position travels with its hand
            assert dup.hand_of(i, st.first_bidder, k) == base.first_bidder
            if preset == "seed002":
                assert st.face_up == base.face_up
        # the rotation really moves cards between seats: table 1 seat 0 is table 0 seat 1
        assert hand_ids(states[1], 0) == hand_ids(base, 1) != hand_ids(base, 0)


def test_duplicate_group_played_and_compared():
    game = qipai.load("doudizhu", preset="classic")
    k, tables = 3, 3
    seats = [["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"]]
    results: list[list[list[float]]] = [[] for _ in range(tables)]
    for d in (1, 2):
        seed = deal_seed("cd" * 32, "dup-group", d)
        for i, deals in enumerate(dup.group_deals(game, seed, tables)):
            state = game.new_state(deal=deals)
            players = [BotPlayer(make_bot("doudizhu", "rule", seed=7 + s)) for s in range(k)]
            out = play_game_sync(game, players, state=state, names=seats[i])
            assert out.result.returns and sum(out.result.returns) == 0
            results[i].append(list(out.result.returns))
    mp = dup.duplicate_scores(results, k)
    avg = dup.duplicate_scores(results, k, method="average")
    # matchpoints: every (deal, hand) hands out 2 per pair of holders; 3 holders -> 6 per hand
    assert sum(map(sum, mp)) == 2 * k * 6
    # the average method is zero-sum over each hand's holders
    assert sum(map(sum, avg)) == pytest.approx(0)
    # recompute one entrant by hand: table 2 seat 0 held hand 2 in each deal
    want = 0.0
    for d in range(2):
        mine = results[2][d][0]
        for i in (0, 1):
            other = results[i][d][dup.seat_of(i, 2, k)]
            want += 2 if mine > other else 1 if mine == other else 0
    assert mp[2][0] == want


def test_duplicate_scores_worked_example():
    # two tables of 3, one deal: hand h is seat h at table 0 and seat (h - 1) mod 3 at table 1
    results = [[[4, -2, -2]], [[-2, -2, 4]]]
    # hand 0: table 0 seat 0 scored 4, table 1 seat 2 scored 4 -> equal
    # hand 1: table 0 seat 1 scored -2, table 1 seat 0 scored -2 -> equal
    # hand 2: table 0 seat 2 scored -2, table 1 seat 1 scored -2 -> equal
    assert dup.duplicate_scores(results, 3) == [[1, 1, 1], [1, 1, 1]]
    results = [[[4, -2, -2]], [[2, -4, 2]]]
    # hand 0: 4 (t0 s0) vs 2 (t1 s2); hand 1: -2 (t0 s1) vs 2 (t1 s0); hand 2: -2 (t0 s2) vs -4 (t1 s1)
    assert dup.duplicate_scores(results, 3) == [[2, 0, 2], [2, 0, 0]]
    assert dup.duplicate_scores(results, 3, "average") == [[1, -2, 1], [2, -1, -1]]
    # a deal one table did not complete is compared among the others only
    assert dup.duplicate_scores([[[4, -2, -2]], [None]], 3) == [[0, 0, 0], [0, 0, 0]]


def test_duplicate_bad_input():
    with pytest.raises(OptionError, match="not available for go"):
        dup.group_deals(qipai.load("go"), "00", 2)
    with pytest.raises(OptionError, match="unknown duplicate scoring"):
        dup.duplicate_scores([[[1, 0, -1]]], 3, "imps")
    with pytest.raises(OptionError, match="2 scores for 3 seats"):
        dup.duplicate_scores([[[1, -1]]], 3)


def test_duplicate_table_knockout_event(tmp_path):
    from qipai.competition import EventError, create_event, open_db, run_event
    from qipai.competition.db import EventRow
    from qipai.competition.event import Director

    db = open_db(f"sqlite:///{tmp_path / 'd.db'}")
    over = {"match": {"session": {"seats": 3, "end": {"deals": 2}, "duplicate": True}}}
    eid = create_event(db, "s2_doudizhu", [{"id": f"p{i}", "bot": "rule"} for i in range(1, 7)],
                       overrides=over)
    out = run_event(db, eid)
    assert out["status"] == "finished" and out["outcome"]["champion"]
    game = qipai.load("doudizhu", preset="seed002")
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        t0, t1 = (m for m in d.matches(1) if m.kind == "session")
        for g0, g1 in zip(t0.games[:2], t1.games[:2], strict=True):
            assert g0.spec["seed"] == g1.spec["seed"]          # one shuffle for the round
            s0, s1 = d.new_state(game, g0), d.new_state(game, g1)
            for seat in range(3):                             # table 1 seat j holds hand j + 1
                assert hand_ids(s1, seat) == hand_ids(s0, (seat + 1) % 3)
    with pytest.raises(EventError, match="fixed number of deals"):
        create_event(db, "s0_doudizhu", [{"id": f"q{i}", "bot": "rule"} for i in range(3)],
                     overrides={"match": {"session": {"seats": 3, "end": {"target": {"score_at_least": 100}},
                                                      "duplicate": True}}})


def test_duplicate_advancement_by_matchpoints(tmp_path):
    from qipai.competition import EventError, create_event, open_db, run_event
    from qipai.competition.db import EventRow
    from qipai.competition.event import Director
    from tests.competition_helpers import snapshot

    db = open_db(f"sqlite:///{tmp_path / 'mp.db'}")
    over = {"match": {"session": {"seats": 3, "end": {"deals": 3}, "duplicate": True,
                                  "advance_by": "matchpoints"}}}
    eid = create_event(db, "s2_doudizhu", [{"id": f"p{i}", "bot": "rule"} for i in range(1, 7)],
                       overrides=over)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        t0, t1 = d.matches(1)
        # recompute the comparison from the stored deals
        results = [[g.result["returns"] for g in t.games] for t in (t0, t1)]
        assert all(len(r) == 3 for r in results)       # no extra deals: the comparison decides
        mp = dup.duplicate_scores(results, 3)
        for i, t in enumerate((t0, t1)):
            assert t.result["totals"] == mp[i]
            assert t.result["session_totals"] == [sum(r[s] for r in results[i]) for s in range(3)]
            w = t.entrants.index(t.result["winner"])
            assert max(mp[i]) == mp[i][w]                # the best matchpoint total wins
            assert t.result["ranking"][0] == t.result["winner"]
            assert t.result["text"].endswith(")") and "mp" in t.result["text"]
        # matchpoints are zero-sum-like: 2 per pair of holders of each hand, 3 hands, 3 deals
        assert sum(map(sum, mp)) == 2 * 3 * 3
        final = d.matches(2)[0]
        # the lucky loser is a best-ranked non-winner, compared by matchpoints
        cands = {x: (t.result["ranks"][t.entrants.index(x)], -t.result["totals"][t.entrants.index(x)])
                 for t in (t0, t1) for x in t.entrants if x != t.result["winner"]}
        (lucky,) = set(final.entrants) - {t0.result["winner"], t1.result["winner"]}
        assert cands[lucky] == min(cands.values())
        # a single final table has nobody to compare with: all 0, the session score decides
        assert final.result["totals"] == [0, 0, 0]
        w = final.entrants.index(final.result["winner"])
        assert final.result["session_totals"][w] == max(final.result["session_totals"])
    before = snapshot(db)
    with pytest.raises(EventError, match="needs duplicate = true"):
        create_event(db, "s2_doudizhu", [{"id": f"q{i}", "bot": "rule"} for i in range(3)],
                     overrides={"match": {"session": {"seats": 3, "end": {"deals": 2},
                                                      "advance_by": "matchpoints"}}})
    with pytest.raises(EventError, match="advance_by must be"):
        create_event(db, "s2_doudizhu", [{"id": f"q{i}", "bot": "rule"} for i in range(3)],
                     overrides={"match": {"session": {"seats": 3, "end": {"deals": 2}, "duplicate": True,
                                                      "advance_by": "imps"}}})
    assert snapshot(db) == before


def test_a_voided_duplicate_deal_is_replayed_with_the_same_cards(tmp_path):
    """§2.8 / §5.7: voiding one table's deal of a duplicate round replays that same deal (the
    comparison needs every table to hold the same cards); outside duplicate rounds a voided deal
    is dealt again with the next attempt (§5.1)."""
    from qipai.competition import create_event, open_db
    from qipai.competition.db import EventRow, GameRow
    from qipai.competition.event import Director, void_game

    db = open_db(f"sqlite:///{tmp_path / 'v.db'}")
    over = {"match": {"session": {"seats": 3, "end": {"deals": 2}, "duplicate": True}}}
    eid = create_event(db, "s2_doudizhu", [f"p{i}" for i in range(1, 7)], overrides=over)
    game = qipai.load("doudizhu", preset="seed002")
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        t0, t1 = (m for m in d.matches(1) if m.kind == "session")
        g0, g1 = t0.games[0], t1.games[0]
        ids, before = g1.id, [hand_ids(d.new_state(game, g1), seat) for seat in range(3)]
        seed = g1.spec["seed"]
    void_game(db, eid, ids, {"by": "ref", "reason": "a spectator called out a card"})
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        g1, g0 = s.get(GameRow, ids), s.get(GameRow, g0.id)
        assert g1.status == "pending" and g1.spec["voided"][0]["reason"] == "a spectator called out a card"
        assert g1.spec["seed"] == seed == g0.spec["seed"]
        assert [hand_ids(d.new_state(game, g1), seat) for seat in range(3)] == before
        assert before == [hand_ids(d.new_state(game, g0), (seat + 1) % 3) for seat in range(3)]
        assert d.rng_meta(g1)["deals"][0] == {"deal": 1, "attempt": 0, "seed": seed}
