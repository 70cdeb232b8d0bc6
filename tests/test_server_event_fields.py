"""``POST /api/events`` with ``fields`` that do not fit the preset: a whole section set to a plain
value (was 500 internal), an unknown key inside ``match`` or ``stage`` or a value of the wrong
kind (was dropped silently and the event made), a rule's part of the wrong kind (was 500). Each
is 400 bad_event naming the field, and nothing is made."""

from __future__ import annotations

import pytest

from qipai.competition.common import EventError
from qipai.competition.create import prepare_event

from .server_helpers import client, post, signup

BOTS = [{"id": f"z{i}", "bot": "random"} for i in range(4)]

# (fields, the field the refusal names)
BAD = [
    ({"game": "zz"}, "game"),                       # these five were 500
    ({"match": -1}, "match"),
    ({"match": True}, "match"),
    ({"match": 1e308}, "match"),
    ({"stage": 5}, "stage"),
    ({"game_points": 5}, "game_points"),
    ({"placement_points": 5}, "placement_points"),
    ({"match.series": 5}, "match.series"),
    ({"match.series.scheduled": "zz"}, "series.scheduled"),
    ({"match.series.first_mover": 5}, "series.first_mover"),
    ({"game_points.win": "x"}, "game_points.win"),
    ({"game_points.short_game": 5}, "game_points.short_game"),
    ({"match.clock": "nonexistent_clock"}, "match"),   # these were taken silently
    ({"match.clock": -1}, "match"),
    ({"match.gamez": 5}, "match"),
    ({"match.games": "zz"}, "match"),
    ({"stage.rounds": "zz"}, "stage.rounds"),
    ({"stage.rounds": -1}, "stage.rounds"),
    ({"stage.table_size": True}, "stage"),
    ({"match.series.early_stop": "yes"}, "series.early_stop"),
    ({"title": 5}, "title"),
    ({"unit_limit": "x"}, "unit_limit"),
    ({"registration": 5}, "registration"),
]


@pytest.mark.parametrize(("fields", "field"), BAD)
def test_a_bad_field_is_an_event_error_naming_it(fields, field):
    with pytest.raises(EventError) as e:
        prepare_event("s0_xiangqi", None, fields)
    assert field in str(e.value)


def test_the_server_refuses_them_400_naming_the_field_and_makes_nothing(tmp_path):
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        for fields, field in BAD:
            r = post(c, boss, "/api/events", {"preset": "s0_xiangqi", "players": BOTS, "fields": fields})
            assert (r.status_code, r.json()["error"]) == (400, "bad_event"), (fields, r.text)
            assert field in r.json()["message"], (fields, r.text)
        assert c.get("/api/events").json() == []
        # the good ones still make events
        for fields in ({"stage.rounds": 3}, {"match.series.scheduled": 1}, {"game_points.win": 2}):
            r = post(c, boss, "/api/events", {"preset": "s0_xiangqi", "players": BOTS, "fields": fields})
            assert r.status_code == 201, (fields, r.text)
