"""A restart never decides a game: live games are rebuilt from their action log; the seat on
turn starts that turn again (competition.md §4.7)."""

from __future__ import annotations

import json
import time

from sqlalchemy import select

from qipai.server.models import ActionRow, TableRow

from .server_helpers import client, next_state, post, receive, signup, ws


def left_ms(msg, seat):
    return msg["clocks"][seat]["deadline"] - msg["now"]


def test_xiangqi_resumes_from_its_log_and_the_turn_restarts_with_its_allowance(tmp_path, db_url):
    """§4.7: after a restart the seat on turn starts that turn again with the bank it had when
    the turn began; neither its thinking before the stop nor the downtime is charged (on
    SQLite and on PostgreSQL)."""
    with client(tmp_path, database_url=db_url) as c:
        red, black = signup(c, "red"), signup(c, "black")
        t = post(c, red, "/api/tables", {"game": "xiangqi", "settings": {"clock": "board_default"}}).json()
        post(c, black, f"/api/tables/{t['id']}/sit")
        with ws(c, red, t["id"]) as r, ws(c, black, t["id"]) as b:
            next_state(r), next_state(b)
            r.send_json({"type": "move", "seq": 0, "action": "h2e2"})
            next_state(r)
            before = next_state(b)
            time.sleep(0.6)                      # black thinks 0.6 s, then the server stops
        bank_black = before["clocks"][1]["bank"]
    with client(tmp_path, database_url=db_url).app.state.db() as s:   # the game's log, undecided
        row = s.scalar(select(TableRow))
        assert row.status == "playing" and row.record_id is None
        log = s.execute(select(ActionRow.kind, ActionRow.seat, ActionRow.action)
                        .where(ActionRow.table_id == t["id"]).order_by(ActionRow.idx)).all()
        assert [tuple(x) for x in log][:2] == [("start", None, None), ("move", 0, "h2e2")]
    time.sleep(1.0)                              # the server is down for a second
    with client(tmp_path, database_url=db_url) as c:
        listed = c.get(f"/api/tables/{t['id']}").json()
        assert listed["status"] == "playing" and listed["plies"] == 1
        with ws(c, black, t["id"]) as b:
            assert receive(b)["type"] == "hello"
            m = next_state(b)
            assert m["seq"] == 1 and m["to_act"] == [1] and m["view"]["last_move"] == "h2e2"
            assert m["clocks"][1]["bank"] == bank_black
            # black's first move at a lobby table: its bank stands and the turn has the first
            # move's grace (first_move_ms), which begins again just now
            assert m["clocks"][1].get("first_move")
            allowance = c.app.state.settings.first_move_ms
            assert 0 <= allowance - left_ms(m, 1) < 300   # the turn began again just now
            b.send_json({"type": "move", "seq": 1, "action": "h9g7"})
            assert next_state(b)["seq"] == 2
            b.send_json({"type": "resign"})
            m = next_state(b)
            while not m.get("record"):
                m = next_state(b)
        rec = c.get(f"/api/records/{m['record']}").json()["record"]
        assert rec["actions"] == ["h2e2", "h9g7"] and rec["result"]["reason"] == "resign"
        assert any(e.get("type") == "resumed" for e in rec["meta"]["events"])
        used = rec["meta"]["times"][1][1]             # black's move: timed from the restart
        assert used < 500, rec["meta"]["times"]


def test_bots_resume_their_pending_turn(tmp_path):
    with client(tmp_path) as c:
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "doudizhu", "bots": 2,
                                          "settings": {"clock": "none", "bot_delay_ms": 400}}).json()
        with ws(c, alice, t["id"]) as a:
            m = next_state(a)
            while m["to_act"] != [0]:
                m = next_state(a)
            a.send_json({"type": "move", "seq": m["seq"], "action": m["legal"][0]})
            m = next_state(a)
            assert m["to_act"] != [0]             # a bot thinks; the server stops now
        seq, hand = m["seq"], m["view"]["hand"]
    with client(tmp_path) as c:
        with ws(c, alice, t["id"]) as a:
            m = next_state(a)
            # the same deal, replayed (the hand only grows, by the kitty, until the person plays)
            assert m["seq"] >= seq and set(hand) <= set(m["view"]["hand"])
            while m["seq"] == seq or (m["to_act"] and m["to_act"] != [0] and not m["result"]):
                m = next_state(a)                 # the bots answer after the restart
            assert m["seq"] > seq


def test_a_game_saved_by_an_older_version_resumes(tmp_path):
    """A live game saved as one snapshot (tables.live, before the action log) is converted by
    the migration to a ``snapshot`` row and goes on from it after the upgrade."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from qipai.competition import db as dbmod
    from qipai.match import clock_preset
    from qipai.match.clock import SeatClock

    clocks = [SeatClock(clock_preset("board_default")) for _ in range(2)]
    clocks[0].bank_left = 598_800
    clocks[1].start_turn(5000)
    live = {"actions": ["h2e2"], "now": 6000,
            "clocks": [{k: v for k, v in vars(c).items() if k != "spec"} for c in clocks],
            "turns": [0, 2], "turn_counter": 2, "events": [], "times": [[0, 1200, [598_800, 600_000]]],
            "illegal": [0, 0], "offer": None, "cooldown": [0, 0], "moves_by": [1, 0],
            "meta": {"table": "old12345"}}
    settings = {"clock": "board_default", "spectator_delay_ms": 0, "bot_delay_ms": 0,
                "origin": {"seed": "s1", "deal": None}}
    cfg = Config()
    cfg.set_main_option("script_location", str(dbmod.Path(dbmod.__file__).with_name("migrations")))
    with create_engine(f"sqlite:///{tmp_path / 'qipai.db'}").begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0007")
        conn.execute(text("INSERT INTO tables (id, game, options, num_seats, seats, settings, status, "
                          "seed, live, created) VALUES ('old12345', 'xiangqi', '{}', 2, :seats, "
                          ":settings, 'playing', 's1', :live, 't')"),
                     {"seats": json.dumps([{"user": 1, "name": "red"}, {"user": 2, "name": "black"}]),
                      "settings": json.dumps(settings), "live": json.dumps(live)})
    with client(tmp_path) as c:
        assert c.get("/api/tables/old12345").json()["plies"] == 1
        with ws(c, None, "old12345") as spectator:
            m = next_state(spectator)
            assert m["seq"] == 1 and m["to_act"] == [1] and m["view"]["last_move"] == "h2e2"
            assert [x["bank"] for x in m["clocks"]] == [598_800, 600_000]
            assert 0 <= m["clocks"][1]["deadline"] - m["now"] <= 600_000
