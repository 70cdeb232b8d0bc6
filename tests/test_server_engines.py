"""Engines at lobby tables: offered by the organizer (``qipai serve --engine NAME=CMD``, the
protocol found by greeting the engine), listed with the game's bots, seated as ``engine:NAME``
and played through their door under the referee."""

from __future__ import annotations

import pytest
import typer

from qipai.cli import _offered_engines
from qipai.engines import EngineSpec, parse_engine
from tests.engine_helpers import FSF, GNUGO, GOMOCUP_TEST
from tests.server_helpers import client, next_state, post, signup, ws


@pytest.fixture
def c(tmp_path):
    fsf = EngineSpec("fsf", FSF, "uci", {"depth": 1})
    with client(tmp_path, engines=(fsf,)) as cl:
        yield cl


def test_the_lobby_offers_the_engines_of_each_game(c):
    games = {g["id"]: g for g in c.get("/api/games").json()}
    assert "engine:fsf" in games["xiangqi"]["bots"] and "engine:fsf" not in games["go"]["bots"]
    alice = signup(c, "alice")
    r = post(c, alice, "/api/tables", {"game": "xiangqi", "bots": 1, "bot": "engine:nope"})
    assert r.status_code == 400 and r.json()["error"] == "bad_bot"


def test_an_engine_plays_at_a_lobby_table_and_the_record_replays(c):
    from qipai.core import Record, replay

    alice = signup(c, "alice")
    t = post(c, alice, "/api/tables", {"game": "xiangqi", "sit": False, "bots": 2, "bot": "engine:fsf",
                                       "options": {"no_capture_plies": 30},
                                       "settings": {"clock": "none"}}).json()
    assert [s["name"] for s in t["seats"]] == ["engine:fsf", "engine:fsf"]
    with ws(c, alice, t["id"]) as sock:
        msg = next_state(sock)
        while not msg["result"] or msg["record"] is None:
            msg = next_state(sock)
    rec = Record.from_json(c.get(f"/api/records/{msg['record']}").json()["record"])
    assert replay(rec).result.text == msg["result"]["text"] and len(rec.actions) > 0


def test_serve_finds_each_engines_protocol_and_refuses_bad_ones():
    specs = _offered_engines([f"fsf={FSF}", f"gnugo={' '.join(GNUGO)}",
                              f"test={' '.join(GOMOCUP_TEST)}", "mine:gtp=qipai gtp"])
    assert [(s.name, s.protocol, s.game) for s in specs] == [
        ("fsf", "uci", "xiangqi"), ("gnugo", "gtp", "go"), ("test", "gomocup", "gomoku"),
        ("mine", "gtp", "go")]
    for bad in ("x=/nonexistent/engine", "x=/bin/true", f"fsf={FSF}"):
        with pytest.raises(typer.Exit):
            _offered_engines([f"fsf={FSF}", bad] if bad.startswith("fsf") else [bad])
    assert parse_engine("mine:gtp=qipai gtp").game == "go"


def test_an_event_on_the_server_cannot_name_engine_programs(c):
    boss = signup(c, "boss")                      # the first account is an organizer
    for fields in ({"engines.x": "/bin/sh -c 'touch /tmp/owned'"}, {"engines": {"x": "/bin/sh"}}):
        r = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "players": [
            {"id": "a", "bot": "greedy"}, {"id": "x", "bot": "engine:x"}], "fields": fields})
        assert r.status_code == 400 and r.json()["error"] == "bad_field"
    r = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "players": [
        {"id": "a", "bot": "greedy"}, {"id": "x", "bot": "engine:fsf"}]})
    assert r.status_code == 400 and "unknown engine 'fsf'" in r.json()["message"]


def test_an_engine_is_refused_for_options_its_protocol_cannot_play(tmp_path):
    test = EngineSpec("five", " ".join(GOMOCUP_TEST), "gomocup")
    with client(tmp_path, engines=(test,)) as cl:
        alice = signup(cl, "alice")
        r = post(cl, alice, "/api/tables", {"game": "gomoku", "options": {"opening": "swap3"},
                                             "bots": 1, "bot": "engine:five"})
        assert r.status_code == 400 and r.json()["error"] == "engine_unfit"
        assert cl.get("/api/tables").json() == []              # nothing half-made stays
        r = post(cl, alice, "/api/tables", {"game": "gomoku", "bots": 1, "bot": "engine:five"})
        assert r.status_code == 201 and r.json()["seats"][1]["bot"] == "engine:five"


def test_serve_reads_engines_with_their_settings_from_a_file(tmp_path):
    conf = tmp_path / "engines.toml"
    conf.write_text(f'''[engines.fsf]
command = "{FSF}"
depth = 2
options = {{ "Skill Level" = 3 }}

[engines]
gnugo = "{' '.join(GNUGO)}"
''')
    specs = _offered_engines([], conf)
    assert [(s.name, s.protocol, s.settings) for s in specs] == [
        ("fsf", "uci", {"depth": 2, "options": {"Skill Level": 3}}), ("gnugo", "gtp", {})]
    for bad in ("[engines]\nx = 5\n", "[other]\n", "[engines.x]\ncommand = \"c\"\nprotocol = \"telnet\"\n"):
        conf.write_text(bad)
        with pytest.raises(typer.Exit):
            _offered_engines([], conf)


def test_a_botzone_bot_is_offered_for_its_game_and_plays_a_card_table(tmp_path):
    """``qipai serve --engine ddz:botzone:doudizhu=CMD``: the doudizhu lobby offers it, and a
    table of three such seats (a door and a process each, kept running) plays a deal."""
    from qipai.core import Record, replay
    from tests.test_engines_botzone import BOT

    (spec,) = _offered_engines([f"ddz:botzone:doudizhu={' '.join(BOT)} --keep"])
    assert (spec.protocol, spec.game) == ("botzone", "doudizhu")
    with pytest.raises(typer.Exit):
        _offered_engines([f"ddz:botzone={' '.join(BOT)}"])         # which game?
    with client(tmp_path, engines=(spec,)) as c:
        games = {g["id"]: g for g in c.get("/api/games").json()}
        assert "engine:ddz" in games["doudizhu"]["bots"] and "engine:ddz" not in games["xiangqi"]["bots"]
        alice = signup(c, "alice")
        t = post(c, alice, "/api/tables", {"game": "doudizhu", "sit": False, "bots": 3, "bot": "engine:ddz",
                                           "settings": {"clock": "none", "spectator_delay_ms": 0}}).json()
        with ws(c, alice, t["id"]) as sock:
            msg = next_state(sock)
            while not msg["result"] or msg["record"] is None:
                msg = next_state(sock)
        rec = Record.from_json(c.get(f"/api/records/{msg['record']}").json()["record"])
    assert replay(rec).result.text == msg["result"]["text"]
    assert not [e for e in rec.meta["events"] if e["type"] in ("engine_error", "forfeit")]


@pytest.mark.parametrize("lang,line", [("zh", "引擎 mine：围棋 [go]，GTP 协议"),
                                       ("en", "engine mine: Go [go], GTP protocol")])
def test_serve_names_each_engines_game_and_protocol_in_words(lang, line, capsys):
    from qipai import i18n
    i18n.use(lang)
    try:
        _offered_engines(["mine:gtp=qipai gtp"])
    finally:
        i18n.use("en")
    assert capsys.readouterr().out.strip() == line
