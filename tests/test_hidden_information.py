"""Hidden information is declared by each game (``Game.hidden_information``), and the server
treats a table by that declaration: spectators of a hidden-information game are delayed and its
move count stays out of the lobby while it runs (competition.md §6.2, §6.5)."""

from __future__ import annotations

from qipai.core import games
from qipai.core.registry import game_class

from .server_helpers import client, next_state, post, receive, signup, ws

HIDDEN = {"doudizhu", "shengji", "baohuang", "sandayi", "wakeng", "fouafour", "mahjong-gb", "laizi-mahjong",
          "baibian-bajue",
          "junqi"}
PUBLIC = {"xiangqi", "go", "gomoku", "chinese-checkers"}


def test_every_registered_game_declares_hidden_information():
    ids = {info.id for info in games() if not info.id.startswith("test-")}   # not tests' toys
    assert ids == HIDDEN | PUBLIC, "a new game: add it to one of the two sets"
    for gid in ids:
        cls = game_class(gid)
        assert "hidden_information" in vars(cls), f"{gid} does not declare hidden_information"
        assert cls.hidden_information is (gid in HIDDEN), gid


def test_junqi_spectators_wait_and_the_lobby_hides_its_progress(tmp_path):
    # junqi's layout phase shows nothing hidden yet: the declaration, not the views, decides
    with client(tmp_path, spectator_delay_ms=60_000, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "junqi", "bots": 1,
                                          "settings": {"clock": "none"}}).json()
        lobby = c.get(f"/api/tables/{t['id']}").json()
        assert lobby["status"] == "playing" and lobby["plies"] is None
        listed = [x for x in c.get("/api/tables").json() if x["id"] == t["id"]]
        assert len(listed) == 1 and listed[0]["plies"] is None
        with ws(c, None, t["id"]) as s:
            hello = receive(s)
            assert hello["type"] == "hello" and hello["delay_ms"] == 60_000
            assert hello["table"]["plies"] is None
            s.send_json({"type": "ping"})
            assert receive(s)["type"] == "pong"      # no state within the delay


def test_go_spectators_wait_for_nothing(tmp_path):
    with client(tmp_path, spectator_delay_ms=60_000, bot_delay_ms=0) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "go", "bots": 1,
                                          "settings": {"clock": "none"}}).json()
        assert c.get(f"/api/tables/{t['id']}").json()["plies"] == 0
        with ws(c, None, t["id"]) as s:
            hello = receive(s)
            assert hello["type"] == "hello" and "delay_ms" not in hello
            state = next_state(s)
            assert state["type"] == "state" and state["view"]["seat"] is None
