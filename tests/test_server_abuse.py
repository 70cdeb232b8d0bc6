"""A hostile player's requests that must be refused with the right code, never a 500 nor a
table that breaks later: clocks of absurd sizes or shapes (competition.md §4.1: every clock part
is a duration or a count a table can run); the records of a round still being played
(§6.5)."""

from __future__ import annotations

import re
import time

import pytest

from qipai.core.errors import OptionError
from qipai.match.clock import MAX_DURATION, ClockSpec

from .server_helpers import as_user, client, next_state, post, signup, ws

BAD_CLOCKS = [
    {"bank": "infh"},                                                   # was 500 (OverflowError)
    {"bank": "1e400s"},                                                 # was 500
    {"bank": "99999999999999h"},                                        # was a 3.6e20 ms bank
    {"bank": MAX_DURATION + 1},
    {"bank": "1m", "increment": "9999999h"},
    {"bank": "1m", "phase_caps": ["bid"]},                              # was 500 (AttributeError)
    {"bank": "1m", "phase_caps": {"bid": "-1s"}},
    {"bank": "1m", "overtime": {"canadian": {"moves": 0, "period": "1m"}}},   # was 500 (ZeroDivision)
    {"bank": "1m", "overtime": {"byoyomi": {"periods": -1, "period": "1m"}}},
    {"bank": "1m", "overtime": {"byoyomi": {"periods": 10**9, "period": "1h"}}},
    {"bank": "1m", "overtime": {"byoyomi": {"periods": 1, "period": "-1m"}}},
    {"bank": "1m", "overtime": ["byoyomi"]},
    {"bank": "1m", "trustee_delay": "-5s"},
    {"bank": "1m", "trustee_after": -1},
    {"bank": "1m", "trustee_after": 0},
    {"bank": "1m", "on_cap": "warn:99999999"},
    {"bank": "1m", "on_cap": {"max": 3}},
    {"bank": True},
]


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_clock_parts_out_of_range_are_option_errors(clock):
    with pytest.raises(OptionError):
        ClockSpec.from_dict(clock)


def test_clock_of_seven_days_is_still_a_clock():
    spec = ClockSpec.from_dict({"bank": "168h", "overtime": {"byoyomi": {"periods": 1000, "period": "1h"}}})
    assert spec.bank == MAX_DURATION


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with client(tmp_path_factory.mktemp("abuse"), spectator_delay_ms=0, bot_delay_ms=0) as c:
        yield c


def test_bad_clocks_are_refused_bad_clock_by_tables_and_challenges(c):
    """(Seeks take a preset's name only.)"""
    a, _ = signup(c, "alice"), signup(c, "bob")
    for clock in BAD_CLOCKS:
        settings = {"clock": clock}
        for path, body in (("/api/tables", {"game": "xiangqi", "bots": 1, "settings": settings}),
                           ("/api/challenge/bob", {"game": "xiangqi", "settings": settings})):
            r = post(c, a, path, body)
            assert (r.status_code, r.json()["error"]) == (400, "bad_clock"), (path, clock, r.text)


@pytest.mark.parametrize("clock, why, words", [
    ([], "clock.not_a_clock", "a clock is a preset's name or a table of its parts"),   # was unhashable
    ({"on_cap": "skip:99999999999"}, "clock.needs_max", "from 1 to 1000"),  # was "needs max >= 1"
    ({"bank": "NaNs"}, "clock.bad_duration", "bad duration 'NaNs'"),      # was "past 7 days"
    ({"on_cap": "warn:three"}, "clock.needs_max", "from 1 to 1000"),  # was Python's int() words
])
def test_a_bad_clock_says_what_is_wrong_in_the_readers_language(c, clock, why, words):
    from qipai import i18n

    a = signup(c, f"clocks{len(why)}{len(str(clock))}")
    r = post(c, a, "/api/tables", {"game": "xiangqi", "settings": {"clock": clock}})
    answer = r.json()
    assert (r.status_code, answer["error"], answer["why"]) == (400, "bad_clock", why), r.text
    assert words in answer["message"], answer
    zh = i18n.t("error.bad_clock", answer["params"], lang="zh")
    en = i18n.t("error.bad_clock", answer["params"], lang="en")
    assert zh != en and not re.search("[A-Za-z]{3}", zh.replace("NaNs", "")), (zh, en)


