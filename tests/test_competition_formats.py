"""Draw with seeding (§2.1), double round robin and standings tie-breaks (§2.8), entered by hand
or played by bots, with bad input refused and nothing changed."""

from __future__ import annotations

from itertools import combinations

import pytest

from qipai.competition import EventError, create_event, enter_result, lot, open_db, run_event
from qipai.competition.db import EventRow, GameRow
from qipai.competition.event import Director
from qipai.competition.pairing import knockout_first_round
from tests import match_games  # noqa: F401  (test-nim)
from tests.competition_helpers import draws, snapshot

NIM = {"game": {"id": "test-nim"}}
RR_MATCH_POINTS = {**NIM, "standings": "match_points", "game_points": {"win": 1, "drawn": 0.5, "loss": 0}}


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'f.db'}")


# ----- seeded draw ---------------------------------------------------------------------------


def test_seeded_draw_places_the_best_rated_first_and_the_rest_by_lot(db):
    ratings = {"p01": 1500, "p02": 2100, "p03": 1800, "p04": None, "p05": 2400, "p06": 1800,
               "p07": 1200, "p08": 1600, "p09": 1700, "p10": 1900, "p11": None, "p12": 1650}
    players = [{"id": p, "bot": "random", "rating": r} for p, r in ratings.items()]
    secret = "5e" * 32
    over = {**NIM, "draw": {"seeded": {"count": 4}}}
    eid = create_event(db, "s0_xiangqi", players, overrides=over, event_id="seeded", secret=secret)
    got = draws(db, eid)
    by_number = [p for p, _ in sorted(got.items(), key=lambda x: x[1])]
    # p03 and p06 share 1800 for the fourth seed: the lot among the rated entrants decides
    tie = lot.stream(secret, "lot", eid, 1, "seeding").shuffle(sorted(p for p, r in ratings.items() if r))
    fourth = min(("p03", "p06"), key=tie.index)
    # the four highest ratings get draw numbers 1..4 in rating order
    assert by_number[:4] == ["p05", "p02", "p10", fourth]
    # the rest are the verifiable draw of the others (sorted by id, shuffled, purpose draw)
    assert by_number[4:] == lot.draw_order(secret, eid, 1, [p for p in ratings if p not in by_number[:4]])
    # 12 entrants: the byes of round 1 go to draw numbers 1..4, i.e. the four seeds
    with db() as s:
        r1 = Director(s, s.get(EventRow, eid)).matches(1)
        assert sorted(m.entrants[0] for m in r1 if m.kind == "bye") == [1, 2, 3, 4]
    # the seeds sit in different quarters of the bracket
    pairs = knockout_first_round(12)
    quarter = {d: i // 2 for i, pair in enumerate(pairs) for d in pair if d}
    assert len({quarter[d] for d in (1, 2, 3, 4)}) == 4


def test_seeded_draw_bad_input_changes_nothing(db):
    before = snapshot(db)
    few = [{"id": f"p{i}", "bot": "random", "rating": 1500 if i < 2 else None} for i in range(6)]
    with pytest.raises(EventError, match="needs 3 ratings, but only 2"):
        create_event(db, "s0_xiangqi", few, overrides={**NIM, "draw": {"seeded": {"count": 3}}})
    with pytest.raises(EventError, match="draw must be"):
        create_event(db, "s0_xiangqi", few, overrides={**NIM, "draw": {"seeded": {"count": 0}}})
    with pytest.raises(EventError, match="draw must be"):
        create_event(db, "s0_xiangqi", few, overrides={**NIM, "draw": "by_age"})
    with pytest.raises(EventError, match="rating 'high' is not a whole number"):
        create_event(db, "s0_xiangqi", [{"id": "a", "rating": "high"}, {"id": "b"}], overrides=NIM)
    assert snapshot(db) == before


# ----- double round robin ----------------------------------------------------------------------


def test_double_round_robin_swaps_the_first_mover(db):
    over = {**RR_MATCH_POINTS, "stage": {"kind": "round_robin", "double": True}}
    eid = create_event(db, "s3_xiangqi", [{"id": f"p{i}", "bot": "random"} for i in range(1, 6)],
                       overrides=over)
    out = run_event(db, eid)
    assert out["status"] == "finished"
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        ms = [m for m in d.matches() if m.kind == "series"]
        # 5 entrants: every pair twice, 2 x 5 rounds (one entrant sits out each round)
        assert d.current_round() == 10 and len(ms) == 20
        seen = {}
        for m in ms:
            seen.setdefault(frozenset(m.entrants), []).append(m.games[0].seats[0])
        assert len(seen) == 10
        for pair, firsts in seen.items():
            assert sorted(firsts) == sorted(pair)          # each moved first once
        assert sum(r["points"] for r in out["outcome"]["standings"]) == 20


def test_double_only_for_round_robin(db):
    with pytest.raises(EventError, match="stage.double applies to a round robin"):
        create_event(db, "s0_xiangqi", [{"id": f"p{i}"} for i in range(4)],
                     overrides={**NIM, "stage": {"kind": "knockout", "double": True}})


# ----- tie-breaks ------------------------------------------------------------------------------


def play_by_hand(db, eid, winners):
    """Enter every game of a round robin: ``winners[frozenset(pair)]`` is the winner's id
    (or None for a drawn game)."""
    while True:
        out = run_event(db, eid)
        if out["status"] == "finished":
            return out
        with db() as s:
            g = s.get(GameRow, out["waiting"][0])
            by_draw = {e.draw: e.entrant_id for e in s.get(EventRow, eid).entrants}
            seat_ids = [by_draw[x] for x in g.seats]
        w = winners[frozenset(seat_ids)]
        text = "1/2-1/2" if w is None else ("1-0" if w == seat_ids[0] else "0-1")
        enter_result(db, eid, g.id, text)


def test_round_robin_head_to_head_comes_before_sonneborn_berger(db):
    names = ["a", "b", "c", "d", "e"]
    eid = create_event(db, "s3_xiangqi", [{"id": n} for n in names], overrides=RR_MATCH_POINTS)
    # a beats everyone; b beats c, d; e beats b, d; c beats e; d beats c.
    # c and d both have 1 point: d won their game, c has the better Sonneborn-Berger (2 vs 1)
    beats = {"a": "bcde", "b": "cd", "c": "e", "d": "c", "e": "bd"}
    winners = {frozenset((w, x)): w for w, xs in beats.items() for x in xs}
    out = play_by_hand(db, eid, winners)
    table = {r["id"]: r for r in out["outcome"]["standings"]}
    assert table["c"]["points"] == table["d"]["points"] == 1 and table["c"]["sb"] > table["d"]["sb"]
    order = [r["id"] for r in out["outcome"]["standings"]]
    assert order == ["a", "e", "b", "d", "c"]      # e beat b (both 2 points); d beat c
    assert not any(r.get("lot") for r in out["outcome"]["standings"])
    # the direct encounter is shown where it was asked: between the tied, not for a (alone)
    assert {k: table[k]["direct"] for k in names} == {"a": None, "e": 1, "b": 0, "d": 1, "c": 0}


def test_round_robin_cycle_is_settled_by_lot(db):
    names = ["a", "b", "c", "d"]
    secret = "c1" * 32
    eid = create_event(db, "s3_xiangqi", [{"id": n} for n in names], overrides=RR_MATCH_POINTS,
                       event_id="cycle", secret=secret)
    # a > b > c > a, and each of them beats d: points, head-to-head, SB and wins all equal
    beats = {"a": "bd", "b": "cd", "c": "ad"}
    winners = {frozenset((w, x)): w for w, xs in beats.items() for x in xs}
    out = play_by_hand(db, eid, winners)
    rows = out["outcome"]["standings"]
    assert rows[3]["id"] == "d" and not rows[3].get("lot")
    assert all(r.get("lot") for r in rows[:3])
    assert [r["direct"] for r in rows[:3]] == [1, 1, 1] and rows[3]["direct"] is None   # the cycle: 1 each
    dn = draws(db, eid)
    tied = sorted(dn[n] for n in "abc")
    want = lot.lot_order(secret, "cycle", 1, "standings-" + "-".join(map(str, tied)), tied)
    assert [dn[r["id"]] for r in rows[:3]] == want


def test_cli_seeded_draw(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from qipai.cli import app

    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("QIPAI_DATABASE_URL", url)
    players = tmp_path / "p.txt"
    players.write_text("\n".join(f"x{i} bot=random rating={1000 + 10 * i}" for i in range(1, 7)) + "\n")
    runner = CliRunner()
    res = runner.invoke(app, ["event", "new", "--preset", "s2_go", "--players", str(players),
                              "--id", "sd", "--seeded", "2"])
    assert res.exit_code == 0, res.output
    got = draws(open_db(url), "sd")
    assert got["x6"] == 1 and got["x5"] == 2
    res = runner.invoke(app, ["event", "new", "--preset", "s2_go", "--bots", "6", "--seeded", "2"])
    assert res.exit_code == 2 and "needs 2 ratings" in res.output


def test_a_tie_is_marked_by_lot_only_once_the_tied_results_are_all_in(db):
    """Mid-round the loser of a finished game and the entrants still playing all tie on 0: the
    lot orders them for now, but no place is decided by it yet, so no row is marked; once the
    round is over (the event finished) the tie the lot broke is marked."""
    eid = create_event(db, "s3_xiangqi", [{"id": n} for n in "abcd"], overrides=RR_MATCH_POINTS,
                       event_id="midround", secret="7d" * 32)
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        assert not any(r.get("lot") for r in d.standings())         # before any game
    out = run_event(db, eid)
    with db() as s:
        g = s.get(GameRow, out["waiting"][0])
        by_draw = {e.draw: e.entrant_id for e in s.get(EventRow, eid).entrants}
        first, second = (by_draw[x] for x in g.seats)
    enter_result(db, eid, g.id, "1-0")
    run_event(db, eid)
    with db() as s:
        rows = Director(s, s.get(EventRow, eid)).standings()
    assert rows[0]["id"] == first and rows[0]["points"] == 1
    assert [r["points"] for r in rows[1:]] == [0, 0, 0] and second in {r["id"] for r in rows[1:]}
    assert not any(r.get("lot") for r in rows)                       # three tie on 0, two still play
    # every other game drawn: the two who played neither decided game tie on every figure
    out = play_by_hand(db, eid, {frozenset(p): None for p in combinations("abcd", 2)})
    rows = out["outcome"]["standings"]
    assert [r["points"] for r in rows] == [2, 1.5, 1.5, 1]
    assert [bool(r.get("lot")) for r in rows] == [False, True, True, False]
