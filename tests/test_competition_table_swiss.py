"""Table Swiss for 3-5 seat games (competition.md §2.8): seating by score in groups of k, the
repeat swap, byes for the lowest-ranked without one, table points, standings, bad input."""

from __future__ import annotations

from collections import Counter

import pytest

from qipai.competition import EventError, create_event, open_db, run_event
from qipai.competition.db import EventRow
from qipai.competition.event import Director
from qipai.competition.pairing import table_points, table_swiss_round
from qipai.core.errors import OptionError
from tests import match_games  # noqa: F401  (test-high plays 3-5 seats)
from tests.competition_helpers import snapshot


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'ts.db'}")


def bots(n):
    return [{"id": f"p{i:02d}", "bot": "random"} for i in range(1, n + 1)]


def swiss_over(k, rounds, deals=2):
    return {"game": {"id": "test-high"}, "stage": {"kind": "table_swiss", "rounds": rounds},
            "match": {"session": {"seats": k, "end": {"deals": deals}}}}


def test_table_points_share_ranks():
    assert table_points([1, 2, 3]) == [2, 1, 0]
    assert table_points([2, 1, 3, 4]) == [2, 3, 1, 0]
    assert table_points([1, 2, 2]) == [2, 0.5, 0.5]              # second and third share 1 + 0
    assert table_points([1, 2, 2, 2, 5]) == [4, 2, 2, 2, 0]      # 3 + 2 + 1 shared by three


def test_table_swiss_seating_byes_and_repeat_swap():
    order = [5, 1, 7, 2, 3, 6, 4]            # best first
    # 7 entrants, tables of 3: one bye, the lowest-ranked without one (4 has had one: 6 sits out)
    tables, byes = table_swiss_round(order, 3, {4: 1})
    assert byes == [6] and tables == [[5, 1, 7], [2, 3, 4]]
    # 1 and 7 shared a table last round: table 1 gives its lowest (7) for the next group's highest (2)
    tables, byes = table_swiss_round(order, 3, {4: 1}, last_tables=[[1, 7, 9]])
    assert tables == [[5, 1, 2], [7, 3, 4]]
    # the swap is made only when it removes the repeat: 5 and 1 stay together whatever the swap
    tables, _ = table_swiss_round(order, 3, {4: 1}, last_tables=[[5, 1, 9]])
    assert tables == [[5, 1, 7], [2, 3, 4]]
    tables, _ = table_swiss_round([1, 2, 3, 4, 5, 6], 3, {}, last_tables=[[1, 3], [1, 4]])
    assert tables == [[1, 2, 3], [4, 5, 6]]             # swapping 3 for 4 would repeat 1-4
    # everyone has had a bye: the fewest byes, lowest-ranked first
    _, byes = table_swiss_round([1, 2, 3, 4], 3, {1: 1, 2: 1, 3: 2, 4: 2})
    assert byes == [2]
    with pytest.raises(OptionError, match="at least 4 entrants"):
        table_swiss_round([1, 2, 3], 4, {})


@pytest.mark.parametrize(("k", "n", "rounds"), [(4, 10, 3), (5, 7, 2), (3, 5, 3)])
def test_table_swiss_event_runs_to_a_champion(db, k, n, rounds):
    eid = create_event(db, "s0_doudizhu", bots(n), overrides=swiss_over(k, rounds))
    out = run_event(db, eid)
    assert out["status"] == "finished"
    table = out["outcome"]["standings"]
    assert out["outcome"]["champion"] == table[0]["id"] and out["outcome"]["runner_up"] == [table[1]["id"]]
    with db() as s:
        d = Director(s, s.get(EventRow, eid))
        assert d.current_round() == rounds
        byes = Counter()
        pts = Counter()
        for r in range(1, rounds + 1):
            ms = d.matches(r)
            sessions = [m for m in ms if m.kind == "session"]
            assert len(sessions) == n // k and all(len(m.entrants) == k for m in sessions)
            assert sorted(x for m in ms for x in m.entrants) == list(range(1, n + 1))
            for m in ms:
                if m.kind == "bye":
                    byes[m.entrants[0]] += 1
                    pts[m.entrants[0]] += (k - 1) / 2
                    continue
                tp = table_points(m.result["ranks"])
                assert sum(tp) == k * (k - 1) / 2
                for x, p in zip(m.entrants, tp, strict=True):
                    pts[x] += p
                assert all(len(g.seats) == k for g in m.games)
        # nobody gets a second bye before everyone has had one
        assert max(byes.values(), default=0) - min(byes.get(x, 0) for x in range(1, n + 1)) <= 1
        rows = {r["draw"]: r for r in table}
        assert {x: rows[x]["points"] for x in rows} == {x: pts[x] for x in range(1, n + 1)}
        keys = [(r["points"], r["measure"]) for r in table]
        assert keys == sorted(keys, reverse=True)


def test_table_swiss_bad_input(db):
    before = snapshot(db)
    with pytest.raises(EventError, match="table_swiss needs a \\[match.session\\]"):
        create_event(db, "s0_xiangqi", bots(4), overrides={"game": {"id": "test-nim"},
                                                           "stage": {"kind": "table_swiss"}})
    with pytest.raises(EventError, match="needs at least 4 players"):
        create_event(db, "s0_doudizhu", bots(3), overrides=swiss_over(4, 2))
    assert snapshot(db) == before
