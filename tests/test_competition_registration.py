"""Registration (competition.md §2.1, §5.6): players join an event with its code until the
organizer closes entries; with check-in, whoever did not check in is left out of the draw; the
draw is made from the event's secret and the registration nonces (ordered by entrant id), so it
can be checked, and round 1 is paired."""

from __future__ import annotations

import pytest

from qipai.competition import lot, open_db, run_event
from qipai.competition.db import EventRow
from qipai.competition.event import Director, EventError
from qipai.competition.registration import (
    check_in,
    close_entries,
    join,
    leave,
    open_registration,
    registration,
)

SECRET = "9a" * 32


@pytest.fixture
def db(tmp_path):
    return open_db(f"sqlite:///{tmp_path / 'reg.db'}")


def test_players_join_check_in_and_the_draw_uses_their_nonces(db):
    eid, code = open_registration(db, "s3_xiangqi", event_id="club", secret=SECRET, check_in=True,
                                  players=[{"id": "robot", "bot": "random"}])
    with db() as s:
        ev = s.get(EventRow, eid)
        assert ev.status == "registration" and ev.commitment == lot.commitment(SECRET)
    join(db, eid, {"id": "alice"}, code, nonce="0a1b")
    join(db, eid, {"id": "bob"}, code)
    join(db, eid, {"id": "carol"}, code, nonce="ff")
    join(db, eid, {"id": "dave"}, code)
    with pytest.raises(EventError, match="wrong join code"):
        join(db, eid, {"id": "eve"}, "0000")
    # a repeated Join of an entrant changes nothing (its nonce neither) and is no error; the id of
    # another kind of entry (here a bot's) is still refused
    assert join(db, eid, {"id": "alice"}, code, nonce="ffff") is False
    with pytest.raises(EventError, match="duplicate player"):
        join(db, eid, {"id": "robot"}, code)
    with pytest.raises(EventError, match="nonce"):
        join(db, eid, {"id": "frank"}, code, nonce="XYZ")
    leave(db, eid, "dave")
    for pid in ("alice", "bob", "carol"):
        check_in(db, eid, pid)
    join(db, eid, {"id": "gina"}, code)                     # joins but never checks in
    listed = {e["id"]: e["status"] for e in registration(db, eid)["entrants"]}
    assert listed == {"robot": "checked_in", "alice": "checked_in", "bob": "checked_in",
                      "carol": "checked_in", "gina": "registered"}
    out = close_entries(db, eid)
    assert out["no_shows"] == ["gina"] and sorted(out["entrants"]) == ["alice", "bob", "carol", "robot"]
    with db() as s:
        ev = s.get(EventRow, eid)
        assert ev.status == "running"
        draws = {e.entrant_id: e.draw for e in ev.entrants}
        assert Director(s, ev).matches(1)
    # the published procedure: the ids sorted, shuffled by the stream of (secret, draw, event id,
    # stage 1, the nonces of the entrants drawn, ordered by entrant id)
    order = lot.stream(SECRET, "draw", "club", 1, "0a1b", "ff").shuffle(sorted(draws))
    assert draws == {pid: i for i, pid in enumerate(order, 1)}
    with pytest.raises(EventError, match="closed"):
        join(db, eid, {"id": "late"}, code)
    run_event(db, eid)                                       # the bot's games are played


def test_closing_with_too_few_changes_nothing(db):
    eid, code = open_registration(db, "s2_doudizhu", event_id="cards")
    join(db, eid, {"id": "p1"}, code)
    join(db, eid, {"id": "p2"}, code)
    with pytest.raises(EventError, match="needs at least 3"):
        close_entries(db, eid)
    join(db, eid, {"id": "p3", "unit": "North"}, code)
    assert close_entries(db, eid)["no_shows"] == []


def test_check_players_counts_the_field_only_when_asked():
    from qipai.competition.config import load_preset
    from qipai.competition.event import check_players

    cfg = load_preset("s2_doudizhu")
    with pytest.raises(EventError, match="needs at least 3"):
        check_players(cfg, [{"id": "p1"}])
    assert [p["id"] for p in check_players(cfg, [{"id": "p1"}], enough=False)] == ["p1"]
    with pytest.raises(EventError, match="duplicate player"):      # every other check still holds
        check_players(cfg, [{"id": "p1"}, {"id": "p1"}], enough=False)
