"""``qipai bot connect`` as real processes against a real ``qipai serve``: one connection with a
built-in bot accepts the challenges of two others — a Botzone bot kept running (doudizhu) and a
Gomocup engine (gomoku) — and every game is played to its end and stored."""

from __future__ import annotations

import sys

import httpx

from .botapi_helpers import bot_token, person
from .engine_helpers import GOMOCUP_TEST, HERE
from .server_helpers import LiveServer
from .server_process import Served, output_files, qipai_process


def connect(server: LiveServer, token: str, *args: str) -> Served:
    """``qipai bot connect`` as a process of its own (forked from the zygote where it can be), its
    output and errors in one file."""
    out, _ = output_files("connect")
    return qipai_process(["bot", "connect", "--server", server.base, "--token", token, *args], out)


def test_bot_connect_plays_challenges_with_a_bot_a_botzone_bot_and_a_gomocup_engine(tmp_path):
    with LiveServer(tmp_path) as srv:
        owner = person(srv.base, "owner")
        host = bot_token(owner, "hostbot", ["bot:play"])["token"]
        zone = bot_token(owner, "zonebot", ["bot:play", "challenge:write"])["token"]
        five = bot_token(owner, "fivebot", ["bot:play", "challenge:write"])["token"]
        procs = [connect(srv, host, "--bot", "random", "--games", "2")]
        botzone = f"{sys.executable} {HERE / 'botzone_engine.py'} --keep"
        procs.append(connect(srv, zone, "--botzone", botzone, "--games", "1", "--challenge", "hostbot",
                             "--game", "doudizhu", "--clock", "none", "--set", "bot_delay_ms=0"))
        procs.append(connect(srv, five, "--gomocup", " ".join(GOMOCUP_TEST), "--games", "1",
                             "--challenge", "hostbot", "--game", "gomoku", "-o", "ruleset=freestyle",
                             "--clock", "none"))
        outs = []
        try:
            for p in procs:
                outs.append(p.communicate(timeout=120)[0])
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
        assert [p.returncode for p in procs] == [0, 0, 0], outs
        assert "2 games played" in outs[0] and "accepted challenge" in outs[0], outs[0]
        assert "1 game played" in outs[1] and "1 game played" in outs[2]
        with httpx.Client(base_url=srv.base) as http:
            host_games = {r["game"] for r in http.get("/api/records", params={"user": "hostbot"}).json()}
            assert host_games == {"doudizhu", "gomoku"}
            for name, game in (("zonebot", "doudizhu"), ("fivebot", "gomoku")):
                rows = http.get("/api/records", params={"user": name}).json()
                assert [r["game"] for r in rows] == [game] and rows[0]["result"], rows
