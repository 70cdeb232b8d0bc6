"""Pair entrants (competition.md §0.2, §5.1 ``seats``, §6.3): registration of two accounts per
entrant, partners seated on one side of a partnership game, standings per pair, bad input."""

from __future__ import annotations

from collections import Counter

import pytest

import qipai
from qipai.competition import EventError, create_event, enter_result, open_db, run_event
from qipai.competition.db import EventRow
from qipai.competition.event import Director
from qipai.competition.playerfile import read_players
from tests import match_games  # noqa: F401  (test-pairs)
from tests.competition_helpers import snapshot

PAIRS = {"game": {"id": "test-pairs"}}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'p.db'}")


def pairs(n, bot="random"):
    return [{"id": f"t{i:02d}", "bot": bot, "members": [f"t{i:02d}b", f"t{i:02d}a"]} for i in range(1, n + 1)]


def test_pair_knockout_seats_partners_on_one_side(db):
    # S0 four-country junqi's format (pairs, knockout, two games then one at a time), played with
    # the small partnership game until the junqi module exists
    eid = create_event(db, "s0_junqi", pairs(6), overrides=PAIRS)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        ids = {e.entrant_id for e in d.by_draw.values()}
        assert out["outcome"]["champion"] in ids and out["outcome"]["runner_up"][0] in ids
        series = [m for m in d.matches() if m.kind == "series"]
        assert len(series) == 5                      # 6 pairs: 2 byes, 2 + 2 + 1 matches
        for m in series:
            lower_seat = {}            # pair -> its account in the lower seat of its side
            firsts = []
            for g in m.games:
                a, b = g.seats[0], g.seats[1]
                assert g.seats == [a, b, a, b] and {a, b} == set(m.entrants)
                members = g.spec["members"]
                # partners sit opposite each other (the game's sides: seats 0 + 2 and 1 + 3)
                for side in ((0, 2), (1, 3)):
                    pair = g.seats[side[0]]
                    accounts = sorted(x["id"] for x in d.by_draw[pair].members)
                    assert sorted(members[x] for x in side) == accounts
                    # the accounts keep their order on the side through the match (one shuffle)
                    assert lower_seat.setdefault(pair, members[side[0]]) == members[side[0]]
                assert g.record["seats"] == members
                assert g.record["meta"]["entrants"] == [d.name(x) for x in g.seats]
                rep = qipai.replay(qipai.Record.from_json(g.record))
                assert [tuple(x) for x in rep.sides()] == [(0, 2), (1, 3)]
                assert rep.result.text == g.result["text"]
                # the winning side's pair gets the game
                assert g.result["winner_draws"] == [g.seats[g.result["winners"][0]]]
                firsts.append(a)
            # the first move alternates between the pairs (game 1 by lot)
            assert all(x != y for x, y in zip(firsts, firsts[1:], strict=False))


def test_pair_round_robin_standings_per_pair(db):
    over = {**PAIRS, "entrants": "pairs"}
    eid = create_event(db, "s3_xiangqi", pairs(4), overrides=over)     # round robin (<= 8)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    table = out["outcome"]["standings"]
    assert sorted(r["id"] for r in table) == ["t01", "t02", "t03", "t04"]
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        games = [g for m in d.matches() for g in m.games]
        assert len(games) == 6                      # every pair meets every other once
        # each account played every game of its pair, always in the seats of its side
        played = Counter(acc for g in games for acc in g.spec["members"])
        assert set(played.values()) == {3} and len(played) == 8
        # +1 / 0 / -1 game points per pair (a win within 10 moves scores 0), summed from the games
        pts = Counter()
        for g in games:
            w = g.result["winner_draws"]
            for x in set(g.seats):
                won = 1 if g.result["moves"] > 10 else 0
                pts[d.name(x)] += 0 if not w else (won if w[0] == x else -1)
    assert {r["id"]: r["points"] for r in table} == dict(pts)


