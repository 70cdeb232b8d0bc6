"""Seat counts that an option value fixes are declared by the game (``Game.seats_by_option``):
the server makes a table with that many seats when none is asked for, refuses another count, and
``/api/games`` lists the declaration for the lobby's seat choice."""

from __future__ import annotations

import pytest

import qipai

from .server_helpers import client, post, signup


@pytest.mark.parametrize("game_id, options, seats", [
    ("junqi", {"variant": "siguo"}, 4), ("junqi", {}, 2),
    ("baohuang", {"ruleset": "sdbh.provisional"}, 4), ("baohuang", {}, 5),
])
def test_seat_counts_follow_the_options(game_id, options, seats):
    assert qipai.load(game_id, **options).seat_counts() == (seats,)


def test_a_table_gets_the_seat_count_its_options_fix(tmp_path):
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        tb = post(c, alice, "/api/tables", {"game": "junqi", "options": {"variant": "siguo"}, "bots": 3})
        assert tb.status_code == 201 and tb.json()["num_seats"] == 4
        siguo = {"variant": "siguo"}
        bad = post(c, alice, "/api/tables", {"game": "junqi", "options": siguo, "num_seats": 2})
        assert bad.status_code == 400 and bad.json()["error"] == "bad_seats"
        games = {g["id"]: g for g in c.get("/api/games").json()}
        assert games["junqi"]["seats_by_option"] == {"variant": {'"luzhan"': [2], '"siguo"': [4]}}
        assert games["xiangqi"]["seats_by_option"] == {}
