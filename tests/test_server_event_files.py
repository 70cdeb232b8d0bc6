"""An organizer's files for a federation (checklist E8): every game of an event in one zip, each
in its game's own record format (PGN, RIF, SGF) with an index, and FIDE's Tournament Report File
(TRF16) of a Swiss or round robin of a two-player game. Against the real server: the zip's files
read back with the project's own record readers and replay to the event's results; the TRF's
lines sit at the standard's fixed columns, read back with an independent TRF reader (py4swiss,
which checks points against results and each pairing from both sides) and agree with the
event's standings."""

from __future__ import annotations

import csv
import io
import re
import zipfile

import pytest
from py4swiss.trf import ParsedTrf
from py4swiss.trf.sections import PlayerSection, XSection

from qipai import i18n
from qipai.competition import create_event, run_event
from qipai.core.formats import read_records
from qipai.core.record import replay
from qipai.server.replays import replay_steps

from .server_helpers import as_user, client, signup

SWISS = {"stage.kind": "swiss", "stage.rounds": 3, "game_points.loss": 0, "game_points.drawn": 0.5,
         "standings": "match_points"}


def bots(n: int) -> list[dict[str, str]]:
    return [{"id": f"bot{i}", "bot": "random"} for i in range(1, n + 1)]


def games_of(ev: dict) -> dict[int, tuple[int, dict, dict]]:
    """Event game id -> (round, match, game) of the event as its page reads it."""
    return {g["id"]: (r["round"], m, g) for r in ev["rounds"] for m in r["matches"] for g in m["games"]}


def read_zip(data: bytes) -> tuple[dict[str, bytes], list[dict[str, str]]]:
    z = zipfile.ZipFile(io.BytesIO(data))
    files = {n: z.read(n) for n in z.namelist()}
    index = list(csv.DictReader(io.StringIO(files.pop("index.csv").decode("utf-8-sig"))))
    return files, index


@pytest.mark.parametrize(("preset", "fields", "n", "fmt", "ext"), [
    ("s3_xiangqi", SWISS, 5, "xiangqi-pgn", "pgn"),
    ("s3_gomoku", {"stage.kind": "round_robin"}, 3, "renjunet-rif", "rif"),
    ("s2_go", {"game.board_size": 9}, 2, "sgf-go", "sgf"),
])
def test_all_games_in_one_zip_replay_to_the_events_results(tmp_path, preset, fields, n, fmt, ext):
    with client(tmp_path, bot_delay_ms=0) as c:
        db = c.app.state.db
        eid = create_event(db, preset, bots(n), event_id="cup", name="Club cup", fields=fields)
        assert run_event(db, eid, think_ms=0)["status"] == "finished"
        ev = c.get(f"/api/events/{eid}").json()
        r = c.get(f"/api/events/{eid}/export/games.zip")
        assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
        assert 'filename="cup-games.zip"' in r.headers["content-disposition"]
        files, index = read_zip(r.content)
        games = games_of(ev)
        played = {gid for gid, (_, _, g) in games.items() if g["replay"]}
        assert played and {int(row["game"]) for row in index} == set(games)
        assert len(files) == len(played)
        assert sorted(files) == sorted(row["file"] for row in index if row["file"])
        for row in index:
            rnd, m, g = games[int(row["game"])]
            where = (int(row["round"]), int(row["board"]), int(row["number"]))
            assert where == (rnd, m["index"], g["number"])
            assert row["seats"] == " / ".join(g["seats"]) and row["result"] == (g["result"] or "")
            if g["id"] not in played:
                assert row["file"] == ""
                continue
            # named by round, board and players, in the game's own format
            number = f"-g{g['number']}" if len(m["games"]) > 1 else ""
            assert row["file"] == f"r{rnd:02d}-b{m['index']:02d}{number}-{'-'.join(g['seats'])}.{ext}"
            # the file reads back with the project's reader for that format and replays to the
            # result the event stored for the game
            got_fmt, (rec,) = read_records(files[row["file"]], row["file"])
            assert got_fmt == fmt
            stored = c.get(f"/api/events/{eid}/games/{g['id']}/steps").json()
            actions = [s["action"] for s in stored["steps"][1:]]
            back = [a[1] if isinstance(a, list) else a for a in rec.actions]     # [seat, text]: text
            # the moves as played; an SGF writes go's end procedure (the dead stones each side
            # marked) as its own closing actions, seat by seat: the replay below checks them
            moves = len(back) - rec.meta.get("closing_actions", 0)
            assert moves > 0 and back[:moves] == actions[:moves]
            assert len(back) == len(actions) or ext == "sgf"
            # replayed through the referee (every move checked, the recorded ending with it)
            end = replay(rec, source=row["file"])
            assert end.is_terminal() and end.result.text == rec.result["text"] == g["result"]
            assert list(end.result.winners) == stored["record"]["result"]["winners"]
            assert [g["seats"][w] for w in end.result.winners] == g["winners"]
            movers = [s["seat"] for s in replay_steps(rec.to_json())[1:]]
            assert movers[:moves] == [s["seat"] for s in stored["steps"][1:moves + 1]]


