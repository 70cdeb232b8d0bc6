"""A Swiss round that cannot be paired (everyone left has met everyone left, or withdrawn) ends
the stage with the standings as they are and says so; it never hangs the director or raises out
of entering a result or a withdrawal. The default number of rounds stays within what a small
field can pair."""

from __future__ import annotations

import random

import pytest

from qipai.competition import create_event, enter_result, open_db
from qipai.competition.config import parse_config, preset_data
from qipai.competition.db import EventRow
from qipai.competition.event import Director, withdraw


def pending(db, eid):
    with db() as s:
        return [g.id for g in Director(s, s.get(EventRow, eid)).pending_games()]


def outcome(db, eid):
    with db() as s:
        ev = s.get(EventRow, eid)
        return ev.status, ev.outcome


@pytest.mark.timeout(60)
def test_withdrawals_that_leave_two_players_who_have_met_end_the_stage(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'a.db'}")
    eid = create_event(db, "s3_xiangqi", [f"p{i}" for i in range(1, 10)], secret="01" * 32)
    for i in range(3, 10):       # seven of nine withdraw during round 1
        withdraw(db, eid, f"p{i}")
    for _ in range(20):
        todo = pending(db, eid)
        if not todo:
            break
        enter_result(db, eid, todo[0], "1-0", moves=40)
    status, out = outcome(db, eid)
    assert status == "finished"
    assert "could not be paired" in out["note"] and out["champion"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", range(3))
def test_five_players_for_four_rounds_finish_whatever_the_results(tmp_path, seed):
    rng = random.Random(seed)
    db = open_db(f"sqlite:///{tmp_path / 'a.db'}")
    eid = create_event(db, "s3_xiangqi", [f"p{i}" for i in range(1, 6)], secret=f"{seed:02x}" * 32,
                       overrides={"stage": {"kind": "swiss", "rounds": 4}})
    for _ in range(30):
        todo = pending(db, eid)
        if not todo:
            break
        enter_result(db, eid, todo[0], rng.choice(["1-0", "0-1", "1/2-1/2"]), moves=40)
    status, out = outcome(db, eid)
    assert status == "finished" and len(out["standings"]) == 5


@pytest.mark.parametrize(("n", "rounds"), [(3, 2), (5, 3), (9, 5), (16, 6), (100, 9)])
def test_the_default_number_of_swiss_rounds_fits_the_field(n, rounds):
    cfg = parse_config("s3_xiangqi", preset_data("s3_xiangqi"))
    assert cfg.swiss_rounds(n) == rounds