def test_pair_results_entered_by_hand(db):
    humans = [{"id": f"h{i}", "members": [f"h{i}x", {"id": f"h{i}y", "name": "Partner"}]} for i in (1, 2)]
    eid = create_event(db, "s0_junqi", humans, overrides=PAIRS)
    out = run_event(db, eid)
    assert out["played"] == 0 and len(out["waiting"]) == 1
    g = enter_result(db, eid, out["waiting"][0], "1-0")
    assert g.result["winners"] == [0, 2]
    with db() as s:
        row = s.get(type(g), g.id)
        assert row.record["seats"] == row.spec["members"]
        assert set(row.spec["members"]) == {"h1x", "h1y", "h2x", "h2y"}


def test_bad_pair_registrations_change_nothing(db):
    create_event(db, "s0_junqi", pairs(2), overrides=PAIRS, event_id="ok")
    before = snapshot(db)
    cases = [
        ("s0_junqi", [{"id": "a", "members": ["a1"]}, {"id": "b", "members": ["b1", "b2"]}], PAIRS,
         "exactly two members"),
        ("s0_junqi", [{"id": "a", "bot": "random", "members": ["x", "y"]},
                      {"id": "b", "bot": "random", "members": ["y", "z"]}], PAIRS,
         "account 'y' is already entered"),
        ("s0_junqi", [{"id": "a", "members": ["a1", "a1"]}, {"id": "b", "members": ["b1", "b2"]}], PAIRS,
         "account 'a1' is already entered"),
        ("s0_junqi", [{"id": "a", "members": ["a1", "a 2"]}, {"id": "b", "members": ["b1", "b2"]}], PAIRS,
         "member id 'a 2'"),
        ("s0_junqi", [{"id": "a", "members": ["a1", {"id": "a2", "bot": "nobot"}]},
                      {"id": "b", "members": ["b1", "b2"]}], PAIRS, "unknown bot 'nobot'"),
        ("s0_junqi", pairs(1), PAIRS, "needs at least 2 pairs"),
        ("s0_xiangqi", [{"id": "a", "members": ["a1", "a2"]}, {"id": "b"}], {"game": {"id": "test-nim"}},
         "individual entrants"),
        ("s0_junqi", pairs(2), {"game": {"id": "test-nim"}}, "two sides of two partners"),
        ("s0_xiangqi", [{"id": "a"}, {"id": "b"}], PAIRS, "its entrants must be pairs"),
        ("s0_junqi", pairs(2), {**PAIRS, "entrants": "trios"}, "entrants must be"),
        ("s0_doudizhu", pairs(3), {"game": {"id": "test-high"}, "entrants": "pairs"}, "pair card tables"),
    ]
    for preset, players, over, msg in cases:
        with pytest.raises(EventError, match=msg):
            create_event(db, preset, players, overrides=over)
    assert snapshot(db) == before


def test_a_preset_whose_game_is_missing_is_refused(db):
    before = snapshot(db)
    for preset in ("s0_junqi", "s0_shengji", "s2_4a4", "s2_tuolaji", "s3_tuolaji"):
        with pytest.raises(EventError, match=f"preset {preset}: unknown game 'no-such-game'; available"):
            create_event(db, preset, pairs(4), overrides={"game": {"id": "no-such-game"}})
    assert snapshot(db) == before


def test_players_file_with_pairs(tmp_path):
    f = tmp_path / "pairs.txt"
    f.write_text("red Team Red members=r1,r2 bot=random\nblue members=b1,b2\n")
    assert read_players(f) == [{"id": "red", "name": "Team Red", "members": ["r1", "r2"], "bot": "random"},
                               {"id": "blue", "members": ["b1", "b2"]}]
    db = open_db(f"sqlite:///{tmp_path / 'f.db'}")
    eid = create_event(db, "s0_junqi", read_players(f), overrides=PAIRS)
    with db() as s:
        ev = s.get(EventRow, eid)
        red = next(e for e in ev.entrants if e.entrant_id == "red")
        assert red.members == [{"id": "r1", "name": "r1", "bot": "random"},
                               {"id": "r2", "name": "r2", "bot": "random"}]