def test_the_zip_keeps_a_round_in_play_from_the_public(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        boss = signup(c, "boss")                  # the first account is an organizer
        db = c.app.state.db
        eid = create_event(db, "s3_xiangqi", bots(4), event_id="held", fields=SWISS)
        run_event(db, eid, think_ms=0, max_games=1)          # round 1: one game over, one not
        ev = c.get(f"/api/events/{eid}", headers=as_user(boss)).json()
        (done,) = [g for _, _, g in games_of(ev).values() if g["status"] == "finished"]
        public, index = read_zip(c.get(f"/api/events/{eid}/export/games.zip").content)
        assert public == {} and all(row["file"] == row["result"] == "" for row in index)
        assert {int(row["game"]) for row in index} == set(games_of(ev))
        mine, index = read_zip(c.get(f"/api/events/{eid}/export/games.zip", headers=as_user(boss)).content)
        (row,) = [row for row in index if row["file"]]
        assert (int(row["game"]), row["result"]) == (done["id"], done["result"])
        assert list(mine) == [row["file"]]
        # the TRF counts no round still being played: the players have no result yet
        lines = c.get(f"/api/events/{eid}/export/trf.txt").text.splitlines()
        players = [x for x in lines if x.startswith("001")]
        assert len(players) == 4 and all(len(x) == 89 and x[80:84] == " 0.0" for x in players)


def test_an_account_named_as_a_bot_entrant_sees_nothing_of_its_round_in_play(tmp_path):
    """A bot entrant plays no account: whoever signs up with its name is no player of its games,
    and sees neither their files and results in the zip, the CSV, the event's page nor a replay
    while the round is being played."""
    with client(tmp_path, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        db = c.app.state.db
        entrants = [{"id": f"robin{i}", "bot": "random"} for i in range(1, 5)]
        eid = create_event(db, "s3_xiangqi", entrants, event_id="named", fields=SWISS)
        run_event(db, eid, think_ms=0, max_games=1)          # round 1: one game over, one not
        ev = c.get(f"/api/events/{eid}", headers=as_user(boss)).json()
        (done,) = [g for _, _, g in games_of(ev).values() if g["status"] == "finished"]
        posing = signup(c, done["seats"][0])
        files, index = read_zip(c.get(f"/api/events/{eid}/export/games.zip", headers=as_user(posing)).content)
        assert files == {} and all(row["file"] == row["result"] == "" for row in index), index
        rows = list(csv.DictReader(io.StringIO(c.get(f"/api/events/{eid}/export/results.csv",
                                                     headers=as_user(posing)).text.lstrip("\ufeff"))))
        assert [r["result"] for r in rows if int(r["game"]) == done["id"]] == [""]
        seen = games_of(c.get(f"/api/events/{eid}", headers=as_user(posing)).json())
        assert seen[done["id"]][2]["result"] is None
        r = c.get(f"/api/events/{eid}/games/{done['id']}/steps", headers=as_user(posing))
        assert (r.status_code, r.json()["error"]) == (403, "round_in_play")


def trf_columns(line: str) -> dict:
    """An ``001`` line read by the standard's columns (1-based in the standard: 5-8, 15-47,
    81-84, 86-89, then ten a round from 92)."""
    assert line[:4] == "001 " and line[8:14].strip() == "" and line[47:80].strip() == ""
    assert line[4:8].strip().isdigit() and line[84] == " " and line[89:91] == "  "
    rounds = []
    for i in range(91, len(line), 10):
        part = line[i:i + 8]
        assert re.fullmatch(r"[ \d]{3}\d [wb-] [10=+\-UZ]", part), (line, i)
        rounds.append((int(part[:4]), part[5], part[7]))
        assert line[i + 8:i + 10] in ("", "  ")
    return {"number": int(line[4:8]), "name": line[14:47].rstrip(), "points": float(line[80:84]),
            "rank": int(line[85:89]), "rounds": rounds}


def test_the_trf_of_a_swiss_agrees_with_its_standings(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        db = c.app.state.db
        eid = create_event(db, "s3_xiangqi", bots(5), event_id="swiss5", name="Spring Swiss", fields=SWISS)
        assert run_event(db, eid, think_ms=0)["status"] == "finished"
        ev = c.get(f"/api/events/{eid}").json()
        assert ev["stage"] == "swiss" and ev["trf"] is True
        r = c.get(f"/api/events/{eid}/export/trf.txt")
        assert r.status_code == 200 and 'filename="swiss5.trf"' in r.headers["content-disposition"]
        assert r.content.endswith(b"\r\n")
        lines = r.text.split("\r\n")[:-1]
        head = {x[:3]: x[4:] for x in lines if not x.startswith("001")}
        assert head["012"] == "Spring Swiss" and head["062"] == "5" and "Swiss" in head["092"]
        assert re.fullmatch(r"\d{4}/\d\d/\d\d", head["042"]) and re.fullmatch(r"\d{4}/\d\d/\d\d", head["052"])
        dates = head["132"][87:]            # round 1 from column 92, ten columns a round
        assert re.fullmatch(r"\d\d/\d\d/\d\d(  \d\d/\d\d/\d\d){2}", dates), head["132"]
        players = [trf_columns(x) for x in lines if x.startswith("001")]
        draw = {e["id"]: e["draw"] for e in ev["entrants"]}
        standings = {s["id"]: s for s in ev["standings"]}
        assert sorted(p["name"] for p in players) == sorted(draw)
        for p in players:
            s = standings[p["name"]]
            assert p["number"] == draw[p["name"]] and p["rank"] == s["rank"] and p["points"] == s["points"]
            assert len(p["rounds"]) == 3
        # each round as the event's pairings say: the match's first mover white, the bye U
        number = {name: draw[name] for name in draw}
        by_number = {p["number"]: p for p in players}
        for rnd in ev["rounds"]:
            for m in rnd["matches"]:
                if m["kind"] == "bye":
                    assert by_number[number[m["entrants"][0]]]["rounds"][rnd["round"] - 1] == (0, "-", "U")
                    continue
                a, b = (number[x] for x in m["entrants"])
                ra, rb = ("=", "=") if m["winner"] is None else \
                    (("1", "0") if m["winner"] == m["entrants"][0] else ("0", "1"))
                assert by_number[a]["rounds"][rnd["round"] - 1] == (b, "w", ra)
                assert by_number[b]["rounds"][rnd["round"] - 1] == (a, "b", rb)
        # an independent reader of TRF takes every line and finds the file consistent
        sections = [PlayerSection.from_string(x) for x in lines if x.startswith("001")]
        ParsedTrf(player_sections=sections, x_section=XSection(number_of_rounds=3)).validate_contents()
        ranks = {draw[k]: v["rank"] for k, v in standings.items()}
        assert {x.starting_number: x.rank for x in sections} == ranks


def test_a_trf_is_refused_in_words_for_events_it_cannot_describe(tmp_path):
    with client(tmp_path, bot_delay_ms=0) as c:
        db = c.app.state.db
        create_event(db, "s0_doudizhu", bots(3), event_id="ddz")
        create_event(db, "s2_xiangqi", bots(4), event_id="ko")
        for eid, code, params in (("ddz", "trf_game", {"seats": 3}), ("ko", "trf_format", {})):
            assert c.get(f"/api/events/{eid}").json()["trf"] is False
            r = c.get(f"/api/events/{eid}/export/trf.txt")
            body = r.json()
            assert (r.status_code, body["error"]) == (409, code), body
            assert {k: body["params"][k] for k in params} == params
            assert "TRF" in i18n.t(f"error.{code}", params, lang="zh")
        assert c.get("/api/events/none/export/trf.txt").json()["error"] == "no_event"
        assert c.get("/api/events/none/export/games.zip").json()["error"] == "no_event"