def _finished(c, event_id: str, table: str, rid_of: dict, token: str) -> None:
    for _ in range(600):
        ev = c.get(f"/api/events/{event_id}", headers=as_user(token)).json()
        for m in ev["rounds"][0]["matches"]:
            for g in m["games"]:
                if g.get("table") == table and g.get("record"):
                    rid_of[table] = (g["record"], g["id"])
                    return
        time.sleep(0.05)
    raise AssertionError(f"table {table} never stored its game")


def test_a_rounds_records_are_held_until_the_round_is_over(tmp_path):
    """§6.5: while a round is on, a finished game of it (its record, steps, download and the
    event's own replay of it) is shown only to its players and the event's referees: a
    duplicate round deals the same cards at every table, so a finished table's record showed
    every hand to players still holding them at another table, and to anyone signed out."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        tok = {n: signup(c, n) for n in ("alice", "dave", "erin", "fred", "carol")}
        body = {"preset": "s3_xiangqi", "name": "Round", "event_id": "rnd",
                "players": ["alice", "dave", "erin", "fred"]}
        assert post(c, boss, "/api/events", body).status_code == 201
        tables = post(c, boss, "/api/events/rnd/start").json()["tables"]
        seats = {t: [s["name"] for s in c.get(f"/api/tables/{t}").json()["seats"]] for t in tables}
        first, other = tables
        with ws(c, tok[seats[first][0]], first) as sock:
            next_state(sock)
            sock.send_json({"type": "resign"})
            m = next_state(sock)
            while not m.get("record"):
                m = next_state(sock)
        found: dict = {}
        _finished(c, "rnd", first, found, boss)
        rid, gid = found[first]
        paths = [f"/api/records/{rid}", f"/api/records/{rid}/steps",
                 f"/api/records/{rid}/download?format=native", f"/api/events/rnd/games/{gid}/steps"]
        for _ in range(600):                     # the event stores the game after its table
            if c.get(paths[3], headers=as_user(boss)).status_code == 200:
                break
            time.sleep(0.05)
        still_playing = seats[other][0]
        for who in ("carol", still_playing, None):                 # an outsider, a round player, signed out
            for path in paths:
                r = c.get(path, headers=as_user(tok[who]) if who else {})
                assert (r.status_code, r.json()["error"]) == (403, "round_in_play"), (who, path)
                assert r.json()["params"] == {"round": 1}
        for token in (tok[seats[first][1]], boss):                # who played it, the organizer
            assert all(c.get(p, headers=as_user(token)).status_code == 200 for p in paths)
        # nor is its result in any list: records, a player's history and profile, the event
        # page and its CSV exports (the same rule, conduct.RoundHold)
        player = seats[first][0]
        for who in ("carol", still_playing, None, player, "boss"):
            head = as_user(tok[who] if who != "boss" else boss) if who else {}
            shown = who in (player, "boss")
            listed = [x["id"] for x in c.get("/api/records", headers=head).json()]
            history = [x["id"] for x in c.get(f"/api/records?user={player}", headers=head).json()]
            assert (rid in listed, rid in history) == (shown, shown), who
            assert c.get(f"/api/users/{player}", headers=head).json()["games"] == (1 if shown else 0)
            ev = c.get("/api/events/rnd", headers=head).json()
            (game,) = [g for m in ev["rounds"][0]["matches"] for g in m["games"] if g["table"] == first]
            assert (game["result"] is not None, game["record"] == rid) == (shown, shown), who
            (match,) = [m for m in ev["rounds"][0]["matches"] if m["games"][0]["table"] == first]
            assert (match["result"] is not None) == shown, who
            results = c.get("/api/events/rnd/export/results.csv", headers=head).text.splitlines()
            (row,) = [r.split(",") for r in results if r.startswith(f"{gid},")]
            assert (row[5] != "", row[7] != "") == (shown, shown), (who, row)
            table = c.get(f"/api/tables/{first}", headers=head).json()
            assert (table["record"] == rid, table["plies"] is not None) == (shown, shown), who
            # the standings, on the page and in the CSV, are those before the round (issue 13):
            # its players too see them so; the organizer sees them live
            live = who == "boss"
            points = [s["points"] for s in ev["standings"]]
            assert (any(points), ev["standings_after"]) == (live, None if live else 0), who
            csv = c.get("/api/events/rnd/export/standings.csv", headers=head).text
            rows = [r.split(",") for r in csv.splitlines()]
            col = rows[0].index("points")
            assert any(float(r[col]) for r in rows[1:]) == live, (who, rows)
        with ws(c, tok[still_playing], other) as sock:              # the round ends
            next_state(sock)
            sock.send_json({"type": "resign"})
            m = next_state(sock)
            while not m.get("record"):
                m = next_state(sock)
        _finished(c, "rnd", other, found, boss)
        for _ in range(600):
            if c.get(paths[0]).status_code == 200:
                break
            time.sleep(0.05)
        assert all(c.get(p).status_code == 200 for p in paths)
        assert rid in [x["id"] for x in c.get("/api/records").json()]
        ev = c.get("/api/events/rnd").json()
        assert all(g["result"] for m in ev["rounds"][0]["matches"] for g in m["games"])
        assert any(s["points"] for s in ev["standings"]) and ev["standings_after"] == 1


NON_FINITE = ['{"game": "go", "options": {"komi": NaN}}', '{"game": "go", "options": {"komi": Infinity}}',
              '{"game": "go", "options": {"komi": -Infinity}}', '{"game": "go", "options": {"komi": 1e400}}']


def test_nan_and_infinity_in_a_body_are_bad_json(c):
    """Python's JSON reader takes NaN, Infinity and 1e400 as floats: a go komi of NaN or
    Infinity answered 500 (the option check converts it to an int), an event form field of NaN
    500 (the refusal naming it could not be written as JSON). Standard JSON has no such numbers:
    400 bad_json, at every route, and on a table's socket."""
    a = signup(c, "nan_a")
    signup(c, "nan_b")
    for body in NON_FINITE:
        for path in ("/api/tables", "/api/challenge/nan_b"):
            r = c.post(path, content=body, headers={**as_user(a), "Content-Type": "application/json"})
            assert (r.status_code, r.json()["error"]) == (400, "bad_json"), (path, body, r.text)
    r = c.post("/api/events/form", content='{"preset": "s0_xiangqi", "fields": {"match.games": NaN}}',
               headers={**as_user(a), "Content-Type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "bad_json")
    table = post(c, a, "/api/tables", {"game": "gomoku", "sit": False}).json()["id"]
    with ws(c, a, table) as sock:
        sock.send_text('{"type": "position", "ply": NaN}')
        m = sock.receive_json()
        while m.get("type") != "error":
            m = sock.receive_json()
        assert m["error"] == "bad_json"


@pytest.mark.parametrize("game, options", [
    ("go", {"komi": 1e308}), ("go", {"komi": "1e400"}), ("go", {"komi": "nan"}),    # were 500
    ("xiangqi", {"no_capture_plies": "9" * 5000}),                                   # was 500
    ("sandayi", {"bids": "60," + "9" * 5000}), ("sandayi", {"expose_kitty_max": "9" * 5000}),
    ("xiangqi", {"no_capture_plies": 10**30}), ("doudizhu", {"max_redeals": 10**14}),  # were taken
    ("baibian-bajue", {"bomb_bonus": 10**12}),
])
def test_options_past_any_rule_are_bad_options(c, game, options):
    """A game option is checked before anything reads it: numbers that are not finite, texts of
    thousands of digits (Python refuses to read them) and integers past 10**9 are 400
    bad_options, never a 500 nor a table that keeps them."""
    a = signup(c, f"opt{abs(hash((game, str(options)))) % 10**8}")
    r = post(c, a, "/api/tables", {"game": game, "options": options})
    assert (r.status_code, r.json()["error"]) == (400, "bad_options"), r.text


def test_a_browser_at_an_address_no_page_has_gets_the_site_not_json(c):
    """A mistyped link opened in a browser showed {"error":"not_found",...}: the shell answers
    (status 404), whose router says so in the reader's language; API clients keep the JSON."""
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    r = c.get("/no/such/page", headers=html)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in r.text
    for path in ("/api/nothing", "/static/nothing.js", "/no/such/page"):
        r = c.get(path, headers=html if path != "/no/such/page" else {})
        assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_a_stored_table_whose_options_are_now_refused_does_not_stop_the_server(tmp_path):
    """Tables stored before a check was added (an option of 10**30 plies, a clock past 7 days)
    are left out at start, with a log line, and the server serves the others: the server
    refused to start at all ('Application startup failed') after integer options were bounded."""
    import sqlite3

    with client(tmp_path) as c:
        a = signup(c, "keeper")
        bad = post(c, a, "/api/tables", {"game": "xiangqi"}).json()["id"]
        good = post(c, a, "/api/tables", {"game": "gomoku"}).json()["id"]
    with sqlite3.connect(tmp_path / "qipai.db") as db:
        db.execute("UPDATE tables SET options = ? WHERE id = ?",
                   ('{"no_capture_plies": 1000000000000000000000000000000}', bad))
    with client(tmp_path) as c:
        assert c.get(f"/api/tables/{good}").status_code == 200
        assert c.get(f"/api/tables/{bad}").status_code == 404


REFUSED_NAMES = ["机器人1", "裁判1", "bot1", "bot_", "b0t", "referee_", "Referee2", "admin1", "系统管理",
                 "qipai_official", "engine_fsf", "_bot", "adm1n", "RefereeBob", "administrator2", "裁判长",
                 "robotics", "官方账号"]
ACCEPTED_NAMES = ["robert", "botanist", "bottle", "aimee", "engineer", "bob_the_bot", "r2d2", "admiral",
                  "a1ice", "张三", "机器", "1bot", "841", "bo"]


def test_look_alike_names_of_a_bot_a_referee_or_the_site_are_reserved_ordinary_ones_are_not():
    """A reserved word followed by digits, _ or -, written with look-alike digits, or (a
    Chinese one, or a Latin word no ordinary name starts with) at the start of a name passed
    for a bot, a referee or the site; names that merely start with the letters of a short
    reserved word (botanist, aimee) are ordinary."""
    from qipai.server.auth import reserved_username

    assert [n for n in REFUSED_NAMES if not reserved_username(n)] == []
    assert [n for n in ACCEPTED_NAMES if reserved_username(n)] == []


@pytest.mark.parametrize("name", ["机器人", "Bot", "BOT", "ＢＯＴ", "裁判", "Referee", "admin", "系统",
                                  "Qipai", "bot1", "b0t", "机器人1", "系统管理", "qipai_official"])
def test_names_that_pass_for_a_bot_a_referee_or_the_site_are_reserved(c, name):
    """A person could sign up as 机器人 or Bot and sit at a table looking like a built-in bot
    (机器人（规则型）), or as 裁判 / admin in a chat: 400 reserved_username, for bot accounts too."""
    r = c.post("/api/signup", json={"username": name, "password": "correct horse"})
    assert (r.status_code, r.json()["error"]) in ((400, "reserved_username"), (400, "bad_username")), r.text
    if name.isascii() or name in ("机器人", "裁判", "系统", "机器人1", "系统管理"):
        assert r.json()["error"] == "reserved_username" and r.json()["params"] == {"username": name}
    owner = signup(c, f"owner{abs(hash(name)) % 10**6}")
    r = post(c, owner, "/api/account/bots", {"username": name})
    assert r.status_code == 400 and r.json()["error"] in ("reserved_username", "bad_username")


@pytest.mark.parametrize("text", ["\u202eevil", "a\x00b", "line\nbreak", "\u2066x"])
def test_names_people_give_are_plain_text(tmp_path, text):
    """Event and meet names, units and token descriptions took NUL (which PostgreSQL's text
    columns refuse: a 500 there) and direction overrides (U+202E turned the event list's text
    around), as chat lines never did: 400 bad_request naming the field."""
    with client(tmp_path) as c:
        _plain_names_refused(c, signup(c, "boss"), text)      # the first account: an organizer


def _plain_names_refused(c, boss: str, text: str) -> None:
    bots = [{"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"}]
    for body in ({"name": text}, {"meet": text}):
        r = post(c, boss, "/api/events", {"preset": "s0_xiangqi", "players": bots, **body})
        assert (r.status_code, r.json()["error"]) == (400, "bad_request"), r.text
        assert r.json()["problems"][0]["where"] == "body." + next(iter(body))
    r = post(c, boss, "/api/account/tokens", {"scopes": ["board:play"], "description": text})
    assert (r.status_code, r.json()["error"]) == (400, "bad_request")


@pytest.mark.parametrize("player, why", [
    ({"id": "x" * 5000, "bot": "random"}, "event.bad_entrant"),          # was taken (an 80-wide column)
    ({"id": "b1", "bot": "random", "name": "\u202eevil"}, "event.bad_name"),
    ({"id": "b1", "bot": "random", "name": "n" * 201}, "event.bad_name"),
    ({"id": "b1", "bot": "random", "unit": "a\x00b"}, "event.bad_name"),
])
def test_entrant_ids_names_and_units_fit_their_columns_and_are_plain(tmp_path, player, why):
    with client(tmp_path) as c:
        boss = signup(c, "boss")
        r = post(c, boss, "/api/events", {"preset": "s0_xiangqi",
                                          "players": [player, {"id": "b2", "bot": "random"}]})
        got = (r.status_code, r.json()["error"], r.json()["params"]["why"])
        assert got == (400, "bad_event", why), r.text
