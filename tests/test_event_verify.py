"""Commit–reveal of an event's deals (competition.md §6.1): every game record of an event carries
the derivation of its seed (``meta.rng``), the event's secret is added when the event ends, and
``qipai verify`` re-derives each game's seed from it and deals again. A record checked before the
event ends needs the secret given by hand; a forged seed or deal is caught."""

from __future__ import annotations

import copy
import json

import pytest
from sqlalchemy import select

from qipai.competition import create_event, open_db, run_event
from qipai.competition.db import EventRow, GameRow, MatchRow
from qipai.competition.verify import verify_record
from qipai.core.record import Record

from .server_process import run_cli

SECRET = "5e" * 32


def pairs(n):
    return [{"id": f"t{i}", "bot": "random", "members": [f"t{i}a", f"t{i}b"]} for i in range(1, n + 1)]


def solo(n, bot="random"):
    return [{"id": f"p{i}", "bot": bot} for i in range(1, n + 1)]


EVENTS = {
    "s2_doudizhu": (solo(3), {"match": {"session": {"end": {"deals": 2}}}}),       # a session of deals
    "duplicate": (solo(6, "rule"),
                  {"match": {"session": {"seats": 3, "end": {"deals": 2}, "duplicate": True}}}),
    "s2_4a4": (pairs(2), None),                                    # the dealer rotates (spec "deal")
    "s0_baohuang": (solo(5), {"match": {"session": {"seats": 5, "end": {"deals": 3}}}}),   # tribute
    "s2_xiangqi": (solo(2), None),                                 # no chance: the seed is still derived
}


def records(db, eid):
    with db() as s:
        q = select(GameRow).join(MatchRow).where(MatchRow.event_id == eid)
        return [Record.from_json(g.record) for g in s.scalars(q) if g.record is not None]


@pytest.mark.parametrize("name", list(EVENTS))
def test_every_game_of_a_finished_event_verifies_from_the_revealed_secret(tmp_path, name):
    db = open_db(f"sqlite:///{tmp_path / 'v.db'}")
    entrants, overrides = EVENTS[name]
    preset = "s2_doudizhu" if name == "duplicate" else name
    eid = create_event(db, preset, entrants, secret=SECRET, overrides=overrides)
    assert run_event(db, eid)["status"] == "finished"
    recs = records(db, eid)
    assert recs
    for rec in recs:
        rng = rec.meta["rng"]
        assert rng["event"] == eid and rng["secret"] == SECRET
        checks = verify_record(rec)
        assert checks and all(c.ok for c in checks), [c.message for c in checks]
        # a forged published seed, another secret, another deal: each is caught
        forged = copy.deepcopy(rec)
        forged.meta["rng"]["deals"][0]["seed"] = "00" * 32
        assert not verify_record(forged)[0].ok
        other = copy.deepcopy(rec)
        other.meta["rng"]["secret"] = "11" * 32
        assert "commitment" in verify_record(other)[0].message
        if rec.deal is not None and name != "s2_xiangqi":
            dealt = copy.deepcopy(rec)
            dealt.meta["rng"]["match"] += "x"          # the seed derived for another match
            dealt.meta["rng"]["deals"][0]["seed"] = verify_record_seed(dealt)
            assert not verify_record(dealt)[0].ok


def verify_record_seed(rec):
    from qipai.competition.dealing import derive_seed

    return derive_seed(rec.meta["rng"], SECRET, rec.meta["rng"]["deals"][0]["deal"])


def test_before_the_event_ends_a_record_needs_the_secret_and_the_cli_checks_it(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'v.db'}")
    eid = create_event(db, "s2_doudizhu", solo(3), secret=SECRET,
                       overrides={"match": {"session": {"end": {"deals": 3}}}})
    assert run_event(db, eid, max_games=1)["status"] == "running"
    (rec,) = records(db, eid)
    assert rec.meta["rng"]["secret"] is None
    (check,) = verify_record(rec)
    assert not check.ok and "not revealed yet" in check.message
    assert all(c.ok for c in verify_record(rec, event_secret=SECRET))
    assert not verify_record(rec, event_secret="22" * 32)[0].ok
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec.to_json()))
    out = run_cli("verify", str(path))
    assert out.returncode == 1 and "not revealed yet" in out.stdout
    out = run_cli("verify", str(path), "--secret", SECRET)
    assert out.returncode == 0 and out.stdout.startswith("OK"), out.stdout + out.stderr
    # the event ends: its secret is in every stored record
    assert run_event(db, eid)["status"] == "finished"
    with db() as s:
        assert s.get(EventRow, eid).status == "finished"
    assert all(r.meta["rng"]["secret"] == SECRET for r in records(db, eid))
